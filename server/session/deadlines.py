"""Deadlines of one table: seat -> the monotonic time its open decision runs out.

One task per table sleeps until the earliest deadline (or until told that the set changed)
and hands the seats that ran out to the table, which answers for them. Bots thinking at a
table with humans are deadlines too, so no seat ever blocks the event loop.

The task is woken only when a deadline comes earlier than the one it sleeps for: each new
inquiry sets later deadlines than the last, and waking the task for each would cost a task
switch per decision. A deadline removed early leaves the task to wake once for nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio


class Deadlines(dict[int, float]):
    def __init__(self) -> None:
        super().__init__()
        self._wake = anyio.Event()
        #: when the waiting task wakes by itself (inf: it waits to be told)
        self._armed = float("inf")

    def changed(self) -> None:
        """New deadlines were set: the waiting task looks again if one is earlier."""
        if self and min(self.values()) < self._armed:
            self._wake.set()

    async def _wait(self, timeout: float) -> None:
        with anyio.move_on_after(timeout):
            await self._wake.wait()
        if self._wake.is_set():
            self._wake = anyio.Event()

    async def run(self, now: Callable[[], float], expire: Callable[[float], None]) -> None:
        """Forever: call ``expire(now)`` whenever the earliest deadline has passed."""
        while True:
            if not self:
                self._armed = float("inf")
                await self._wait(float("inf"))
                continue
            due = min(self.values())
            wait = due - now()
            if wait > 0:
                self._armed = due
                await self._wait(wait)
                continue
            self._armed = float("-inf")  # expiring: anything set meanwhile wakes the task
            expire(now())
