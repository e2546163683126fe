"""A connection's bounded send queue: the table never waits for a slow client.

The table pushes text without awaiting; a pump task writes it to the connection. When a
client falls ``limit`` messages behind it is dropped (close code 4004) and may reconnect for
a fresh snapshot, so one slow socket never stalls the other seats.

A client that said ``batch`` gets everything queued at the moment the pump runs in one frame,
one message per line: an engine step pushes its events for a seat together, so they leave
in one send instead of one each (the send path is most of a decision's cost).

A connection that can write at once (``send_now``: a WebSocket on server/edge/ws_direct.py) skips
the pump: what is pushed during one turn of the event loop is written at its end, with no
task wake-up, by one callback for every such connection of the loop (``Flushes``): a step
pushes to four seats, and a callback each was four handles made and run. Once a write
cannot go at once (the peer is not reading), the rest goes through the pump and its bound,
in order, until the pump has caught up.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Final

import anyio

from server.edge.close_codes import CloseCode
from server.edge.mailbox import Closed, Full, Mailbox
from server.edge.transport import Connection, Disconnected, direct_lane

#: how long a close handshake may take before the connection is abandoned
CLOSE_WAIT_S = 2.0


class Flushes:
    """The outboxes of one event loop with text pushed this turn, flushed by one callback
    in the order of their first push."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._due: list[Outbox] = []

    def add(self, outbox: Outbox) -> None:
        if not self._due:
            self._loop.call_soon(self._run)
        self._due.append(outbox)

    def _run(self) -> None:
        due, self._due = self._due, []  # what is pushed while these write waits for the next
        for outbox in due:
            outbox.flush()


#: each running loop's ``Flushes``, let go with the loop
_FLUSHES: Final[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Flushes]] = (
    weakref.WeakKeyDictionary()
)


def flushes() -> Flushes:
    """The running loop's ``Flushes``."""
    loop = asyncio.get_running_loop()
    found = _FLUSHES.get(loop)
    if found is None:
        found = _FLUSHES[loop] = Flushes(loop)
    return found


class Outbox:
    def __init__(self, conn: Connection, limit: int) -> None:
        self.conn = conn
        self._queue = Mailbox(limit)
        #: the mailbox's bound as a machine int: its own is a float (infinity by default),
        #: compared through Python on every push
        self._limit = limit
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        #: the connection is closed (the pump has finished)
        self.done = False
        #: several messages per frame, newline-separated (the client asked for it)
        self.batch = False
        self._scope: anyio.CancelScope | None = None
        #: pushed this turn of the loop, for ``flush`` to write at once (the direct lane)
        self._lane = direct_lane(conn)
        self._direct: list[str] | None = None if self._lane is None else []
        #: the lane's socket's own write (``send_now`` less one call per frame)
        socket = None if self._lane is None else self._lane.lane
        self._write = None if socket is None else socket.write_text
        #: the loop's flush of what was pushed, looked up once (on Python 3.11 each lookup
        #: of the running loop is a ``getpid`` system call)
        self._flushes = None if self._lane is None else flushes()
        #: the pump holds a message it has not finished writing (the direct lane waits)
        self._sending = False

    @property
    def direct(self) -> bool:
        """Frames are written at once, without the pump (server/edge/ws_direct.py)."""
        return self._lane is not None

    def push(self, text: str) -> bool:
        """Queue a message; False (and the client is being dropped) when it cannot keep up."""
        if self.closed:
            return False
        direct = self._direct
        if direct is not None and not self._queue.items and not self._sending:
            if not direct:
                assert self._flushes is not None
                self._flushes.add(self)
            elif len(direct) >= self._limit:
                self.shut(CloseCode.TOO_SLOW)
                return False
            direct.append(text)
            return True
        try:
            self._queue.put(text)
        except Full:
            self.shut(CloseCode.TOO_SLOW)
            return False
        return True

    def flush(self) -> None:
        """Write what was pushed this turn; what cannot go at once goes to the pump."""
        texts, self._direct = self._direct or [], []
        dropped = self.closed and self.close_code == CloseCode.TOO_SLOW
        write = self._write
        if not texts or write is None or dropped:
            return
        frames = ["\n".join(texts)] if self.batch else texts
        for n, frame in enumerate(frames):
            if not write(frame):
                try:
                    for rest in frames[n:]:
                        self._queue.put(rest)
                except Full:
                    self.shut(CloseCode.TOO_SLOW)
                return

    def shut(self, code: int = 1000, reason: str = "") -> None:
        """Stop after what is queued; ``pump`` then closes the connection with ``code``
        (and ``reason``). A client dropped for being slow gets nothing more."""
        if not self.closed:
            if code != CloseCode.TOO_SLOW and self._direct:
                self.flush()  # what was pushed before the shut still goes, first
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            if code == CloseCode.TOO_SLOW:
                self._queue.clear()
                if self._scope is not None:
                    self._scope.cancel()  # the send in progress may never finish
            self._queue.close()

    async def pump(self) -> None:
        """Write queued messages until shut; then close the connection."""
        with anyio.CancelScope() as self._scope:
            try:
                queue = self._queue
                while True:
                    text = await queue.get()
                    if self.batch and len(queue):
                        text = "\n".join([text, *queue.drain()])
                    self._sending = True
                    await self.conn.send_text(text)
                    self._sending = False
            except (Closed, Disconnected):
                self.closed = True
        try:
            with anyio.move_on_after(CLOSE_WAIT_S, shield=True):
                await self.conn.close(self.close_code, self.close_reason)
        finally:
            self.done = True
