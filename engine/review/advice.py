"""Advice: the reviewer's ranking of an open inquiry's choices, from the seat's own view.

The same values a review grades a played choice by (``Reviewer.values`` on a ``Moment``,
ranked by ``rank``, which report.py uses too), handed out before the seat answers: one
model of how good a choice is, not two. Every engine choice a valued move covers is listed
with the move's value (the drawn tile and its twin are one move), best first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from engine.actions.inquiry import SinglePlayerInquiry
from engine.bot.seen import seat_view
from engine.review.moment import Moment, Reviewer, Valued, rank
from engine.rules.kinds import InquiryKind

if TYPE_CHECKING:
    from engine.game.game import Game


class Advice(msgspec.Struct, frozen=True):
    """One engine choice and the reviewer's value for it (higher is better)."""

    action: int
    option: int
    value: float


def advise(reviewer: Reviewer, moment: Moment) -> list[Advice]:
    """Every choice of the moment's inquiry the reviewer values, best first."""
    return flatten(rank(reviewer.values(moment)))


def flatten(ranked: list[Valued]) -> list[Advice]:
    """Each ranked move's engine choices, with its value (a review entry's ``advice``)."""
    return [Advice(a, o, v.value) for v in ranked for a, o in sorted(v.choices)]


def moment_now(game: Game, seat: int, inquiry: SinglePlayerInquiry, kind: InquiryKind) -> Moment:
    """The seat's open decision as a review would see it: its inquiry and ``SeatView`` only
    (no event stream: the in-process reviewer reads none; an mjai reviewer is not offered).
    Each option's tenpai preview is computed now, from the game as it stands at the
    question (it is read lazily from the live hand), so the moment can be ranked later,
    elsewhere (the server's worker thread), after the game has moved on."""
    for action in inquiry.actions:
        for option in action.options:
            _ = option.tenpai
    if kind == InquiryKind.TURN:
        drawn = game.drawn_tile(seat)
        last_actor, tile = seat, -1 if drawn is None else drawn
    else:  # a claim or a rob: about the last discard (or added kan) of the seat to move
        last_actor, tile = game.turn_seat, game.called_tile
    return Moment(
        seat=seat,
        kind=kind,
        inquiry=inquiry,
        view=seat_view(game, seat),
        events=(),
        last_actor=last_actor,
        tile=tile,
        junme=0,
    )
