"""EventBus: listeners by event type (subclasses match), resolved once per type."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.events.base import EventBase

#: a listener may return an awaitable (an inquiry); the queue awaits it before going on
Handler = Callable[[Any], Awaitable[Any] | None]


class Listener:
    """One subscription."""

    __slots__ = ("event_type", "handler", "priority")

    def __init__(self, event_type: type[EventBase], handler: Handler, priority: int) -> None:
        self.event_type = event_type
        self.handler = handler
        self.priority = priority


class EventBus:
    """Holds the listeners; the queue asks it for the ordered list of an event's type."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        #: event type -> its listeners in run order, filled on demand; cleared in place (the
        #: queue keeps a reference to this dict and reads it for every event)
        self.by_type: dict[type[EventBase], list[Listener]] = {}
        #: the same lists as bare handlers (the queue calls these: no attribute read per
        #: listener per event); cleared in place with ``by_type``
        self.handlers_by_type: dict[type[EventBase], tuple[Handler, ...]] = {}

    def subscribe(self, event_type: type[EventBase], handler: Handler, priority: int) -> Listener:
        """Listen to ``event_type`` and its subclasses at ``priority`` (higher runs first)."""
        listener = Listener(event_type, handler, priority)
        self._listeners.append(listener)
        self.by_type.clear()
        self.handlers_by_type.clear()
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.remove(listener)
        self.by_type.clear()
        self.handlers_by_type.clear()

    def listeners(self, event_type: type[EventBase]) -> list[Listener]:
        """The listeners for one event type, high priority first (stable for ties)."""
        found = self.by_type.get(event_type)
        if found is None:
            found = [lst for lst in self._listeners if issubclass(event_type, lst.event_type)]
            found.sort(key=lambda lst: -lst.priority)
            self.by_type[event_type] = found
        return found

    def handlers(self, event_type: type[EventBase]) -> tuple[Handler, ...]:
        """The handlers of ``listeners(event_type)``, in the same order."""
        found = self.handlers_by_type.get(event_type)
        if found is None:
            found = tuple(lst.handler for lst in self.listeners(event_type))
            self.handlers_by_type[event_type] = found
        return found

    def all(self) -> list[Listener]:
        return list(self._listeners)
