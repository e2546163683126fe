"""The action center: the engine's only bridge to whoever takes decisions."""

from __future__ import annotations

from collections.abc import Sequence
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


class ViewsCenter(ActionCenter, Protocol):
    """A center that takes an event's views in one call: ``seen[seat]`` is what ``seat``
    may see (engine.view.projections; seats that see the same fields share one object),
    ``event`` the god view. The engine calls it instead of ``on_event`` for each seat and
    then the god view, with the same objects, so a center with many seats (a server's
    table) pays one call per event, not one per seat."""

    def on_views(self, event: EventBase, seen: Sequence[EventBase]) -> None: ...
