"""A small queue of text frames with an optional bound, for one reader task.

anyio's memory streams would do, but they warn when garbage-collected unclosed, which a
dropped client or a test's abandoned end always is; a list and a future do not. Every
socket has one that is nearly always empty (frames mostly go at once: server/session/
outbox.py), so it holds no deque (760 bytes empty) and no event, only a list (56) and, while
its reader waits, that reader's future.
"""

from __future__ import annotations

import asyncio
import math


class Closed(Exception):
    """The mailbox is closed and empty."""


class Full(Exception):
    """The mailbox holds ``limit`` items."""


class Mailbox:
    __slots__ = ("_waiter", "closed", "items", "limit")

    def __init__(self, limit: float = math.inf) -> None:
        #: what is queued (read directly by a hot caller: ``len()`` on this is a Python call)
        self.items: list[str] = []
        self._waiter: asyncio.Future[None] | None = None
        self.limit = limit
        self.closed = False

    def __len__(self) -> int:
        return len(self.items)

    def put(self, item: str) -> None:
        """Add an item; raises Full at the bound and Closed after ``close``."""
        if self.closed:
            raise Closed
        if len(self.items) >= self.limit:
            raise Full
        self.items.append(item)
        self._wake()

    def close(self) -> None:
        """No more items; the reader still gets those already queued."""
        self.closed = True
        self._wake()

    def clear(self) -> None:
        self.items.clear()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def drain(self) -> list[str]:
        """Take every item queued now, without waiting."""
        items, self.items = self.items, []
        return items

    async def get(self) -> str:
        """The next item; raises Closed once closed and drained."""
        while not self.items:
            if self.closed:
                raise Closed
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter
        return self.items.pop(0)
