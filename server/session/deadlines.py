"""Deadlines of one table: seat -> the monotonic time its open decision runs out.

One task per table sleeps until the earliest deadline (or until told that the set changed)
and hands the seats that ran out to the table, which answers for them. Bots thinking at a
table with humans are deadlines too, so no seat ever blocks the event loop.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio


class Deadlines(dict[int, float]):
    def __init__(self) -> None:
        super().__init__()
        self._wake = anyio.Event()

    def changed(self) -> None:
        """New deadlines were set: the waiting task looks again."""
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
                await self._wait(float("inf"))
                continue
            wait = min(self.values()) - now()
            if wait > 0:
                await self._wait(wait)
                continue
            expire(now())
