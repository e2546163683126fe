"""The event system of seed 001: events, priority bands, the bus and the FIFO queue."""

from engine.events.base import (
    AFTER,
    BROADCAST,
    EXECUTE,
    PREPARE,
    EventBase,
    after_broadcast,
    early,
    late,
)
from engine.events.bus import EventBus, Listener
from engine.events.queue import EventQueue, Terminate

__all__ = [
    "AFTER",
    "BROADCAST",
    "EXECUTE",
    "PREPARE",
    "EventBase",
    "EventBus",
    "EventQueue",
    "Listener",
    "Terminate",
    "after_broadcast",
    "early",
    "late",
]
