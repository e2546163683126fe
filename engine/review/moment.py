"""One decision of the reviewed seat as its reviewer sees it, and what a reviewer answers.

A ``Moment`` holds only what the seat could see then: its own legal choices (the engine's
inquiry to that seat), its ``SeatView`` (own hand plus the public table) and its own event
stream so far (others' concealed tiles already masked by the engine). A ``Reviewer`` gives
values to the choices (``Valued``: one mjai-style action, its value, and the engine
choices it stands for: Mortal gives one value to every riichi discard, our strong bot one
per tile). Values are the reviewer's own units; ``close`` and ``blunder`` are its gaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from engine.actions.inquiry import SinglePlayerInquiry
from engine.bot.view import SeatView
from engine.rules.kinds import InquiryKind

#: an engine choice: (action index, option index) in the seat's inquiry
Choice = tuple[int, int]


class Moment(msgspec.Struct, frozen=True, kw_only=True):
    """The seat's decision: what it was asked, what it saw, what it had been told."""

    seat: int
    kind: InquiryKind
    inquiry: SinglePlayerInquiry
    view: SeatView
    #: the seat's own engine events from the game's start (the reviewer keeps its place)
    events: Sequence[Any]
    #: the seat that acted last (a claim: the discarder) and its tile (-1: none)
    last_actor: int
    tile: int
    #: the seat's draws and calls so far this hand
    junme: int


class Valued(msgspec.Struct, frozen=True):
    """A reviewer's value for one action (mjai form) and the engine choices it covers."""

    action: dict[str, Any]
    value: float
    choices: tuple[Choice, ...]


class Reviewer(Protocol):
    """Anything that values a seat's choices from that seat's own view."""

    #: the report's ``model_tag``
    name: str
    #: a gap to the best value up to ``close`` grades "close", from ``blunder`` on "blunder"
    close: float
    blunder: float
    #: the softmax temperature of each detail's ``prob``, in value units
    temperature: float

    def values(self, moment: Moment) -> list[Valued]:
        """Values for the moment's choices (empty: this reviewer cannot judge it)."""
        ...


def rank(valued: list[Valued]) -> list[Valued]:
    """Best first; stable, so ties keep the reviewer's order (a review's ``details`` and
    advice at a practice table are ranked by this one function)."""
    return sorted(valued, key=lambda v: -v.value)
