"""The action center: the engine's only bridge to whoever takes decisions."""

from __future__ import annotations

from typing import Protocol

from engine.actions.inquiry import MultiPlayerInquiry
from engine.events import EventBase


class ActionCenter(Protocol):
    """Receives events already projected for a seat, and inquiries to answer.

    ``wants_events = False`` lets the engine skip projection and delivery entirely."""

    wants_events: bool

    def on_event(self, seat: int | None, event: EventBase) -> None:
        """``seat`` None is the god view (spectators, records)."""

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        """Answer now with ``inquiry.respond`` (sync driver) or later (async driver)."""
