"""Review one seat of a finished game: play it again and grade each of the seat's decisions.

Three inputs, as engine.replay reads them: our stored record (rules, seed and decisions: the
game is played again from its seed, as the verifier does), a tenhou.net/6 JSON log or mjai
lines (each round played by the engine from the log's wall, answered by the log's moves).
A record without its seed (served while the game is in play) is refused: a game still
being played is never reviewed. Pure: the caller reads the file and runs any process.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

from engine.actions.types import Decision
from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.game.setup import new_game
from engine.replay.check import MatchEnd, replay_round
from engine.replay.godview import RoundFailed, read_log
from engine.replay.record import GameRecord, ReplayError
from engine.replay.scripted import LogCenter
from engine.review.center import ReviewCenter
from engine.review.moment import Reviewer
from engine.review.report import Review, summarize
from engine.rules.config import TENHOU_HANCHAN, RuleConfig

#: called with the number of hands begun so far
Progress = Callable[[int], None]


class ReviewError(ValueError):
    """A game that cannot be reviewed (no seed yet, unreadable, no such seat)."""


def review_game(
    rules: RuleConfig,
    seed: int,
    decisions: Iterable[Decision],
    seat: int,
    reviewer: Reviewer,
    names: tuple[str, ...] = (),
    on_hand: Progress | None = None,
) -> Review:
    """The game ``Game(rules, seed)`` played with ``decisions``, reviewed for ``seat``;
    ``on_hand(n)`` is called as the n-th hand begins (progress, against the record's hands)."""
    _check_seat(seat, rules)
    center = ReviewCenter(seat, reviewer, rules, names)
    center.on_hand = on_hand
    center.inner = ReplayCenter(decisions)
    game = new_game(rules, seed, center)
    center.game = game
    run_sync(game, fill_defaults=True)
    return summarize(center.kyokus, reviewer, seat, rules.players, center.skipped)


def review_record(
    doc: Mapping[str, Any], seat: int, reviewer: Reviewer, on_hand: Progress | None = None
) -> Review:
    """Our JSON record (the server's ``GET /api/games/{id}/record``), once the game is over."""
    seed = doc.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ReviewError("the record has no seed: a game still in play cannot be reviewed")
    try:
        rules = msgspec.convert(doc["rules"], RuleConfig)
        decisions = [_decision(d) for d in doc["decisions"]]
    except (KeyError, TypeError, ValueError, msgspec.ValidationError) as e:
        raise ReviewError(f"unreadable record: {type(e).__name__}: {e}") from e
    names = tuple(str(n) for n in doc.get("names") or ())
    return review_game(rules, seed, decisions, seat, reviewer, names, on_hand)


def review_log(
    record: GameRecord, seat: int, reviewer: Reviewer, on_hand: Progress | None = None
) -> Review:
    """A Tenhou JSON or mjai log read by engine.replay (RoundFailed: a round the engine does
    not play the log's way)."""
    rules = record.rules
    _check_seat(seat, rules)
    if not record.rounds:
        raise ReviewError("the log has no round")
    center = ReviewCenter(seat, reviewer, rules, record.names[: rules.players])
    center.per_round = True
    center.on_hand = on_hand
    center.god = 1  # the stream's one BeginGame
    last = len(record.rounds) - 1
    for i, rnd in enumerate(record.rounds):
        log = LogCenter(rnd, rules.red)
        center.inner = log
        end = MatchEnd(i == last, record.final if i == last else ())
        reason = replay_round(rnd, rules, log, center, end)
        if reason is not None:
            raise RoundFailed(rnd.label, reason)
    return summarize(center.kyokus, reviewer, seat, rules.players, center.skipped)


def review_document(
    data: bytes, seat: int, reviewer: Reviewer, mjai_rules: RuleConfig = TENHOU_HANCHAN
) -> Review:
    """Any of the three inputs as bytes: our record (a JSON object with ``decisions``),
    Tenhou JSON (``log``) or mjai lines (rules ``mjai_rules``)."""
    try:
        doc = json.loads(data)
    except ValueError:
        doc = None
    if isinstance(doc, Mapping) and "decisions" in doc:
        return review_record(doc, seat, reviewer)
    try:
        record = read_log(data, mjai_rules)
    except ReplayError as e:
        raise ReviewError(str(e)) from e
    return review_log(record, seat, reviewer)


def _decision(row: Any) -> Decision:
    if isinstance(row, Mapping):
        return Decision(
            int(row["inquiry"]), int(row["seat"]), int(row["action"]), int(row["option"])
        )
    return Decision(*(int(x) for x in row[:4]))


def _check_seat(seat: int, rules: RuleConfig) -> None:
    if not 0 <= seat < rules.players:
        raise ReviewError(f"no seat {seat}: seats are 0..{rules.players - 1}")
