"""The review's result: per hand its entries, per game the figures, as mjai-reviewer names them.

Field names follow mjai-reviewer's Mortal report where they mean the same thing
(``total_reviewed``, ``total_matches``, ``rating``, ``temperature``, ``model_tag``,
``kyokus`` with ``kyoku`` / ``honba`` / ``end_status`` / ``relative_scores`` / ``entries``,
and each entry's ``junme``, ``tiles_left``, ``last_actor``, ``tile``, ``expected``,
``actual``, ``is_equal``, ``details`` of ``action`` / ``q_value`` / ``prob``, ``shanten``,
``actual_index``), so a tool that reads one reads the other. ``rating`` is mjai-reviewer's:
the mean over entries of 1 for a match, else (actual - worst) / (best - worst), squared.
Ours besides: each entry's ``grade`` and ``loss`` (best value minus the actual's), the
engine ``inquiry`` id and ``event_index`` (god-view events before it, the replay viewer's
position), and per game the grade counts, match and blunder rates and the costliest
decisions.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from engine.review.advice import Advice, flatten
from engine.review.moment import Choice, Moment, Reviewer, Valued, rank
from engine.rules.hand import shanten
from engine.rules.kinds import InquiryKind
from engine.rules.tiles import NUM_KINDS, to_mjai

GRADES = ("agree", "close", "mistake", "blunder")
#: how many of the costliest decisions a review lists
COSTLIEST = 5


class Detail(msgspec.Struct, frozen=True):
    action: dict[str, Any]
    q_value: float
    prob: float


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One reviewed decision of the seat."""

    junme: int
    tiles_left: int
    last_actor: int
    tile: str
    at_self_chi_pon: bool
    at_opponent_kakan: bool
    expected: dict[str, Any]
    actual: dict[str, Any]
    is_equal: bool
    #: best first
    details: list[Detail]
    shanten: int
    actual_index: int
    grade: str
    loss: float
    inquiry: int
    event_index: int
    #: the details as engine choices (action, option, value), best first: what advice at
    #: a practice table would have shown before this decision (engine/review/advice.py)
    advice: list[Advice] = []


class KyokuReview(msgspec.Struct, kw_only=True):
    #: Tenhou's hand number from 0 (E1 = 0, S1 = 4; sanma skips 3 and 7 as Tenhou does)
    kyoku: int
    honba: int
    #: the hand's hora (one per winner) or ryukyoku, as mjai events
    end_status: list[dict[str, Any]]
    #: scores at the start of the hand, the reviewed seat first
    relative_scores: list[int]
    entries: list[Entry]


class Costly(msgspec.Struct, frozen=True):
    """Where one of the costliest decisions is: ``kyokus[kyoku].entries[entry]``."""

    kyoku: int
    entry: int
    loss: float
    grade: str


class Review(msgspec.Struct, kw_only=True):
    total_reviewed: int
    total_matches: int
    rating: float
    temperature: float
    model_tag: str
    kyokus: list[KyokuReview]
    seat: int
    players: int
    #: total_matches / total_reviewed
    match_rate: float
    #: blunders / total_reviewed
    blunder_rate: float
    grades: dict[str, int]
    costliest: list[Costly]
    #: the reviewer's gaps (its own value units)
    close: float
    blunder: float
    #: decisions the reviewer gave no value for the actual choice
    skipped: int


def grade(loss: float, is_equal: bool, close: float, blunder: float) -> str:
    """agree: the best (or tied with it); close: up to ``close`` below; blunder: at least
    ``blunder`` below; mistake: between."""
    if is_equal:
        return "agree"
    if loss <= close:
        return "close"
    return "blunder" if loss >= blunder else "mistake"


def softmax(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / max(temperature, 1e-9)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def make_entry(
    moment: Moment,
    valued: list[Valued],
    actual: Choice,
    reviewer: Reviewer,
    where: tuple[int, int],
) -> Entry | None:
    """The entry for one decision; None when no value covers the actual choice.
    ``where``: (engine inquiry id, god-view events before it)."""
    ranked = rank(valued)
    index = next((i for i, v in enumerate(ranked) if actual in v.choices), -1)
    if index < 0:
        return None
    best, mine = ranked[0].value, ranked[index].value
    is_equal = mine >= best
    loss = best - mine
    probs = softmax([v.value for v in ranked], reviewer.temperature)
    view = moment.view
    counts = [0] * NUM_KINDS
    for t in view.hand:
        counts[t >> 2] += 1
    return Entry(
        junme=moment.junme,
        tiles_left=view.remaining,
        last_actor=moment.last_actor,
        tile=to_mjai(moment.tile, view.rules.red) if moment.tile >= 0 else "?",
        at_self_chi_pon=moment.kind == InquiryKind.TURN and view.drawn is None,
        at_opponent_kakan=moment.kind == InquiryKind.CHANKAN,
        expected=ranked[0].action,
        actual=ranked[index].action,
        is_equal=is_equal,
        details=[Detail(v.action, v.value, p) for v, p in zip(ranked, probs, strict=True)],
        shanten=shanten(counts, view.rules.sanma),
        actual_index=index,
        grade=grade(loss, is_equal, reviewer.close, reviewer.blunder),
        loss=loss,
        inquiry=where[0],
        event_index=where[1],
        advice=flatten(ranked),
    )


def credit(entry: Entry) -> float:
    """mjai-reviewer's partial credit: 1 for a match, else where the actual value lies
    between the worst (0) and the best (1)."""
    if entry.is_equal:
        return 1.0
    values = [d.q_value for d in entry.details]
    low, high = min(values), max(values)
    return (entry.details[entry.actual_index].q_value - low) / max(high - low, 1e-6)


def summarize(
    kyokus: list[KyokuReview], reviewer: Reviewer, seat: int, players: int, skipped: int
) -> Review:
    entries = [e for k in kyokus for e in k.entries]
    total = len(entries)
    matches = sum(e.is_equal for e in entries)
    counts = {g: sum(e.grade == g for e in entries) for g in GRADES}
    places = [
        (e.loss, k, i, e.grade)
        for k, kyoku in enumerate(kyokus)
        for i, e in enumerate(kyoku.entries)
        if not e.is_equal
    ]
    places.sort(key=lambda p: (-p[0], p[1], p[2]))
    mean = sum(credit(e) for e in entries) / total if total else 0.0
    return Review(
        total_reviewed=total,
        total_matches=matches,
        rating=mean * mean,
        temperature=reviewer.temperature,
        model_tag=reviewer.name,
        kyokus=kyokus,
        seat=seat,
        players=players,
        match_rate=matches / total if total else 0.0,
        blunder_rate=counts["blunder"] / total if total else 0.0,
        grades=counts,
        costliest=[Costly(k, i, loss, g) for loss, k, i, g in places[:COSTLIEST]],
        close=reviewer.close,
        blunder=reviewer.blunder,
        skipped=skipped,
    )
