"""EventBase and the priority bands listeners subscribe in.

An event is a msgspec Struct: its fields are the data that may leave the engine (each field's
visibility is declared in ``engine.view``). The engine's bookkeeping (game, queue, phase,
parent/children, finish callbacks) lives in the instance ``__dict__`` so it is never encoded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import msgspec

if TYPE_CHECKING:
    from engine.events.queue import EventQueue

#: listener priority bands, run high to low for one event
PREPARE = 4_000_000
EXECUTE = 3_000_000
BROADCAST = 2_000_000
AFTER = 1_000_000
#: a fresh event's phase: every listener may still run
MAX_PHASE = 5_000_000
#: how far into a band the early/late helpers go
_BAND_SPAN = 500_000


def early(band: int, step: int = 0) -> int:
    """A priority early in ``band`` (runs before the band's plain listeners)."""
    return band + _BAND_SPAN - step


def late(band: int, step: int = 0) -> int:
    """A priority late in ``band`` (runs after the band's plain listeners)."""
    return band - _BAND_SPAN + step


def after_broadcast(step: int = 0) -> int:
    """Right after the broadcast: state is final and every seat has been told."""
    return early(AFTER, step)


E = TypeVar("E", bound="EventBase")


class EventBase(msgspec.Struct, tag=True, kw_only=True, dict=True):
    """The root of every event. Data fields are declared by subclasses."""

    @property
    def name(self) -> str:
        return type(self).__name__

    #: the game and the queue the event lives in, set in the instance dict when queued
    #: (plain attributes, not properties: every listener reads them)
    game: ClassVar[Any] = None
    q: ClassVar[EventQueue | None] = None

    @property
    def phase(self) -> int:
        """Starts at MAX_PHASE and only descends as listeners run."""
        phase: int = self.__dict__.get("_phase", MAX_PHASE)
        return phase

    def lower_phase(self, priority: int) -> None:
        if priority < self.phase:
            self.__dict__["_phase"] = priority

    @property
    def parent(self) -> EventBase | None:
        """Set while the event waits and runs; dropped once it has finished."""
        return self.__dict__.get("_parent")

    @property
    def children(self) -> list[EventBase]:
        kids: list[EventBase] = self.__dict__.setdefault("_children", [])
        return kids

    @property
    def cancelled(self) -> bool:
        return bool(self.__dict__.get("_cancelled", False))

    def attach(self, parent: EventBase) -> None:
        """Make this event a child of ``parent`` (cancelling the parent cancels it)."""
        self.__dict__["_parent"] = parent
        parent.children.append(self)

    def cancel(self) -> None:
        """Stop this event (remaining listeners are skipped) and every descendant."""
        self.__dict__["_cancelled"] = True
        for child in self.__dict__.get("_children", ()):
            child.cancel()

    def get_in_parent(self, kind: type[E]) -> E | None:
        """The nearest ancestor of type ``kind``."""
        node = self.parent
        while node is not None:
            if isinstance(node, kind):
                return node
            node = node.parent
        return None

    def on_finish(self, callback: Callable[[EventBase], None]) -> None:
        """Run ``callback`` once every listener of this event has run."""
        self.__dict__.setdefault("_on_finish", []).append(callback)

    def finish(self) -> None:
        for callback in self.__dict__.get("_on_finish", ()):
            callback(self)
