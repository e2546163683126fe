"""The transport boundary: a connection sends and receives text frames, nothing more.

The session layer only sees ``Connection``; the app wraps Starlette's WebSocket in
``WebSocketConnection`` and the tests use ``MemoryConnection`` pairs, so table logic is tested
without sockets and the same code runs behind real ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from server.edge.mailbox import Closed, Full, Mailbox
from server.edge.ws_direct import EXTENSION, DirectProtocol


class Disconnected(Exception):
    """The peer went away (or the connection was closed locally)."""


class Connection(Protocol):
    async def send_text(self, text: str) -> None: ...

    async def receive_text(self) -> str:
        """The next text frame; raises ``Disconnected`` when the peer is gone."""
        ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


class WebSocketConnection:
    """A Starlette WebSocket as a Connection (binary frames are read as UTF-8 text)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        lane = ws.scope.get("extensions", {}).get(EXTENSION)
        #: the socket's protocol when it has the direct lane (server/edge/ws_direct.py)
        self.lane: DirectProtocol | None = lane if isinstance(lane, DirectProtocol) else None
        if self.lane is not None:
            self.lane.accepted()

    def send_now(self, text: str) -> bool:
        """Write a frame at once if that needs no waiting; False if it cannot."""
        return self.lane is not None and self.lane.write_text(text)

    def listen(self, on_text: Callable[[str], None] | None) -> bool:
        """Hand text frames to ``on_text`` as they arrive, from then on; ``receive_text``
        then only reports the end (or a binary frame). False without the direct lane."""
        if self.lane is None:
            return False
        self.lane.listener = on_text
        return True

    async def send_text(self, text: str) -> None:
        try:
            await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError) as exc:
            raise Disconnected(str(exc)) from exc

    async def receive_text(self) -> str:
        try:
            message = await self.ws.receive()
        except (WebSocketDisconnect, RuntimeError, OSError) as exc:
            raise Disconnected(str(exc)) from exc
        if message["type"] == "websocket.disconnect":
            raise Disconnected("closed by peer")
        text = message.get("text")
        if text is not None:
            return str(text)
        data = message.get("bytes") or b""
        return bytes(data).decode("utf-8", errors="replace")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.ws.application_state == WebSocketState.DISCONNECTED:
            return
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
            await self.ws.close(code, reason)


def direct_lane(conn: Connection) -> WebSocketConnection | None:
    """``conn`` when it can write at once and take frames as callbacks, else None."""
    return conn if isinstance(conn, WebSocketConnection) and conn.lane is not None else None


class MemoryConnection:
    """One end of an in-memory duplex pipe; ``closed_with`` records the close code."""

    def __init__(self, inbox: Mailbox) -> None:
        self.inbox = inbox
        self.peer: MemoryConnection | None = None
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        if self.closed_with is not None or self.peer is None:
            raise Disconnected("closed")
        try:
            self.peer.inbox.put(text)
        except Closed as exc:
            raise Disconnected("peer gone") from exc

    async def receive_text(self) -> str:
        try:
            return await self.inbox.get()
        except Closed as exc:
            raise Disconnected("closed") from exc

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.closed_with is not None:
            return
        self.closed_with = code
        self.inbox.close()
        if self.peer is not None and self.peer.closed_with is None:
            self.peer.closed_with = code
            self.peer.inbox.close()


def memory_pair() -> tuple[MemoryConnection, MemoryConnection]:
    """Two connected ends (server side, client side) with unbounded buffers."""
    a, b = MemoryConnection(Mailbox()), MemoryConnection(Mailbox())
    a.peer, b.peer = b, a
    return a, b


class StreamConnection:
    """A one-way connection for Server-Sent Events: the response reads ``frames``.

    ``receive_text`` waits until the response side calls ``close`` (the client went away),
    so the same session code serves SSE clients, who answer over HTTP POST instead.
    """

    def __init__(self, limit: int = 1024) -> None:
        self.frames = Mailbox(limit)
        self._gone = anyio.Event()

    async def send_text(self, text: str) -> None:
        """Queue a frame for the response; a reader ``limit`` frames behind is dropped."""
        try:
            self.frames.put(text)
        except (Closed, Full) as exc:
            self.frames.close()
            raise Disconnected("client gone or too slow") from exc

    async def receive_text(self) -> str:
        await self._gone.wait()
        raise Disconnected("closed")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self._gone.set()
        self.frames.close()
