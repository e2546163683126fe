"""A small queue of text frames with an optional bound, for one reader task.

anyio's memory streams would do, but they warn when garbage-collected unclosed, which a
dropped client or a test's abandoned end always is; a deque and an event do not.
"""

from __future__ import annotations

import math
from collections import deque

import anyio


class Closed(Exception):
    """The mailbox is closed and empty."""


class Full(Exception):
    """The mailbox holds ``limit`` items."""


class Mailbox:
    __slots__ = ("_items", "_waiter", "closed", "limit")

    def __init__(self, limit: float = math.inf) -> None:
        self._items: deque[str] = deque()
        self._waiter: anyio.Event | None = None
        self.limit = limit
        self.closed = False

    def __len__(self) -> int:
        return len(self._items)

    def put(self, item: str) -> None:
        """Add an item; raises Full at the bound and Closed after ``close``."""
        if self.closed:
            raise Closed
        if len(self._items) >= self.limit:
            raise Full
        self._items.append(item)
        self._wake()

    def close(self) -> None:
        """No more items; the reader still gets those already queued."""
        self.closed = True
        self._wake()

    def clear(self) -> None:
        self._items.clear()

    def _wake(self) -> None:
        if self._waiter is not None:
            self._waiter.set()
            self._waiter = None

    def drain(self) -> list[str]:
        """Take every item queued now, without waiting."""
        items = list(self._items)
        self._items.clear()
        return items

    async def get(self) -> str:
        """The next item; raises Closed once closed and drained."""
        while not self._items:
            if self.closed:
                raise Closed
            self._waiter = anyio.Event()
            await self._waiter.wait()
        return self._items.popleft()
