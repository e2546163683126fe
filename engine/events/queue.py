"""EventQueue: strictly FIFO between events; pumps until a Terminate event."""

from __future__ import annotations

from collections import deque

from engine.events.base import EventBase
from engine.events.bus import EventBus


class Terminate(EventBase):
    """Stops the pump. Queued when the game is over."""


class EventQueue:
    """The queue of one game. Listeners queue follow-ups with ``ev.q.queue(...)``."""

    def __init__(self, bus: EventBus, game: object = None) -> None:
        self.bus = bus
        self.game = game
        #: the events waiting, first out first (read it; add with ``queue``)
        self.items: deque[EventBase] = deque()

    def queue(self, event: EventBase) -> EventBase:
        d = event.__dict__
        d["game"] = self.game
        d["q"] = self
        self.items.append(event)
        return event

    def clear(self) -> None:
        """Drop every waiting event (abortive draws end the hand at once)."""
        self.items.clear()

    def __len__(self) -> int:
        return len(self.items)

    async def process(self) -> None:
        """Pump: dequeue, run the listeners high to low, until Terminate."""
        items = self.items
        bus = self.bus
        by_type = bus.handlers_by_type  # the bus's cache read inline: this runs for every event
        popleft = items.popleft
        while items:
            event = popleft()
            kind = type(event)
            if kind is Terminate:  # never subclassed: an identity test, not isinstance
                return
            for handler in by_type.get(kind) or bus.handlers(kind):
                waiting = handler(event)
                if waiting is not None and not isinstance(waiting, EventBase):
                    await waiting  # an inquiry: the engine pauses here
