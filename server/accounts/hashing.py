"""Password hashing in a pool of its own, with a short queue and a refusal past it.

An argon2id check takes 64 MiB and a core for tens of milliseconds. Run in anyio's shared
worker threads (40 of them, the ones every database read waits for), 40 logins at once took
RSS from 125 to 1,844 MiB and a leaderboard read to 4.6 s. Here at most ``workers`` hashes
run at once (about the cores: more would only share them), on a capacity limiter of their own
so a read never waits for a hash; ``queue`` more may wait, and a request past both is
refused at once (``Busy``: 503 ``busy`` with ``Retry-After``) before it spends any budget.
Memory is bounded by ``workers`` x 64 MiB: a waiting request holds its password, not a hash's
memory.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import TypeVar

import anyio

T = TypeVar("T")
#: a client told the pool is full comes back after this many seconds
RETRY_S = 2


class Busy(Exception):
    """Every worker is hashing and the queue is full."""


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class HashPool:
    """``workers`` hashes at once (0: ``cores()``), ``queue`` more waiting."""

    def __init__(self, workers: int = 0, queue: int = 8) -> None:
        self.workers = workers or cores()
        self.bound = self.workers + queue
        self.limiter = anyio.CapacityLimiter(self.workers)
        #: requests holding a place (hashing or waiting); only the event loop changes it
        self.held = 0

    @contextlib.contextmanager
    def place(self) -> Iterator[None]:
        """A place in the pool for one request's hashes, or Busy at once."""
        if self.held >= self.bound:
            raise Busy
        self.held += 1
        try:
            yield
        finally:
            self.held -= 1

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on one of the pool's threads (within a ``place``)."""
        return await anyio.to_thread.run_sync(work, *args, limiter=self.limiter)
