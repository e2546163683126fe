"""Review time of one hanchan per reviewer, beside replaying the same game (the floor).

    python3 -m bench.review [--runs 3] [--seed 3] [--preset tenhou-hanchan]

A hanchan is played once by two easy and two strong bots (so reviews find mistakes). Then,
pinned to one core, per run: the game replayed from its seed and decisions (what every review
does before any reviewer is asked: the floor), the seat-0 review by ``strong`` (in process),
and in four-player games by ``mjai:strong`` (``python -m engine.review --engine mjai:strong``:
our strong bot as an mjai process with Mortal's meta, the path Mortal takes; wall time,
process start included).
Medians over the runs. The strong bot's target: under 10 s. Exit status 1 when nothing was
measured (no decision reviewed, or a reviewer failed), 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from engine.actions.types import Decision
from engine.bot import make
from engine.centers import BotCenter, ReplayCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.review import StrongReviewer, review_record
from engine.rules.config import PRESETS, RuleConfig

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 10.0
REVIEW = [sys.executable, "-m", "engine.review"]


def play(rules: RuleConfig, seed: int) -> dict[str, object]:
    names = ["easy", "strong", "easy", "strong"][: rules.players]
    center = BotCenter([make(n) for n in names])
    game = new_game(rules, seed, center)
    center.game = game
    run_sync(game)
    return {
        "rules": msgspec.to_builtins(rules),
        "seed": seed,
        "decisions": [msgspec.to_builtins(d) for d in game.decisions],
    }


def replay_s(doc: dict[str, object], rules: RuleConfig, seed: int) -> float:
    decisions = msgspec.convert(doc["decisions"], list[tuple[int, int, int, int]])
    start = time.process_time()
    run_sync(new_game(rules, seed, ReplayCenter(Decision(*d) for d in decisions)), True)
    return time.process_time() - start


def strong_s(doc: dict[str, object]) -> tuple[float, int]:
    start = time.process_time()
    review = review_record(doc, 0, StrongReviewer())
    return time.process_time() - start, review.total_reviewed


def mjai_s(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(
        [*REVIEW, str(path), "--seat", "0", "--engine", "mjai:strong", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return elapsed, 0
    return elapsed, int(json.loads(done.stdout)["total_reviewed"])


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review", description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tenhou-hanchan")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):  # one core, for us and the processes we start
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    rules = PRESETS[args.preset]
    doc = play(rules, args.seed)
    decided = len(msgspec.convert(doc["decisions"], list[object]))
    floor, strong, mjai = [], [], []
    reviewed = {"strong": 0} | ({"mjai:strong": 0} if rules.players == 4 else {})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(doc))
        for _ in range(args.runs):
            floor.append(replay_s(doc, rules, args.seed))
            seconds, n = strong_s(doc)
            strong.append(seconds)
            reviewed["strong"] = n
            if rules.players == 4:  # our mjai process is four-player only
                seconds, n = mjai_s(path)
                mjai.append(seconds)
                reviewed["mjai:strong"] = n
    base = statistics.median(floor)
    print(f"{args.preset} seed {args.seed}, seat 0, one core, median of {args.runs} runs")
    print(f"replay (the floor): {base:.3f} s CPU, {decided} decisions")
    for name, times in (("strong", strong), ("mjai:strong", mjai)):
        if not times:
            print(f"review by {name}: not run (our mjai process plays four-player games only)")
            continue
        t = statistics.median(times)
        ratio = t / base if base > 0 else float("inf")
        unit = "s CPU" if name == "strong" else "s wall (process included)"
        print(
            f"review by {name}: {t:.3f} {unit}, {reviewed[name]} decisions, {ratio:.1f}x the replay"
        )
    met = statistics.median(strong) < TARGET_S
    print(f"strong bot target under {TARGET_S:.0f} s: {'met' if met else 'missed'}")
    if base <= 0 or not all(reviewed.values()):
        print("nothing measured", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
