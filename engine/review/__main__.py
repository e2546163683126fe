"""``python -m engine.review RECORD --seat N [--engine strong|mjai:NAME] [--json]``.

RECORD is our JSON record (a finished game's ``GET /api/games/{id}/record``), a
tenhou.net/6 JSON log or mjai lines. ``strong`` reviews in process; ``mjai:NAME`` runs an
mjai AI as a process (the only I/O of a review besides reading RECORD, so engine/review
stays pure): NAME is a command the administrator registered in ``RIICHI_MJAI_BOTS``
(``{"mortal": ["python", "mortal.py", "{seat}"]}``, ``{seat}`` becomes the seat), or one of
our bots (``mjai:strong``: ``python -m engine.bot.mjai --bot strong --meta``). The process
gets ``MORTAL_REVIEW_MODE=1`` in its environment, as mjai-reviewer starts Mortal. Prints a
summary and the costliest decisions, or with ``--json`` the report (docs/review.md). Exit
status 0, or 2 when the game cannot be reviewed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec

from engine.bot import BOTS
from engine.replay.godview import read_log
from engine.replay.record import GameRecord, ReplayError
from engine.review.game import ReviewError, review_log, review_record
from engine.review.mjai import MjaiReviewer
from engine.review.moment import Reviewer
from engine.review.report import Review
from engine.review.strong import StrongReviewer
from engine.rules.config import PRESETS, RuleConfig


class Process:
    """An mjai AI over stdio: one event per line in, one reaction line per event out."""

    def __init__(self, argv: list[str]) -> None:
        env = {**os.environ, "MORTAL_REVIEW_MODE": "1"}
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )

    def ask(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        reply: dict[str, Any] = {"type": "none"}
        for event in events:
            stdin.write(json.dumps(event, separators=(",", ":")) + "\n")
            stdin.flush()
            line = stdout.readline()
            if not line:
                raise ReviewError(f"the mjai AI exited (status {self.proc.poll()})")
            data = json.loads(line)
            reply = data if isinstance(data, dict) else {"type": "none"}
        return reply

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def command(name: str, seat: int) -> list[str]:
    """The argv of ``mjai:NAME`` (registered commands first, then our own bots)."""
    registered = json.loads(os.environ.get("RIICHI_MJAI_BOTS") or "{}")
    argv = registered.get(name)
    if argv is None and name in BOTS:
        argv = [sys.executable, "-m", "engine.bot.mjai", "--bot", name, "--meta"]
    if not isinstance(argv, list) or not argv:
        known = sorted({*registered, *BOTS})
        raise ReviewError(f"no mjai AI {name!r} (RIICHI_MJAI_BOTS and ours: {', '.join(known)})")
    return [str(a).replace("{seat}", str(seat)) for a in argv]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.review", description=__doc__)
    parser.add_argument("record", type=Path)
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--engine", default="strong", help="strong, or mjai:NAME")
    parser.add_argument("--json", action="store_true", help="the report as JSON")
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default="tenhou-hanchan",
        help="rules of mjai logs (the others state theirs)",
    )
    parser.add_argument("--close", type=float, help="an mjai AI's close gap (its units)")
    parser.add_argument("--blunder", type=float, help="an mjai AI's blunder gap")
    parser.add_argument("--temperature", type=float, help="an mjai AI's softmax temperature")
    args = parser.parse_args(argv)
    try:
        review = run(args)
    except (ReviewError, ReplayError, OSError) as e:
        print(f"{args.record}: {e}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(msgspec.json.encode(review).decode() + "\n")
    else:
        print_summary(review)
    return 0


def run(args: argparse.Namespace) -> Review:
    data = args.record.read_bytes()
    doc = _json_object(data)
    record: GameRecord | None = None
    if doc is not None and "decisions" in doc:
        rules = msgspec.convert(doc.get("rules"), RuleConfig)
        names = tuple(str(n) for n in doc.get("names") or ())
    else:
        record = read_log(data, PRESETS[args.preset])
        rules, names = record.rules, record.names[: record.rules.players]
    if args.engine == "strong":
        return _review(doc, record, args.seat, StrongReviewer())
    if not args.engine.startswith("mjai:"):
        raise ReviewError(f"unknown engine {args.engine!r}: strong or mjai:NAME")
    name = args.engine[len("mjai:") :]
    ours = name in BOTS and name not in json.loads(os.environ.get("RIICHI_MJAI_BOTS") or "{}")
    gaps = StrongReviewer if ours else None  # our bots answer in the strong bot's scale
    if ours and rules.players != 4:
        raise ReviewError("our mjai bots (engine.bot.mjai) play four-player games only")
    process = Process(command(name, args.seat))
    try:
        reviewer = MjaiReviewer(
            args.engine,
            process.ask,
            rules,
            args.seat,
            names,
            close=_pick(args.close, gaps.close if gaps else 0.1),
            blunder=_pick(args.blunder, gaps.blunder if gaps else 1.0),
            temperature=_pick(args.temperature, gaps.temperature if gaps else 0.1),
        )
        return _review(doc, record, args.seat, reviewer)
    finally:
        process.close()


def _review(
    doc: dict[str, Any] | None, record: GameRecord | None, seat: int, reviewer: Reviewer
) -> Review:
    if record is not None:
        return review_log(record, seat, reviewer)
    assert doc is not None
    return review_record(doc, seat, reviewer)


def _pick(given: float | None, default: float) -> float:
    return default if given is None else given


def _json_object(data: bytes) -> dict[str, Any] | None:
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def print_summary(review: Review) -> None:
    total = review.total_reviewed
    print(f"reviewer {review.model_tag}, seat {review.seat}: {total} decisions reviewed")
    print(
        f"match rate {review.match_rate:.1%} ({review.total_matches}/{total}),"
        f" rating {review.rating:.3f}, blunder rate {review.blunder_rate:.1%}"
    )
    print("grades: " + ", ".join(f"{g} {n}" for g, n in review.grades.items()))
    if review.skipped:
        print(f"not valued by the reviewer: {review.skipped} decisions")
    for place in review.costliest:
        kyoku = review.kyokus[place.kyoku]
        entry = kyoku.entries[place.entry]
        label = f"{'ESWN'[kyoku.kyoku // 4 % 4]}{kyoku.kyoku % 4 + 1}-{kyoku.honba}"
        print(
            f"{label} junme {entry.junme}: played {_show(entry.actual)},"
            f" best {_show(entry.expected)} ({place.grade}, -{place.loss:.1f})"
        )


def _show(action: dict[str, Any]) -> str:
    parts = [str(action.get("type"))]
    if "pai" in action:
        parts.append(str(action["pai"]))
    if "consumed" in action:
        parts.append("".join(str(p) for p in action["consumed"]))
    return " ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
