"""Machine instructions per scored hand, counted by valgrind: a figure that does not move with
the load of a shared machine, for comparing two versions of the scorer.

    python3 -m bench.instructions [--hands 2000] [--passes 3] [--seed 7]

Runs this script twice under ``valgrind --tool=cachegrind`` (hash seed fixed), once building
the hands and scoring them once, once scoring them ``--passes`` more times, and prints the
difference per hand: import, hand generation and warm-up cancel out. Needs valgrind (Debian's
package); takes about a minute. Wall-clock speed against the peers is ``bench.hand``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys


def _score(hands: int, passes: int, seed: int) -> None:
    """The measured program: score the hands once to warm up, then ``passes`` more times."""
    from bench.handgen import random_hands
    from engine.rules.config import TENHOU_HANCHAN
    from engine.rules.scoring import score_hand

    items = [(c.concealed, c.melds, c.ctx) for c in random_hands(seed, hands)]
    for _ in range(passes + 1):
        for concealed, melds, ctx in items:
            score_hand(concealed, melds, ctx, TENHOU_HANCHAN)


def _count(hands: int, passes: int, seed: int) -> int:
    """Instructions valgrind counts for one run of ``_score``."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, "-m", "bench.instructions", "--inner",
        "--hands", str(hands), "--passes", str(passes), "--seed", str(seed),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        _score(args.hands, args.passes, args.seed)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench.instructions needs valgrind (apt-get install valgrind)")
    base = _count(args.hands, 0, args.seed)
    more = _count(args.hands, args.passes, args.seed)
    per_hand = (more - base) / (args.hands * args.passes)
    print(f"score_hand: {per_hand:,.0f} instructions per hand "
          f"({args.hands} hands x {args.passes} passes, seed {args.seed})")  # fmt: skip


if __name__ == "__main__":
    main()
