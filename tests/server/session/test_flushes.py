"""What the direct lane's outboxes were pushed in one turn of the loop is written by one
callback (server/session/outbox.py ``Flushes``), outbox by outbox in the order of their first
push, before anything scheduled after that push; a push while it writes waits for the next
callback."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from server.edge.transport import WebSocketConnection
from server.session.outbox import Outbox


class Lane(WebSocketConnection):
    """A socket with the direct lane that logs what it writes (and may push more then)."""

    def __init__(self, name: str, log: list[str]) -> None:  # no WebSocket behind it
        self.lane = cast(Any, self)  # not None: the outbox takes this as a direct lane
        self.name, self.log = name, log
        self.then: Callable[[], object] | None = None

    def write_text(self, text: str) -> bool:
        self.log.append(f"{self.name}:{text}")
        if self.then is not None:
            self.then()
        return True


async def test_one_callback_writes_every_outbox_pushed_in_a_turn_before_what_came_after() -> None:
    log: list[str] = []
    a, b = Outbox(Lane("a", log), 10), Outbox(Lane("b", log), 10)
    a.batch = True
    a.push("1")
    asyncio.get_running_loop().call_soon(log.append, "later")
    b.push("2")
    a.push("3")
    for _ in range(3):
        await asyncio.sleep(0)
    # a callback per outbox would have written b after "later"
    assert log == ["a:1\n3", "b:2", "later"]


async def test_a_push_while_writing_goes_with_the_next_callback() -> None:
    log: list[str] = []
    lane = Lane("a", log)
    a, c = Outbox(lane, 10), Outbox(Lane("c", log), 10)
    lane.then = lambda: c.push("pushed while a wrote")
    a.push("1")
    asyncio.get_running_loop().call_soon(log.append, "later")
    for _ in range(3):
        await asyncio.sleep(0)
    assert log == ["a:1", "later", "c:pushed while a wrote"]
