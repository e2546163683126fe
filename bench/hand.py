"""Scoring speed beside its peers, on the same seeded winning hands, on one core.

    python3 -m bench.hand [--hands 4000] [--reps 9] [--seconds 0.3] [--seed 7]

Times our ``score_hand``, ``mahjong``'s ``HandCalculator.estimate_hand_value`` (pure Python)
and ``riichienv``'s Rust ``HandEvaluator.calc`` over the same hands from ``tests.rules.handgen``;
each figure is the median of ``--reps`` repetitions (CPU time of this process, the engines
taking turns in each repetition, inputs built before the clock starts). A repetition runs each
engine over the hands as many times as it takes about ``--seconds`` (a fast engine's single
pass lasts a few tens of milliseconds, too short to time on a shared machine), and the
ratios are the median of each repetition's own ratio, whose two engines ran moments apart;
the spread of those ratios is printed beside them. Then
per-call times of shanten and waits (engine.rules.hand) on the 13-tile hands before the win,
beside ``mahjong``'s shanten. The last two lines are the ratios the issue asks for.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from engine import native
from engine.rules.config import TENHOU_HANCHAN
from engine.rules.hand import shanten, waits
from engine.rules.meld import MeldType
from engine.rules.scoring import score_hand
from engine.rules.tiles import to_counts
from tests.rules.handgen import Case, random_hands
from tests.rules.oracle import mahjong_args


def _timed(run: Callable[[], int]) -> float:
    """Items per CPU second of one pass (process time: other jobs on the core do not count)."""
    start = time.process_time()
    n = run()
    return n / (time.process_time() - start)


def _median_rate(run: Callable[[], int], reps: int) -> float:
    """Median items per CPU second over ``reps`` passes of ``run`` (which returns its count)."""
    return statistics.median(_timed(run) for _ in range(reps))


def _repeated(run: Callable[[], int], seconds: float) -> Callable[[], int]:
    """``run`` looped as many times as one call fits in about ``seconds`` of CPU."""
    start = time.process_time()
    run()
    times = max(1, round(seconds / max(time.process_time() - start, 1e-6)))

    def loop() -> int:
        return sum(run() for _ in range(times))

    return loop


def _interleaved(runs: list[Callable[[], int]], reps: int, seconds: float) -> list[list[float]]:
    """Each run's rate in every repetition, the runs taking turns so a change in machine load
    touches them all alike."""
    loops = [_repeated(run, seconds) for run in runs]
    rates: list[list[float]] = [[] for _ in runs]
    for _ in range(reps):
        for i, loop in enumerate(loops):
            rates[i].append(_timed(loop))
    return rates


def _ratio(ours: list[float], peer: list[float]) -> str:
    """Median of the per-repetition ratios, and their range."""
    ratios = sorted(a / b for a, b in zip(ours, peer, strict=True))
    return f"{statistics.median(ratios):.2f}x (repetitions {ratios[0]:.2f}-{ratios[-1]:.2f})"


def ours(cases: list[Case]) -> Callable[[], int]:
    rules = TENHOU_HANCHAN
    items = [(c.concealed, c.melds, c.ctx) for c in cases]

    def run() -> int:
        for concealed, melds, ctx in items:
            score_hand(concealed, melds, ctx, rules)
        return len(items)

    return run


def mahjong(cases: list[Case]) -> Callable[[], int]:
    from mahjong.hand_calculating.hand import HandCalculator

    items = [mahjong_args(c) for c in cases]
    estimate = HandCalculator.estimate_hand_value

    def run() -> int:
        for tiles, win, melds, dora, config, ura in items:
            estimate(tiles, win, melds, dora, config, ura_dora_indicators=ura)
        return len(items)

    return run


def riichienv(cases: list[Case]) -> Callable[[], int] | None:
    try:
        import riichienv._riichienv as rc
    except ImportError:
        return None
    winds = [rc.Wind.East, rc.Wind.South, rc.Wind.West, rc.Wind.North]
    kinds = {
        MeldType.CHII: rc.MeldType.Chi,
        MeldType.PON: rc.MeldType.Pon,
        MeldType.DAIMINKAN: rc.MeldType.Daiminkan,
        MeldType.KAKAN: rc.MeldType.Kakan,
        MeldType.ANKAN: rc.MeldType.Ankan,
    }
    items = []
    for c in cases:
        x = c.ctx
        melds = [rc.Meld(kinds[m.type], list(m.tiles), m.opened, 1) for m in c.melds]
        cond = rc.Conditions(
            tsumo=x.tsumo, riichi=x.riichi, double_riichi=x.double_riichi, ippatsu=x.ippatsu,
            haitei=x.haitei, houtei=x.houtei, rinshan=x.rinshan, chankan=x.chankan,
            tsumo_first_turn=x.tenhou or x.chiihou,
            player_wind=winds[x.seat_wind - 27], round_wind=winds[x.round_wind - 27],
        )  # fmt: skip
        items.append(
            (sorted(c.concealed), melds, x.win_tile, list(x.dora_indicators),
             list(x.ura_indicators), cond)
        )  # fmt: skip
    evaluator = rc.HandEvaluator

    def run() -> int:
        for concealed, melds, win, dora, ura, cond in items:
            evaluator(concealed, melds).calc(win, dora, ura, cond)
        return len(items)

    return run


def _per_call(fn: Callable[[list[int]], object], hands: list[list[int]], reps: int) -> float:
    """Median microseconds per call of ``fn`` over ``hands``."""

    def run() -> int:
        for h in hands:
            fn(h)
        return len(hands)

    return 1e6 / _median_rate(run, reps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cases = list(random_hands(args.seed, args.hands))
    print(
        f"{len(cases)} seeded winning hands (seed {args.seed}), median of {args.reps} "
        f"repetitions of ~{args.seconds} s per engine"
    )
    print(f"our engine: {native.describe()}")
    peer = riichienv(cases)
    runs = [ours(cases), mahjong(cases)] + ([peer] if peer else [])
    rates = _interleaved(runs, args.reps, args.seconds)
    names = ("ours      score_hand          ", "mahjong   estimate_hand_value ")
    for name, rate in zip((*names, "riichienv HandEvaluator.calc  "), rates, strict=False):
        print(f"{name}{statistics.median(rate):12,.0f} hands/s (fastest {max(rate):,.0f})")

    before = []
    for c in cases:
        if not c.melds:
            rest = list(c.concealed)
            rest.remove(c.ctx.win_tile)
            before.append(to_counts(rest))
    from mahjong.shanten import Shanten

    mj_shanten = Shanten().calculate_shanten
    print(f"{len(before)} closed 13-tile hands before the win:")
    print(f"ours      shanten   {_per_call(shanten, before, args.reps):8.2f} us/call")
    print(f"ours      waits     {_per_call(waits, before, args.reps):8.2f} us/call")
    print(f"mahjong   shanten   {_per_call(mj_shanten, before, args.reps):8.2f} us/call")
    if peer:
        print(f"scoring vs riichienv: {_ratio(rates[0], rates[2])}")
    print(f"scoring vs mahjong: {_ratio(rates[0], rates[1])}")


if __name__ == "__main__":
    main()
