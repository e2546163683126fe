"""A connection's bounded send queue: the table never waits for a slow client.

The table pushes text without awaiting; a pump task writes it to the connection. When a
client falls ``limit`` messages behind it is dropped (close code 4004) and may reconnect for
a fresh snapshot, so one slow socket never stalls the other seats.

A client that said ``batch`` gets everything queued at the moment the pump runs in one frame,
one message per line: an engine step pushes its events for a seat together, so they leave
in one send instead of one each (the send path is most of a decision's cost).
"""

from __future__ import annotations

import anyio

from server.close_codes import CloseCode
from server.mailbox import Closed, Full, Mailbox
from server.transport import Connection, Disconnected

#: how long a close handshake may take before the connection is abandoned
CLOSE_WAIT_S = 2.0


class Outbox:
    def __init__(self, conn: Connection, limit: int) -> None:
        self.conn = conn
        self._queue = Mailbox(limit)
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        #: the connection is closed (the pump has finished)
        self.done = False
        #: several messages per frame, newline-separated (the client asked for it)
        self.batch = False
        self._scope: anyio.CancelScope | None = None

    def push(self, text: str) -> bool:
        """Queue a message; False (and the client is being dropped) when it cannot keep up."""
        if self.closed:
            return False
        try:
            self._queue.put(text)
        except Full:
            self.shut(CloseCode.TOO_SLOW)
            return False
        return True

    def shut(self, code: int = 1000, reason: str = "") -> None:
        """Stop after what is queued; ``pump`` then closes the connection with ``code``
        (and ``reason``). A client dropped for being slow gets nothing more."""
        if not self.closed:
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
                    await self.conn.send_text(text)
            except (Closed, Disconnected):
                self.closed = True
        try:
            with anyio.move_on_after(CLOSE_WAIT_S, shield=True):
                await self.conn.close(self.close_code, self.close_reason)
        finally:
            self.done = True
