"""Hand analysis speed: engine.rules.hand beside peers measured in the same run.

    python3 -m bench.analysis [--hands 2000] [--runs 7]

Inputs are seeded: complete hands (random groups + pair), the same minus one tile (ready or
nearly), one random tile added back (a turn's 14 tiles), and hands dealt from a shuffled wall
(mostly far from ready, like most of a game). Every function runs over its whole input list
once per run, single-threaded, our pass and the peer's alternating; figures are the median
calls per CPU second over the runs, and the ratio is the median of the same-run ratios.
Before timing, the answers are checked to agree.

Peers: the ``mahjong`` package (Agari, HandDivider, Shanten; pure Python), xiangting's
necessary tiles (Rust: for a ready hand they are its waits), and the brute-force wait search a
pure-Python engine would write (each of 34 kinds through mahjong's Agari). Our ``shanten`` is
xiangting behind a thin wrapper, so its row shows the wrapper's cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import xiangting
from mahjong.agari import Agari
from mahjong.hand_calculating.divider import HandDivider
from mahjong.shanten import Shanten

from engine.rules import hand as H

AGARI = Agari()
SHANTEN = Shanten()
FOUR = xiangting.PlayerCount.FOUR


def built(rng: random.Random) -> list[int]:
    """Four random groups and a pair, at most four copies of a kind."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                first = rng.randrange(3) * 9 + rng.randrange(7)
                for k in (first, first + 1, first + 2):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def dealt(rng: random.Random, size: int) -> list[int]:
    counts = [0] * 34
    for t in rng.sample(range(136), size):
        counts[t >> 2] += 1
    return counts


def minus(rng: random.Random, counts: list[int]) -> list[int]:
    out = counts.copy()
    out[rng.choice([k for k in range(34) if out[k]])] -= 1
    return out


def plus(rng: random.Random, counts: list[int]) -> list[int]:
    while True:
        k = rng.randrange(34)
        if counts[k] < 4:
            out = counts.copy()
            out[k] += 1
            return out


def inputs(n: int, seed: int) -> dict[str, list[list[int]]]:
    rng = random.Random(seed)
    complete = [built(rng) for _ in range(n)]
    ready = [minus(rng, h) for h in complete]
    return {
        "14 tiles (half complete)": complete[: n // 2] + [dealt(rng, 14) for _ in range(n // 2)],
        "complete 14": complete,
        "13 tiles (half ready)": ready[: n // 2] + [dealt(rng, 13) for _ in range(n // 2)],
        "turn 14 (half near-ready)": [plus(rng, h) for h in ready[: n // 2]]
        + [dealt(rng, 14) for _ in range(n // 2)],
    }


# ---------------------------------------------------------------- peers


def brute_waits(counts: list[int]) -> list[int]:
    out = []
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if AGARI.is_agari(counts):
                out.append(k)
            counts[k] -= 1
    return out


def _bits(mask: int) -> list[int]:
    return [k for k in range(34) if mask >> k & 1]


def xiangting_waits(counts: list[int]) -> list[int]:
    rn, nt = xiangting.calculate_necessary_tiles(counts, FOUR)
    return _bits(nt) if rn == 1 else []


def xiangting_discards(counts: list[int]) -> dict[int, list[int]]:
    out = {}
    for d in range(34):
        if counts[d]:
            counts[d] -= 1
            rn, nt = xiangting.calculate_necessary_tiles(counts, FOUR)
            counts[d] += 1
            if rn == 1:
                out[d] = _bits(nt)
    return out


def divider(counts: list[int]) -> list[list[list[int]]]:
    return HandDivider.divide_hand(counts)


# ---------------------------------------------------------------- timing


def once(fn: Callable[[Any], object], hands: Sequence[list[int]]) -> float:
    """Calls per CPU second of one pass of ``fn`` over ``hands`` (this process's CPU time, so
    time the scheduler gives to other processes on a shared machine does not count)."""
    start = time.process_time()
    for h in hands:
        fn(h)
    return len(hands) / (time.process_time() - start)


def rates(
    ours: Callable[[Any], object],
    peer: Callable[[Any], object],
    hands: Sequence[list[int]],
    runs: int,
) -> tuple[float, float, float]:
    """Median calls/s of ours, of the peer, and of the same-run ratios (passes alternate)."""
    mine, theirs = [], []
    for _ in range(runs):
        mine.append(once(ours, hands))
        theirs.append(once(peer, hands))
    ratio = statistics.median(a / b for a, b in zip(mine, theirs, strict=True))
    return statistics.median(mine), statistics.median(theirs), ratio


def check(hands: dict[str, list[list[int]]]) -> None:
    """The peers answer the same questions: refuse to time functions that disagree."""
    for h in hands["14 tiles (half complete)"]:
        assert H.is_agari(h) == AGARI.is_agari(h), h
    for h in hands["13 tiles (half ready)"]:
        assert H.waits(h) == brute_waits(h) == xiangting_waits(h), h
        assert H.shanten(h) == SHANTEN.calculate_shanten(h), h
    for h in hands["turn 14 (half near-ready)"]:
        assert H.tenpai_discards(h) == xiangting_discards(h), h


def import_seconds() -> float:
    """CPU seconds to import engine.rules.hand (tables, xiangting) in a fresh interpreter."""
    code = (
        "import time; t = time.process_time(); import engine.rules.hand; "
        "print(time.process_time() - t)"
    )
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(3)
    ]
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per input set")
    parser.add_argument("--runs", type=int, default=7, help="runs; figures are medians")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hands = inputs(args.hands, args.seed)
    check(hands)
    rows: list[tuple[str, str, Callable[[Any], object], str, Callable[[Any], object]]] = [
        ("is_agari", "14 tiles (half complete)", H.is_agari, "mahjong Agari", AGARI.is_agari),
        ("decompose", "complete 14", H.decompose, "mahjong HandDivider", divider),
        ("waits", "13 tiles (half ready)", H.waits, "xiangting necessary", xiangting_waits),
        ("waits", "13 tiles (half ready)", H.waits, "34 x mahjong Agari", brute_waits),
        (
            "shanten",
            "13 tiles (half ready)",
            H.shanten,
            "mahjong Shanten",
            SHANTEN.calculate_shanten,
        ),
        (
            "tenpai_discards",
            "turn 14 (half near-ready)",
            H.tenpai_discards,
            "xiangting per discard",
            xiangting_discards,
        ),
    ]
    print(f"{args.hands} hands per set, median of {args.runs} runs, one thread")
    print(f"import engine.rules.hand: {import_seconds() * 1000:.0f} ms CPU (median of 3)")
    head = f"{'function':16} {'input':26} {'ours/s':>10} {'µs':>6}  {'peer':22} {'peer/s':>10}"
    print(head + f" {'ratio':>7}")
    for name, key, ours, peer_name, peer in rows:
        mine, theirs, ratio = rates(ours, peer, hands[key], args.runs)
        print(
            f"{name:16} {key:26} {mine:10,.0f} {1e6 / mine:6.2f}  {peer_name:22} "
            f"{theirs:10,.0f} {ratio:6.1f}x"
        )


if __name__ == "__main__":
    main()
