"""EventBase and the priority bands listeners subscribe in.

An event is a msgspec Struct: its fields are the data that may leave the engine (each field's
visibility is declared in ``engine.view``). The engine's bookkeeping (its game and queue)
lives in the instance ``__dict__`` so it is never encoded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

if TYPE_CHECKING:
    from engine.events.queue import EventQueue

#: listener priority bands, run high to low for one event
PREPARE = 4_000_000
EXECUTE = 3_000_000
BROADCAST = 2_000_000
AFTER = 1_000_000
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


class EventBase(msgspec.Struct, tag=True, kw_only=True, dict=True):
    """The root of every event. Data fields are declared by subclasses."""

    @property
    def name(self) -> str:
        return type(self).__name__

    #: the game and the queue the event lives in, set in the instance dict when queued
    #: (plain attributes, not properties: every listener reads them); this layer knows no
    #: game type: engine.game.events.GameEvent narrows ``game`` to its Game
    game: ClassVar[object] = None
    q: ClassVar[EventQueue | None] = None
