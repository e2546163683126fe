"""uvicorn's sans-I/O WebSocket protocol with a direct lane for a session's frames.

Through ASGI every frame costs a queue, a task wake-up and a pause and resume of the socket's
reading (two ``epoll_ctl`` calls) on the way in, and an awaited ``send`` on the way out: most
of a decision's cost on a busy server. A session that takes frames as they arrive registers a
``listener``: text frames are handed to it from ``data_received``, with no queue, no task and
no pause (its own rate limit bounds a flood; the parser bounds a frame). ``write_text`` writes a
frame at once when the socket is open and not over its write buffer's high-water mark, and
says False otherwise, so the caller falls back to the awaited path and keeps its bound on a
slow reader. The handshake, close and disconnect stay uvicorn's, through ASGI.

A data frame from the server is a two- to ten-byte header and the text (no mask, no
extension: compression is off), so ``write_text`` frames it here instead of through the
protocol's frame objects. A socket is pinged only when it has been quiet: whatever the peer
sent within the ping interval already proved it alive (a seat answers every few seconds),
and a ping is a timer, a write, a read and a parse.

Reading has a lane of its own too: a seat's answer is one small text frame in one read, and
the protocol's parser (generators nested three deep, a frame object, an event list) cost
more than the rest of reading it. When the parser waits at a frame boundary with nothing
buffered and the read is exactly one final, masked text frame under 126 bytes, the frame is
unmasked here and handed to the listener as the parser would have; anything else (a
fragment, a control frame, two frames in one read, a frame split over reads) goes through
the parser, which then holds the only state there is.

The session finds the protocol in its scope: ``scope["extensions"][EXTENSION]``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import Protocol, State
from websockets.streams import StreamReader

from server.edge.lean import LeanEvent, LeanQueue

#: the scope extension naming the connection's protocol
EXTENSION = "riichi.direct"

log = logging.getLogger("server")


class DirectProtocol(WebSocketsSansIOProtocol):
    """One WebSocket connection: uvicorn's, plus ``listener`` and ``write_text``.

    Its receive queue and writability flag are server/edge/lean.py's (no empty deques held
    for the socket's life), and the handshake's request and response are let go once the
    socket is accepted (``accepted``): together about 4 KiB of every socket (bench/memory.py).
    """

    listener: Callable[[str], None] | None = None
    #: the loop's time when the peer last sent anything
    heard_at = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn uses only put_nowait/get/empty of the queue, set/clear/is_set/wait of the flag
        self.queue = LeanQueue()  # type: ignore[assignment]
        self.writable = LeanEvent()  # type: ignore[assignment]
        self.writable.set()

    def accepted(self) -> None:
        """The handshake is over (the app accepted, after reading what it needed of the
        headers): its parsed request, the response sent and the headers are not read again.
        The request stays referenced by the websockets parser's generator for the socket's
        life, so its headers are emptied rather than only let go."""
        if self.handshake_complete:
            request = self.__dict__.pop("request", None)
            if request is not None:
                request.headers.clear()
            self.__dict__.pop("response", None)
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope["headers"].clear()  # Starlette's cached Headers hold this same list

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        if self.listener is None or not self._take_text_frame(data):
            super().data_received(data)

    def _take_text_frame(self, data: bytes) -> bool:
        """Hand ``data`` to the listener when it is one whole small text frame and the
        parser waits for the next frame with nothing buffered; False (nothing done) else."""
        n = len(data) - 6
        if not 0 <= n < 126 or data[0] != 0x81 or data[1] != 0x80 | n:
            return False  # not FIN + text without RSV bits, masked, 7-bit length, alone
        conn = self.conn
        if (
            self.close_sent
            or conn.state is not State.OPEN
            or conn.current_size is not None
            or conn.reader.buffer
            or (conn.max_message_size is not None and n > conn.max_message_size)
            or (conn.max_fragment_size is not None and n > conn.max_fragment_size)
            or not waits_for_frame(conn.parser)
        ):
            return False
        self.curr_msg_data_type = "text"
        self.frames = [unmask(data[6:], data[2:6])]
        self.send_receive_event_to_app()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        """Gone: the listener and the scope's way back to this protocol are let go, so the
        connection is freed by reference counting (the scope would hold it in a cycle the
        collector must find: server/runtime/heap.py)."""
        super().connection_lost(exc)
        self.listener = None
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(EXTENSION, None)

    def send_keepalive_ping(self) -> None:
        """Ping only a peer that was quiet for a whole interval; else look again when it
        will have been."""
        assert self.ping_interval is not None
        quiet_at = self.heard_at + self.ping_interval
        wait = quiet_at - self.loop.time()
        if wait > 0 and not self.close_sent:
            self.ping_timer = self.loop.call_later(wait, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # accepted (101): the app's task has not started yet
            scope["extensions"][EXTENSION] = self

    def send_receive_event_to_app(self) -> None:
        listener = self.listener
        if listener is None or self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        try:
            text = data.decode()
        except UnicodeDecodeError:
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        try:
            listener(text)
        except Exception:  # a session bug must not break uvicorn's protocol state
            log.exception("the listener of a WebSocket failed; closing it")
            self.listener = None
            self.conn.send_close(1011, "internal error")
            self.handle_parser_exception()  # tells the app's task the socket is gone

    def write_text(self, text: str) -> bool:
        """Write one text frame now; False when it cannot go at once (closed, not accepted
        yet, or the peer is not reading): the caller then awaits the ASGI send."""
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        if self.conn.state is not State.OPEN or self.conn.extensions:
            try:  # the protocol's own path raises or frames what this one does not
                self.conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True
        self.transport.write(frame(text.encode()))
        return True


_PARSE = Protocol.parse.__code__
_AT_EOF = StreamReader.at_eof.__code__


def waits_for_frame(parser: object) -> bool:
    """The protocol's parser is between frames: its frame loop waits in ``at_eof`` (so no
    byte of a next frame was taken). Any other state, or another version of websockets
    whose parser is shaped otherwise, says False and the parser reads the frame."""
    loop = getattr(parser, "gi_yieldfrom", None)  # the server's parse -> the frame loop
    if loop is None or getattr(loop, "gi_code", None) is not _PARSE:
        return False
    waiting = getattr(loop, "gi_yieldfrom", None)
    return waiting is not None and getattr(waiting, "gi_code", None) is _AT_EOF


def unmask(payload: bytes, key: bytes) -> bytes:
    """A client frame's payload XOR its four-byte masking key (RFC 6455 5.3).

    >>> unmask(bytes.fromhex("7f9f4d5158"), bytes.fromhex("37fa213d"))  # RFC 6455 5.7
    b'Hello'
    """
    n = len(payload)
    if key == b"\0\0\0\0" or not n:
        return payload
    stream = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(stream, "little")).to_bytes(
        n, "little"
    )


def frame(payload: bytes) -> bytes:
    """A final, unmasked text frame (RFC 6455 5.2): what a server sends.

    >>> frame(b"hi")
    b'\\x81\\x02hi'
    >>> frame(bytes(200))[:4]
    b'\\x81~\\x00\\xc8'
    """
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload
