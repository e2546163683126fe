"""asyncio's ``Queue`` and ``Event`` for one connection, without their empty deques.

Every open socket holds a receive queue and a writability flag (uvicorn's WebSocket
protocol) and a send mailbox: as asyncio objects that is five ``collections.deque`` (760 bytes
each, empty) per socket, 15 KiB of a table's four sockets that nearly always hold nothing
(bench/memory.py). These keep the same semantics on plain lists, which cost 56 bytes empty,
and make a waiter's future only while someone waits.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


def _wake_one(waiters: list[asyncio.Future[None]]) -> None:
    """Wake the first waiter still waiting."""
    while waiters:
        waiter = waiters.pop(0)
        if not waiter.done():
            waiter.set_result(None)
            return


class LeanQueue(Generic[T]):
    """An unbounded FIFO with ``asyncio.Queue``'s ``put_nowait``/``get``/``empty``/``qsize``."""

    __slots__ = ("_getters", "_items")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._getters: list[asyncio.Future[None]] = []

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        _wake_one(self._getters)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    async def get(self) -> T:
        """The next item, waiting for one; a getter cancelled after it was woken passes the
        wake-up on (as ``asyncio.Queue`` does)."""
        while not self._items:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._getters.append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter in self._getters:
                    self._getters.remove(waiter)
                elif self._items:  # woken, but leaving: the next getter takes the item
                    _wake_one(self._getters)
                raise
        return self._items.pop(0)


class LeanEvent:
    """``asyncio.Event``: ``set``/``clear``/``is_set``/``wait``."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        if self._set:
            return
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> bool:
        if self._set:
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
            return True
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
