"""server/edge/lean.py keeps asyncio's Queue and Event semantics, and holds no deque."""

from __future__ import annotations

import asyncio
import collections
import gc

import pytest

from server.edge.lean import LeanEvent, LeanQueue
from server.edge.mailbox import Mailbox


async def test_queue_is_fifo_and_wakes_a_waiting_getter() -> None:
    queue: LeanQueue[int] = LeanQueue()
    assert queue.empty()
    getter = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    assert not getter.done()
    queue.put_nowait(1)
    queue.put_nowait(2)
    assert await getter == 1
    assert queue.qsize() == 1
    assert await queue.get() == 2
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()


async def test_a_cancelled_getter_passes_its_item_on() -> None:
    queue: LeanQueue[str] = LeanQueue()
    first = asyncio.create_task(queue.get())
    second = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait("x")  # wakes the first...
    first.cancel()  # ...which leaves before it runs: the second must take the item
    assert await asyncio.wait_for(second, 1) == "x"
    assert first.cancelled()


async def test_event_waits_until_set_and_not_after_clear() -> None:
    event = LeanEvent()
    waiters = [asyncio.create_task(event.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    event.set()
    assert await asyncio.gather(*waiters) == [True, True]
    assert await event.wait()  # set: at once
    event.clear()
    late = asyncio.create_task(event.wait())
    await asyncio.sleep(0.01)
    assert not late.done()
    late.cancel()
    await asyncio.sleep(0)
    event.set()  # a cancelled waiter is skipped
    assert event.is_set()


async def test_an_idle_socket_holds_no_deque() -> None:
    """The point of them: what a quiet socket holds has no ``collections.deque`` (asyncio's
    ``Queue`` holds four, its ``Event`` one, 760 bytes each)."""
    gc.collect()
    before = sum(isinstance(o, collections.deque) for o in gc.get_objects())
    held = [(LeanQueue[str](), LeanEvent(), Mailbox(64)) for _ in range(100)]
    waiting = [asyncio.create_task(q.get()) for q, _, _ in held]
    waiting += [asyncio.create_task(m.get()) for _, _, m in held]
    await asyncio.sleep(0)
    after = sum(isinstance(o, collections.deque) for o in gc.get_objects())
    assert after - before < 10, after - before  # none per socket (the tasks' own aside)
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
