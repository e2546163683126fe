"""Every preset played many times with the engine's invariants checked after every event.

``python3 -m bench.soak [--games 200]``: uniform-random legal play (engine.centers.RandomCenter)
of whole matches of each preset in ``engine.rules.config.PRESETS``, seeds 0..N-1, with
tests/engine/table.py's ``check_invariants`` (tiles conserved, hand sizes, wall counts, points
conserved) subscribed after every event. A broken invariant stops the run with its traceback;
the suite plays two matches per preset, this plays as many as asked.
"""

from __future__ import annotations

import argparse
import time

from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.events.base import AFTER, EventBase, late
from engine.game.setup import new_game
from engine.rules.config import PRESETS
from tests.engine.table import check_invariants


def soak(name: str, games: int) -> tuple[int, float]:
    """Rounds played and CPU seconds for ``games`` matches of preset ``name``."""
    start, rounds = time.process_time(), 0
    for seed in range(games):
        game = new_game(PRESETS[name], seed, RandomCenter(seed))
        game.bus.subscribe(EventBase, check_invariants, late(AFTER))
        run_sync(game)
        assert game.over and game.rounds, (name, seed)
        rounds += len(game.rounds)
    return rounds, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="matches per preset")
    args = parser.parse_args()
    for name in sorted(PRESETS):
        rounds, seconds = soak(name, args.games)
        print(f"{name}: {args.games} games, {rounds} rounds, invariants held ({seconds:.1f} s)")
    print(f"soak: {len(PRESETS)} presets x {args.games} games, every invariant held")


if __name__ == "__main__":
    main()
