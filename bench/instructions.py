"""Machine instructions per scored hand, counted by valgrind, ours beside ``mahjong``'s: figures
that do not move with the load of a shared machine, for comparing two versions of the scorer.

    python3 -m bench.instructions [--hands 2000] [--passes 3] [--seed 7] [--no-peer]

For each engine, runs this script twice under ``valgrind --tool=cachegrind`` (hash seed
fixed), once building the hands and scoring them once, once scoring them ``--passes`` more
times (one for ``mahjong``, ten times slower), and prints the difference per hand: import,
hand generation and warm-up cancel out. Needs valgrind (Debian's package); takes about two
minutes. An instruction is not a nanosecond (allocation and cache misses differ between the
two), so wall-clock speed against the peers stays ``bench.hand``'s to tell.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys


def _score(engine: str, hands: int, passes: int, seed: int) -> None:
    """The measured program: score the hands once to warm up, then ``passes`` more times."""
    from tests.rules.handgen import random_hands

    cases = list(random_hands(seed, hands))
    if engine == "mahjong":
        from mahjong.hand_calculating.hand import HandCalculator

        from tests.rules.oracle import mahjong_args

        estimate = HandCalculator.estimate_hand_value
        args = [mahjong_args(c) for c in cases]
        for _ in range(passes + 1):
            for tiles, win, called, dora, config, ura in args:
                estimate(tiles, win, called, dora, config, ura_dora_indicators=ura)
        return
    from engine.rules.config import TENHOU_HANCHAN
    from engine.rules.scoring import score_hand

    items = [(c.concealed, c.melds, c.ctx) for c in cases]
    for _ in range(passes + 1):
        for concealed, melds, ctx in items:
            score_hand(concealed, melds, ctx, TENHOU_HANCHAN)


def valgrind_instructions(*args: str) -> int:
    """Instructions valgrind counts for one run of ``python -m ARGS`` (hash seed fixed), from
    the project's root."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, "-m", *args,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True, cwd=root)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def _count(engine: str, hands: int, passes: int, seed: int) -> int:
    """Instructions valgrind counts for one run of ``_score``."""
    return valgrind_instructions(
        "bench.instructions", "--inner", engine,
        "--hands", str(hands), "--passes", str(passes), "--seed", str(seed),
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-peer", action="store_true", help="count ours only")
    parser.add_argument("--inner", choices=("ours", "mahjong"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        _score(args.inner, args.hands, args.passes, args.seed)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench.instructions needs valgrind (apt-get install valgrind)")
    print(f"{args.hands} seeded winning hands (seed {args.seed}), instructions per hand:")
    peer = not args.no_peer and importlib.util.find_spec("mahjong") is not None
    if not args.no_peer and not peer:
        print("mahjong is not installed (pip install -e '.[bench]'): ours only")
    counts = {}
    for engine, passes in (("ours", args.passes), ("mahjong", 1))[: 2 if peer else 1]:
        base = _count(engine, args.hands, 0, args.seed)
        counts[engine] = (_count(engine, args.hands, passes, args.seed) - base) / (
            args.hands * passes
        )
        print(f"{engine:8} {counts[engine]:12,.0f}")
    if "mahjong" in counts:
        print(f"instructions, mahjong / ours: {counts['mahjong'] / counts['ours']:.2f}x")


if __name__ == "__main__":
    main()
