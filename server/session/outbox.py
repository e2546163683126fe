"""A connection's bounded send queue: the table never waits for a slow client.

The table pushes text without awaiting; a pump task writes it to the connection. When a
client falls ``limit`` messages behind it is dropped (close code 4004) and may reconnect for
a fresh snapshot, so one slow socket never stalls the other seats.
"""

from __future__ import annotations

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from server.transport import Connection, Disconnected

CLOSE_TOO_SLOW = 4004


class Outbox:
    def __init__(self, conn: Connection, limit: int) -> None:
        self.conn = conn
        self._send: MemoryObjectSendStream[str]
        self._recv: MemoryObjectReceiveStream[str]
        self._send, self._recv = anyio.create_memory_object_stream[str](limit)
        self.closed = False
        self.close_code = 1000

    def push(self, text: str) -> bool:
        """Queue a message; False (and the client is being dropped) when it cannot keep up."""
        if self.closed:
            return False
        try:
            self._send.send_nowait(text)
        except anyio.WouldBlock:
            self.shut(CLOSE_TOO_SLOW)
            return False
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            self.closed = True
            return False
        return True

    def shut(self, code: int = 1000) -> None:
        """Stop after what is queued; ``pump`` then closes the connection with ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self._send.close()

    async def pump(self) -> None:
        """Write queued messages until shut; then close the connection."""
        try:
            async with self._recv:
                async for text in self._recv:
                    if self.close_code == CLOSE_TOO_SLOW:
                        break
                    await self.conn.send_text(text)
        except Disconnected:
            self.closed = True
        finally:
            with anyio.CancelScope(shield=True):
                await self.conn.close(self.close_code)
