"""The event system: bands, subclass matching, FIFO, phases, cancel cascade, limited listeners."""

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


def test_cancel_skips_the_remaining_listeners_and_cascades_to_children() -> None:
    bus = EventBus()
    log: list[str] = []

    def spawn_then_cancel(e: Ping) -> None:
        e.q.queue(Pong())  # type: ignore[union-attr]
        e.cancel()

    bus.subscribe(Ping, spawn_then_cancel, EXECUTE)
    bus.subscribe(Ping, lambda e: log.append("ping after"), AFTER)
    bus.subscribe(Pong, lambda e: log.append("pong"), EXECUTE)
    queue = EventQueue(bus)
    queue.queue(Ping())
    _pump(queue)
    assert log == []


def test_the_phase_only_descends_and_children_find_their_parent() -> None:
    bus = EventBus()
    phases: list[int] = []
    parents: list[EventBase | None] = []
    bus.subscribe(Ping, lambda e: phases.append(e.phase), EXECUTE)
    bus.subscribe(Ping, lambda e: phases.append(e.phase), AFTER)
    bus.subscribe(Ping, lambda e: e.q.queue(Pong()), AFTER)
    bus.subscribe(Pong, lambda e: parents.append(e.get_in_parent(Ping)), EXECUTE)
    queue = EventQueue(bus)
    ping = Ping()
    queue.queue(ping)
    _pump(queue)
    assert phases == [EXECUTE, AFTER]
    assert parents == [ping]


def test_a_limited_listener_unsubscribes_itself_and_duplicates_are_not_queued() -> None:
    bus = EventBus()
    log: list[int] = []
    bus.subscribe(Ping, lambda e: log.append(e.n), EXECUTE, times=2)
    queue = EventQueue(bus)
    for n in range(3):
        queue.queue(Ping(n=n))
    assert queue.queue_if_not_exists(Ping(n=9)) is None
    assert queue.queue_if_not_exists(Pong()) is not None
    _pump(queue)
    assert log == [0, 1]
    assert bus.listeners(Ping) == []
