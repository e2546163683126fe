"""The differential test at length: 1,000,000 seeded random winning hands against ``mahjong``.

    python3 -m bench.vs_mahjong_long [--hands 1000000] [--seed 1] [--show 10] [--sanma]

Same generator (``tests.rules.handgen``) and the same verdict (``tests.rules.oracle.differ``) as
tests/rules/test_vs_mahjong.py, which runs 20,000 hands per test run. Prints progress every
100,000 hands, the first ``--show`` disagreements, and exits non-zero if any hand differs.
"""

from __future__ import annotations

import argparse
import sys
import time

from engine.rules.config import TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN
from tests.rules.handgen import random_hands
from tests.rules.oracle import differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--sanma", action="store_true", help="three-player hands and rules")
    args = parser.parse_args()
    start = time.perf_counter()
    bad = 0
    rules = TENHOU_SANMA_HANCHAN if args.sanma else TENHOU_HANCHAN
    for n, case in enumerate(random_hands(args.seed, args.hands, args.sanma), 1):
        verdict = differ(case, rules)
        if verdict is not None:
            bad += 1
            if bad <= args.show:
                print(verdict, flush=True)
        if n % 100_000 == 0:
            elapsed = time.perf_counter() - start
            print(f"{n:>9,} hands, {bad} differ, {elapsed:,.0f} s", flush=True)
    print(f"{args.hands:,} hands (seed {args.seed}): {bad} differ from mahjong 2.1.0")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
