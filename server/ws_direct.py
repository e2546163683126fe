"""uvicorn's sans-I/O WebSocket protocol with a direct lane for a session's frames.

Through ASGI every frame costs a queue, a task wake-up and a pause and resume of the socket's
reading (two ``epoll_ctl`` calls) on the way in, and an awaited ``send`` on the way out: most
of a decision's cost on a busy server. A session that takes frames as they arrive registers a
``listener``: text frames are handed to it from ``data_received``, with no queue, no task and
no pause (its own rate limit bounds a flood; the parser bounds a frame). ``write_text`` writes a
frame at once when the socket is open and not over its write buffer's high-water mark, and
says False otherwise, so the caller falls back to the awaited path and keeps its bound on a
slow reader. The handshake, pings, close and disconnect stay uvicorn's, through ASGI.

The session finds the protocol in its scope: ``scope["extensions"][EXTENSION]``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

#: the scope extension naming the connection's protocol
EXTENSION = "riichi.direct"

log = logging.getLogger("server")


class DirectProtocol(WebSocketsSansIOProtocol):
    """One WebSocket connection: uvicorn's, plus ``listener`` and ``write_text``."""

    listener: Callable[[str], None] | None = None

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
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
