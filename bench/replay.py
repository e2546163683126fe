"""Replay speed: our checker beside riichienv's MjaiReplay on the same real games, same run.

    python3 -m bench.replay [--games 100] [--runs 5]

The first ``--games`` 4-player corpus games (../shared/data/tenhou/) are written as mjai
lines once. Per run, each side goes through all of them, alternating:

* ours: read the mjai lines, build each round's wall, play it in the real engine answered by
  the scripted center (legal actions generated and matched every decision), compare deltas;
* riichienv (Rust): MjaiReplay.from_jsonl, every seat's decision steps of every kyoku, and
  every win scored again with its HandEvaluator.

The work is not the same (ours checks legality and every result; riichienv's replay trusts
the log and rebuilds observations), so the ratio says what a full conformance check costs
beside a fast log reader. Figures: median games per CPU second over the runs; the ratio is
the median of same-run ratios. Also printed: our check of the Tenhou JSON directly.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import riichienv

from engine.replay.check import check_game
from engine.replay.mjai_read import read_mjai
from engine.replay.mjai_write import write_mjai
from engine.replay.tenhou_read import read_game

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "tenhou"


def ours_mjai(paths: list[Path]) -> int:
    matched = 0
    for path in paths:
        verdicts = check_game(read_mjai(path.read_text(encoding="utf-8")))
        matched += all(v.matched for v in verdicts)
    return matched


def ours_tenhou(paths: list[Path]) -> int:
    matched = 0
    for path in paths:
        verdicts = check_game(read_game(json.loads(path.read_text(encoding="utf-8"))))
        matched += all(v.matched for v in verdicts)
    return matched


def riichienv_mjai(paths: list[Path]) -> int:
    done = 0
    for path in paths:
        replay = riichienv.MjaiReplay.from_jsonl(str(path))
        for kyoku in replay.take_kyokus():
            for seat in range(4):
                for _ in kyoku.steps(seat):
                    pass
            for ctx in kyoku.take_win_result_contexts():
                evaluator = riichienv.HandEvaluator(ctx.tiles, ctx.melds)
                evaluator.calc(
                    ctx.agari_tile,
                    dora_indicators=ctx.dora_indicators,
                    conditions=ctx.conditions,
                    ura_indicators=ctx.ura_indicators,
                )
        done += 1
    return done


def timed(fn: Callable[[list[Path]], int], paths: list[Path]) -> float:
    """Games per CPU second for one pass."""
    start = time.process_time()
    fn(paths)
    return len(paths) / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games = sorted(CORPUS.glob("*.json"))[: args.games]
    if not games:
        raise SystemExit(f"measured nothing: no Tenhou game under {CORPUS}")
    with tempfile.TemporaryDirectory() as tmp:
        mjai: list[Path] = []
        for path in games:
            record = read_game(json.loads(path.read_text(encoding="utf-8")))
            out = Path(tmp) / (path.stem + ".jsonl")
            out.write_text(write_mjai(record), encoding="utf-8")
            mjai.append(out)
        assert ours_mjai(mjai) == len(mjai), "a game did not replay: run the checker"
        assert riichienv_mjai(mjai) == len(mjai)
        rows: dict[str, list[float]] = {"ours mjai": [], "riichienv mjai": [], "ours tenhou": []}
        ratios = []
        for _ in range(args.runs):
            a = timed(ours_mjai, mjai)
            b = timed(riichienv_mjai, mjai)
            rows["ours mjai"].append(a)
            rows["riichienv mjai"].append(b)
            rows["ours tenhou"].append(timed(ours_tenhou, games))
            ratios.append(b / a)
    rounds = sum(len(json.loads(p.read_text(encoding="utf-8"))["log"]) for p in games)
    print(f"{len(games)} games, {rounds} rounds, {args.runs} runs (median games / CPU s)")
    for name, values in rows.items():
        print(f"  {name:16s} {statistics.median(values):9.1f}")
    print(f"  riichienv / ours (mjai, same run): {statistics.median(ratios):.1f}x")


if __name__ == "__main__":
    main()
