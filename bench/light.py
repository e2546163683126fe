"""A light WebSocket client for load benches: the handshake and text frames over a bare
asyncio protocol, so one core can play the clients of thousands of tables.

The websockets library's client costs a task, a queue and a generator parser per frame: at
6,000 tables of thinking players (24,000 sockets, ~12,000 frames a second) its clients took
more than the core they had. Here a frame is parsed in ``data_received`` and handed to a
callback, and frames out are masked with the all-zero key (RFC 6455 requires a mask, not a
random one from a client that is no browser: masking with zeros leaves the payload as it is,
so nothing is copied). The server's pings are answered; a close is answered and ends it.

Each connection may bind its own loopback source address (127.0.0.0/8 is all the host's):
one source address has ~28,000 ephemeral ports towards one server port.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import Callable

#: the client's frame headers, masked with the zero key (FIN set)
TEXT, CLOSE, PONG = 0x81, 0x88, 0x8A
ZERO_MASK = b"\x00\x00\x00\x00"


def header(first: int, size: int) -> bytes:
    """A masked client frame's header for a payload of ``size`` bytes."""
    if size < 126:
        return bytes((first, 0x80 | size)) + ZERO_MASK
    if size < 1 << 16:
        return struct.pack("!BBH", first, 0xFE, size) + ZERO_MASK
    return struct.pack("!BBQ", first, 0xFF, size) + ZERO_MASK


class LightSocket(asyncio.Protocol):
    """One client WebSocket: ``opened`` once upgraded, ``on_text`` for each text message,
    ``closed`` when the connection ends."""

    def __init__(self, host: str, path: str, on_text: Callable[[str], None]) -> None:
        self.host = host
        self.path = path
        self.on_text = on_text
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.upgraded = False
        #: a fragmented message's parts so far
        self.parts: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = self.buffer[: self.buffer.find(b"\r\n")]
            if b" 101 " not in status:
                self._fail(ConnectionError(status.decode(errors="replace")))
                return
            self.upgraded = True
            self.buffer = self.buffer[end + 4 :]
            self.opened.set_result(None)
        self._frames()

    def _frames(self) -> None:
        buffer = self.buffer
        at = 0
        while len(buffer) - at >= 2:
            first, second = buffer[at], buffer[at + 1] & 0x7F
            start = at + 2
            if second == 126:
                if len(buffer) - at < 4:
                    break
                (second,) = struct.unpack_from("!H", buffer, at + 2)
                start = at + 4
            elif second == 127:
                if len(buffer) - at < 10:
                    break
                (second,) = struct.unpack_from("!Q", buffer, at + 2)
                start = at + 10
            end = start + second
            if end > len(buffer):
                break
            self._frame(first, buffer[start:end])
            at = end
        self.buffer = buffer[at:]

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode in (0x1, 0x0):
            if not first & 0x80:  # a fragment: the rest comes in continuation frames
                self.parts.append(payload)
                return
            if self.parts:
                payload, self.parts = b"".join((*self.parts, payload)), []
            self.on_text(payload.decode())
        elif opcode == 0x9:
            self._write(PONG, payload)
        elif opcode == 0x8:
            self._write(CLOSE, payload[:2])
            self.close()

    def _write(self, first: int, payload: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(header(first, len(payload)) + payload)

    def send_text(self, text: str) -> None:
        self._write(TEXT, text.encode())

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def _fail(self, exc: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc)
            self.opened.exception()  # retrieved: connect() raises it (or timed out first)
        self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed before the upgrade"))
            self.opened.exception()
        if not self.closed.done():
            self.closed.set_result(None)


async def connect(
    host: str, port: int, path: str, on_text: Callable[[str], None], source: str, timeout: float
) -> LightSocket:
    """An upgraded socket from ``source`` (a loopback address) to ``host:port``."""
    loop = asyncio.get_running_loop()
    _, sock = await loop.create_connection(
        lambda: LightSocket(f"{host}:{port}", path, on_text), host, port, local_addr=(source, 0)
    )
    try:
        await asyncio.wait_for(asyncio.shield(sock.opened), timeout)
    except BaseException:
        sock.close()
        raise
    return sock
