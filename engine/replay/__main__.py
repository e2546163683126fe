"""``python -m engine.replay check PATH...``: replay game logs through the engine.

One line per round the engine does not reproduce (a last round also fails when the engine
does not end the match there with the log's final scores, and any round fails when the engine
ends the match before the log does), then a summary; the last lines are
``match ends (logs with final scores): matched E/F`` and ``matched R/T rounds in G games``.
Exit status 0 only when every round matched.

``python -m engine.replay verify RECORD...``: check a finished game's shuffle (our JSON
record or a Tenhou export with its seed, see engine/replay/verify.py): one line per failure,
one ``verified`` line per good file; exit status 0 only when every file verified.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from engine.replay.check import check_file, log_files
from engine.replay.verify import Verdict, verify_document
from engine.rules.config import PRESETS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.replay")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="replay Tenhou JSON / mjai logs through the engine")
    check.add_argument("paths", nargs="+", help="log files or folders")
    check.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default="tenhou-hanchan",
        help="rules of mjai logs (Tenhou JSON states its own)",
    )
    check.add_argument(
        "--declined",
        action="store_true",
        help="list every win the engine offered and the log passed",
    )
    verify = sub.add_parser("verify", help="check a finished game's seed and walls")
    verify.add_argument("paths", nargs="+", help="our JSON records or Tenhou JSON exports")
    args = parser.parse_args(argv)
    if args.command == "verify":
        return run_verify([Path(p) for p in args.paths])
    started = time.perf_counter()
    matched = total = games = 0
    ends = ends_matched = 0
    reasons: Counter[str] = Counter()
    declined = riichi_declined = unsaid = 0
    for path in log_files(args.paths):
        games += 1
        verdicts = check_file(path, PRESETS[args.preset])
        total += len(verdicts)
        unsupported = {v.reason for v in verdicts if (v.reason or "").startswith("unsupported")}
        if unsupported:  # the whole game: one line, not one per round
            (reason,) = unsupported
            reasons["unsupported"] += len(verdicts)
            print(f"{path.name}: {reason} ({len(verdicts)} rounds)")
            continue
        for verdict in verdicts:
            unsaid += bool(verdict.notes)
            for note in verdict.notes:
                print(f"{path.name} {verdict.label}: note: {note}")
            declined += len(verdict.declined)
            riichi_declined += sum(d.endswith("(riichi)") for d in verdict.declined)
            if args.declined:
                for note in verdict.declined:
                    print(f"{path.name} {verdict.label}: {note}")
            ends += verdict.final
            if verdict.matched:
                matched += 1
                ends_matched += verdict.final
                continue
            reasons["mismatch"] += 1
            print(f"{path.name} {verdict.label}: {verdict.reason}")
    elapsed = time.perf_counter() - started
    for what, count in sorted(reasons.items()):
        print(f"{what}: {count} rounds")
    print(f"rounds where the log leaves a rule or a result unsaid: {unsaid}")
    print(f"wins offered and passed in the logs: {declined} ({riichi_declined} in riichi)")
    print(f"checked {total} rounds of {games} games in {elapsed:.1f} s")
    print(f"match ends (logs with final scores): matched {ends_matched}/{ends}")
    print(f"matched {matched}/{total} rounds in {games} games")
    return 0 if matched == total else 1


def run_verify(paths: list[Path]) -> int:
    failed = 0
    for path in paths:
        verdict = _verify_file(path)
        for reason in verdict.failures:
            print(f"{path.name}: {reason}")
        if verdict.ok:
            practice = " (practice: the player chose the seed)" if verdict.practice else ""
            drawn = ", seat draw" if verdict.drawn else ""
            rounds = f"{verdict.rounds} rounds"
            print(f"{path.name}: verified: commitment{drawn} and {rounds}{practice}")
        else:
            failed += 1
    return 0 if failed == 0 else 1


def _verify_file(path: Path) -> Verdict:
    if path.suffix in (".jsonl", ".mjson"):
        return Verdict(False, False, False, ("mjai logs carry no seed; verify the JSON record",))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return Verdict(False, False, False, (f"unreadable: {type(e).__name__}: {e}",))
    return verify_document(doc)


if __name__ == "__main__":
    sys.exit(main())
