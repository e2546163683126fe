"""The event system: bands, subclass matching, FIFO, Terminate."""

from __future__ import annotations

from engine.driver import _step
from engine.events import (
    AFTER,
    BROADCAST,
    EXECUTE,
    PREPARE,
    EventBase,
    EventBus,
    EventQueue,
    Terminate,
    early,
    late,
)


class Ping(EventBase):
    n: int = 0


class LoudPing(Ping):
    pass


class Pong(EventBase):
    pass


def _pump(queue: EventQueue) -> None:
    assert _step(queue.process()) is None


def test_listeners_run_by_band_high_to_low_and_subclasses_match() -> None:
    bus = EventBus()
    log: list[str] = []
    bus.subscribe(Ping, lambda e: log.append("after"), AFTER)
    bus.subscribe(LoudPing, lambda e: log.append("late-exec"), late(EXECUTE))
    bus.subscribe(Ping, lambda e: log.append("prepare"), PREPARE)
    bus.subscribe(Ping, lambda e: log.append("early-exec"), early(EXECUTE))
    bus.subscribe(Ping, lambda e: log.append("broadcast"), BROADCAST)
    queue = EventQueue(bus)
    queue.queue(LoudPing())
    _pump(queue)
    assert log == ["prepare", "early-exec", "late-exec", "broadcast", "after"]


def test_follow_ups_wait_their_turn_in_fifo_order() -> None:
    bus = EventBus()
    log: list[str] = []

    def spawn(e: Ping) -> None:
        log.append(f"ping{e.n}")
        if e.n == 0:
            e.q.queue(Ping(n=1))  # type: ignore[union-attr]
            e.q.queue(Pong())  # type: ignore[union-attr]

    bus.subscribe(Ping, spawn, EXECUTE)
    bus.subscribe(Pong, lambda e: log.append("pong"), EXECUTE)
    queue = EventQueue(bus)
    queue.queue(Ping(n=0))
    queue.queue(Ping(n=2))
    _pump(queue)
    assert log == ["ping0", "ping2", "ping1", "pong"]


def test_terminate_stops_the_pump_and_leaves_the_rest_queued() -> None:
    bus = EventBus()
    queue = EventQueue(bus)
    queue.queue(Terminate())
    queue.queue(Ping())
    _pump(queue)
    assert len(queue) == 1
