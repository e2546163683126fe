"""Self-play speed: our engine beside riichienv, jansou and pymahjong, in the same process.

Every engine plays full hanchan (see bench/peers.py for what each peer plays) with a
uniform-random legal choice at every decision point, on one core. A run is ``--games``
games per engine, the engines taking turns game by game so that drift hits all of them
alike, and each figure is the median over ``--runs`` runs. Time is this process's CPU time
(``time.process_time``): on a shared machine, other processes' load does not count against
whichever engine happened to run beside it. Rounds/s is the headline; choice points/s counts
decisions with at least two legal answers (comparable across engines).

    python3 -m bench.selfplay [--games 8] [--runs 5] [--seed 1]

Our engine runs as installed: its hot modules compiled by mypyc when ``pip install`` could
(engine/native.py; the second line says which); ``RIICHI_INTERPRETED=1`` measures the source.

The last line is exactly ``selfplay rounds/s vs riichienv: <ratio>x``, the lines before it
the ratios against jansou and pymahjong: the median over runs of (our rounds/s / the peer's
rounds/s in the same run).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench.peers import PEERS, SelfPlay, Tally, installed
from engine import native
from engine.actions import Action
from engine.actions.inquiry import MultiPlayerInquiry
from engine.driver import run_sync
from engine.env import MahjongEnv
from engine.events import EventBase
from engine.game import new_game
from engine.rules.config import TENHOU_HANCHAN


class RandomCenter:
    """Answers every open seat with a uniform choice among its (action, option) pairs."""

    wants_events = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        #: answers with a real choice (the game's record counts every answer)
        self.choices = 0

    def on_event(self, seat: int | None, event: EventBase) -> None:
        """Events are not wanted (``wants_events`` is False)."""

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        players = inquiry.players
        if len(players) == 1:  # a turn, or a claim only one seat may make
            for seat, single in players.items():
                self._answer(inquiry, seat, single.actions)
            return
        for seat, single in list(players.items()):
            if inquiry.done:
                return
            self._answer(inquiry, seat, single.actions)

    def _answer(self, inquiry: MultiPlayerInquiry, seat: int, actions: list[Action]) -> None:
        """A uniform pick among ``actions``' options, as (action index, option index)."""
        # most turns offer only the discard: no sizes list for it (building one is 2.5% of a
        # self-play run's instructions)
        sizes = [len(action.options) for action in actions] if len(actions) > 1 else None
        total = len(actions[0].options) if sizes is None else sum(sizes)
        self.choices += total > 1
        pick = self.rng.randrange(total) if total > 1 else 0
        a = 0
        while sizes is not None and pick >= sizes[a]:
            pick -= sizes[a]
            a += 1
        inquiry.respond(seat, a, pick)


def ours_selfplay(games: int, seed: int) -> SelfPlay:
    """Full hanchan on our engine through engine.driver.run_sync with random answers."""
    tally = Tally()
    decisions = choices = 0
    for g in range(games):
        start = time.process_time()
        center = RandomCenter(seed * 7919 + g)
        game = new_game(TENHOU_HANCHAN, seed + g, center)
        run_sync(game)
        tally.game(len(game.rounds), tuple(game.scores), time.process_time() - start)
        decisions += len(game.decisions)  # one per answer
        choices += center.choices
    return tally.result(decisions, choices)


def env_selfplay(games: int, seed: int) -> SelfPlay:
    """Full hanchan on our engine through the integer step API (engine/env.py)."""
    rng = random.Random(seed)
    tally = Tally()
    decisions = 0
    env = MahjongEnv()
    for g in range(games):
        start = time.process_time()
        env.reset(seed + g)
        while not env.done:
            legal = env.legal_actions()
            decisions += 1
            env.step(legal[rng.randrange(len(legal))])
        tally.game(len(env.game.rounds), tuple(env.scores), time.process_time() - start)
    return tally.result(decisions, decisions)


def _check(name: str, run: SelfPlay) -> None:
    """A played game is a hanchan: at least 8 rounds and 100,000 points in the end (ours
    gives riichi sticks left on the table to the winner, as Tenhou does; a peer may leave
    them unpaid, so its total may fall short by whole sticks)."""
    for n, final in zip(run.rounds_per_game, run.scores, strict=True):
        if n < 8 and min(final) >= 0:
            raise SystemExit(f"{name}: a game of {n} rounds ended with nobody bust: {final}")
        short = 100_000 - sum(final)
        if short != 0 and (name.startswith("ours") or short < 0 or short % 1000):
            raise SystemExit(f"{name}: final scores {final} do not sum to 100,000")


def measure(
    engines: dict[str, Callable[[int, int], SelfPlay]], games: int, runs: int, seed: int
) -> dict[str, list[SelfPlay]]:
    """``runs`` runs of ``games`` games per engine, same seeds for each run. Engines take
    turns game by game (ours, then riichienv, ... then ours again), so a run's figures for
    every engine come from the same stretch of a drifting machine's time."""
    results: dict[str, list[SelfPlay]] = {name: [] for name in engines}
    for r in range(runs):
        played: dict[str, list[SelfPlay]] = {name: [] for name in engines}
        for g in range(games):
            for name, play in engines.items():
                played[name].append(play(1, seed + 1000 * r + g))
        for name, parts in played.items():
            run = _joined(parts)
            _check(name, run)
            results[name].append(run)
    return results


def _joined(parts: list[SelfPlay]) -> SelfPlay:
    """One tally of several batches of games."""
    return SelfPlay(
        sum(p.games for p in parts),
        sum(p.rounds for p in parts),
        sum(p.decisions for p in parts),
        sum(p.choices for p in parts),
        sum(p.seconds for p in parts),
        tuple(n for p in parts for n in p.rounds_per_game),
        tuple(s for p in parts for s in p.scores),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games per engine per run")
    parser.add_argument("--runs", type=int, default=5, help="runs; figures are medians")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    peers = {name: play for name, play in PEERS.items() if installed(name)}
    # riichienv plays right after ours in each run: the headline pair sees the same moment
    # of a shared machine's drift
    engines: dict[str, Callable[[int, int], SelfPlay]] = {"ours": ours_selfplay}
    engines.update({name: play for name, play in peers.items() if name == "riichienv"})
    engines["ours (env.py)"] = env_selfplay
    engines.update({name: play for name, play in peers.items() if name != "riichienv"})
    results = measure(engines, args.games, args.runs, args.seed)

    rate: dict[str, float] = {}
    print(f"{args.runs} runs x {args.games} full hanchan per engine, uniform-random legal play")
    print(f"our engine: {native.describe()}")
    print(f"{'engine':<15}{'rounds/s':>10}{'choices/s':>12}{'decisions/s':>13}{'rounds/game':>13}")
    for name, runs in results.items():
        rate[name] = statistics.median(r.rounds / r.seconds for r in runs)
        choice_rate = statistics.median(r.choices / r.seconds for r in runs)
        decision_rate = statistics.median(r.decisions / r.seconds for r in runs)
        per_game = statistics.mean(n for r in runs for n in r.rounds_per_game)
        print(
            f"{name:<15}{rate[name]:>10.1f}{choice_rate:>12.0f}{decision_rate:>13.0f}"
            f"{per_game:>13.1f}"
        )
    for peer in ("jansou", "pymahjong", "riichienv"):
        if peer not in results:
            print(f"selfplay rounds/s vs {peer}: n/a (not installed)")
            continue
        pairs = zip(results["ours"], results[peer], strict=True)
        ratio = statistics.median((a.rounds / a.seconds) / (b.rounds / b.seconds) for a, b in pairs)
        print(f"selfplay rounds/s vs {peer}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
