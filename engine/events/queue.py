"""EventQueue: strictly FIFO between events; pumps until a Terminate event."""

from __future__ import annotations

from collections import deque
from typing import Any

from engine.events.base import MAX_PHASE, EventBase
from engine.events.bus import EventBus


class Terminate(EventBase):
    """Stops the pump. Queued when the game is over."""


class EventQueue:
    """The queue of one game. Listeners queue follow-ups with ``ev.q.queue(...)``."""

    def __init__(self, bus: EventBus, game: Any = None) -> None:
        self.bus = bus
        self.game = game
        self._items: deque[EventBase] = deque()
        #: the event being processed (its follow-ups become its children)
        self.current: EventBase | None = None
        #: events processed so far (a cheap progress counter)
        self.processed = 0

    def queue(self, event: EventBase) -> EventBase:
        d = event.__dict__
        d["game"] = self.game
        d["q"] = self
        parent = self.current
        if parent is not None:  # EventBase.attach, inlined: this runs for every event
            d["_parent"] = parent
            parent.__dict__.setdefault("_children", []).append(event)
        self._items.append(event)
        return event

    def queue_if_not_exists(self, event: EventBase) -> EventBase | None:
        """Queue ``event`` unless an event of the same type is already waiting."""
        kind = type(event)
        if any(type(e) is kind for e in self._items):
            return None
        return self.queue(event)

    def clear(self) -> None:
        """Drop every waiting event (abortive draws end the hand at once)."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def pending(self) -> list[EventBase]:
        return list(self._items)

    async def process(self) -> None:
        """Pump: dequeue, run the listeners high to low, until Terminate."""
        items = self._items
        bus = self.bus
        by_type = bus.by_type  # bus.cached, inlined: this runs for every event
        while items:
            event = items.popleft()
            if isinstance(event, Terminate):
                self.current = None
                return
            self.current = event
            state = event.__dict__
            kind = type(event)
            for listener in by_type.get(kind) or bus.listeners(kind):
                if "_cancelled" in state:
                    break
                if listener.priority > state.get("_phase", MAX_PHASE):
                    continue
                state["_phase"] = listener.priority
                if listener.times is not None:
                    bus.used(listener)
                waiting = listener.handler(event)
                if waiting is not None and not isinstance(waiting, EventBase):
                    await waiting  # an inquiry: the engine pauses here
            self.processed += 1
            if "_on_finish" in state:
                event.finish()
            # a finished event lets go of its parent: the links never form a chain through
            # the whole game, so plain reference counting frees events as they are done
            state.pop("_parent", None)
        self.current = None
