"""Deadlines of one table: seat -> the monotonic time its open decision runs out.

One timer of the event loop per table fires at the earliest deadline and hands the seats
that ran out to the table, which answers for them. Bots thinking at a table with humans are
deadlines too, so no seat ever blocks the event loop.

A timer, not a task: a task sleeping on a cancel scope costs a scope, an event and a task
switch each time it is woken. The timer is moved only when a deadline comes earlier than the
one it is set for (each new inquiry sets later deadlines than the last); a deadline removed
early leaves it to fire once for nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

INF = float("inf")


def _no_clock() -> float:
    return 0.0


def _no_expiry(now: float) -> None:
    pass


class Deadlines(dict[int, float]):
    def __init__(self) -> None:
        super().__init__()
        self._timer: asyncio.TimerHandle | None = None
        #: the deadline the timer is set for (inf: none; -inf: expiring now)
        self._armed = INF
        self._loop: asyncio.AbstractEventLoop | None = None
        self._now: Callable[[], float] = _no_clock
        self._expire: Callable[[float], None] = _no_expiry
        self._failed: asyncio.Future[None] | None = None
        self._stopped = False

    def changed(self) -> None:
        """New deadlines were set: the timer moves if one is earlier."""
        if self and self._loop is not None:
            due = min(self.values())
            if due < self._armed:
                self._arm(due)

    def _arm(self, due: float) -> None:
        assert self._loop is not None
        if self._timer is not None:
            self._timer.cancel()
        self._armed = due
        self._timer = self._loop.call_later(max(0.0, due - self._now()), self._fire)

    def _fire(self) -> None:
        self._timer, self._armed = None, INF
        now = self._now()
        if self and min(self.values()) <= now:
            self._armed = -INF  # expiring: what is set meanwhile is looked at below
            try:
                self._expire(now)
            except Exception as exc:  # the table's task fails with it, as a task would
                if self._failed is not None and not self._failed.done():
                    self._failed.set_exception(exc)
                return
            finally:
                self._armed = INF
        if self:
            self._arm(min(self.values()))

    async def run(self, now: Callable[[], float], expire: Callable[[float], None]) -> None:
        """Until ``stop`` (or cancelled): call ``expire(now)`` whenever the earliest deadline
        has passed. ``expire`` is let go at the end: a bound method of the table's answers,
        which hold these deadlines, would be a cycle the collector must find
        (server/runtime/heap.py)."""
        if self._stopped:  # the game ended before this task first ran
            return
        self._loop, self._now, self._expire = asyncio.get_running_loop(), now, expire
        self._failed = self._loop.create_future()
        try:
            self.changed()
            await self._failed
        finally:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._armed, self._loop = None, INF, None
            self._now, self._expire = _no_clock, _no_expiry
            if not self._failed.done():
                self._failed.cancel()

    def stop(self) -> None:
        """End ``run`` without cancelling its task (the game is over): a cancelled task
        leaves its exception in a cycle with anyio's frame, found only by a sweep."""
        self._stopped = True
        if self._failed is not None and not self._failed.done():
            self._failed.set_result(None)
