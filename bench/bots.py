"""The strong bot against three easy bots and against three of its frozen baseline.

Each seed is played four times with the strong bot in seat 0, 1, 2 and 3 (the other seats
easy bots), so every seat's walls and luck go once to the strong bot: luck cancels. The same
seed is also played once by four easy bots, whose figures over all seats are the easy bot's
on the same walls. The same seeds are played four times more with the strong bot in each
seat against three ``strong-2026-12`` (the strong bot of main at 91c6984, frozen in
engine/bot/baseline_2026_12): 2.50 there is no better than the old bot. Rates are per
hand played: deal-in = hands the seat dealt in (a ron from it), win = hands it won. Decision
time is the strong bot's CPU time per ``choose`` call (seat_view included; thread CPU time,
so other processes on a shared machine do not count, as in bench.selfplay), measured here
(engine/ has no clock).

    python3 -m bench.bots [--games 400] [--seed 1] [--jobs 2] [--only easy|baseline]

``--games`` counts the strong bot's hanchan against each set of opponents (a multiple of
four: four per seed). The last two lines are exactly ``bots vs baseline: avg rank R over N
hanchan`` and ``bots: strong avg rank R, deal-in D%, win W% over N hanchan; easy ...`` (the
easy opponents); ``--only`` plays one set of opponents and prints its line alone.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

import msgspec

from engine.actions.inquiry import SinglePlayerInquiry
from engine.bot import Bot, make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import Game, new_game
from engine.rules.config import TENHOU_HANCHAN


class TimedCenter(BotCenter):
    """Every seat played by a bot; the decision times of the timed seats are kept."""

    def __init__(self, bots: list[Bot], timed: set[int]) -> None:
        super().__init__(bots)
        self.timed = timed
        self.times: list[float] = []
        self.wall: list[float] = []

    def answer(self, seat: int, single: SinglePlayerInquiry) -> tuple[int, int]:
        if seat not in self.timed:
            return super().answer(seat, single)
        start, wall = time.thread_time(), time.perf_counter()
        answer = super().answer(seat, single)
        self.times.append(time.thread_time() - start)
        self.wall.append(time.perf_counter() - wall)
        return answer


class Tally(msgspec.Struct):
    games: int = 0
    ranks: int = 0
    hands: int = 0
    deal_ins: int = 0
    wins: int = 0

    def add(self, other: Tally) -> None:
        for f in self.__struct_fields__:
            setattr(self, f, getattr(self, f) + getattr(other, f))

    def line(self, name: str) -> str:
        hands = max(self.hands, 1)
        return (
            f"{name} avg rank {self.ranks / max(self.games, 1):.2f}, "
            f"deal-in {100 * self.deal_ins / hands:.1f}%, win {100 * self.wins / hands:.1f}%"
        )


def play(seed: int, names: list[str], timed: set[int]) -> tuple[Game, list[float], list[float]]:
    """One hanchan; the timed seats' decision times (CPU, wall)."""
    center = TimedCenter([make(n) for n in names], timed)
    game = new_game(TENHOU_HANCHAN, seed, center)
    center.game = game
    run_sync(game)
    return game, center.times, center.wall


def tally(game: Game, seats: list[int]) -> Tally:
    out = Tally()
    ranks = game.ranks()
    for seat in seats:
        out.games += 1
        out.ranks += ranks[seat]
        out.hands += len(game.rounds)
        for r in game.rounds:
            out.wins += any(w.seat == seat for w in r.wins)
            out.deal_ins += any(w.from_seat == seat and w.seat != seat for w in r.wins)
    return out


#: the opponents of the second run: the strong bot of main at 91c6984, frozen
BASELINE = "strong-2026-12"


def one_seed(task: tuple[int, str]) -> tuple[Tally, Tally, list[float], list[float]]:
    """Four games with the strong bot rotated through the seats against three of
    ``opponent``, and (against easy) one all-easy game."""
    seed, opponent = task
    strong = Tally()
    times: list[float] = []
    wall: list[float] = []
    for seat in range(4):
        names = [opponent] * 4
        names[seat] = "strong"
        game, took, waited = play(seed, names, {seat})
        strong.add(tally(game, [seat]))
        times += took
        wall += waited
    if opponent != "easy":
        return strong, Tally(), times, wall
    game, _, _ = play(seed, ["easy"] * 4, set())
    return strong, tally(game, [0, 1, 2, 3]), times, wall


def _spread(times: list[float]) -> str:
    ordered = sorted(times) or [0.0]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {1000 * statistics.median(ordered):.2f} ms, p99 {1000 * p99:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="strong-bot hanchan (x4 seeds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("easy", "baseline"), help="one set of opponents")
    args = parser.parse_args()
    seeds = [args.seed * 100003 + i for i in range(max(1, (args.games + 3) // 4))]
    opponents = {"easy": ["easy"], "baseline": [BASELINE]}.get(args.only, [BASELINE, "easy"])
    tasks = [(seed, o) for o in opponents for seed in seeds]
    start = time.perf_counter()
    strong = {o: Tally() for o in opponents}
    easy = Tally()
    times: list[float] = []
    wall: list[float] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(one_seed, tasks, chunksize=1)
    else:
        results = [one_seed(t) for t in tasks]
    for (_, o), (s, e, t, w) in zip(tasks, results, strict=True):
        strong[o].add(s)
        easy.add(e)
        times += t
        wall += w
    took = time.perf_counter() - start
    if not times or not all(t.hands for t in strong.values()):
        raise SystemExit(f"measured nothing: {len(times)} decisions")
    print(f"decision time (CPU): {_spread(times)} over {len(times)} strong decisions")
    print(f"decision time (wall, this shared machine's load included): {_spread(wall)}")
    print(f"run time {took:.0f} s on {args.jobs} process(es)")
    if BASELINE in strong:
        old = strong[BASELINE]
        print(f"bots vs baseline: avg rank {old.ranks / old.games:.2f} over {old.games} hanchan")
    if "easy" in strong:
        mine = strong["easy"]
        print(f"bots: {mine.line('strong')} over {mine.games} hanchan; {easy.line('easy')}")


if __name__ == "__main__":
    main()
