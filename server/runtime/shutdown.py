"""Graceful stop under uvicorn: suspend the games before the connections go.

uvicorn stops on SIGTERM in this order: stop listening, close every connection (a WebSocket
gets 1012), wait for the handlers (``timeout_graceful_shutdown``), then the lifespan's
shutdown. A table whose human seats disconnect would answer their inquiries with defaults at
once, so the games must be suspended *before* uvicorn closes the connections:
``StoppingServer.shutdown`` calls ``Hub.stop`` first (every game frozen and stored as
suspended, every client sent close 1012 with a reason), waits briefly for the close
handshakes, then lets uvicorn go on. ``StoppingGate`` answers 503 to new rooms and games
meanwhile. A signal ends the process with exit code 0 (uvicorn would re-raise it).
"""

from __future__ import annotations

import asyncio
import time
from types import FrameType

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from server.edge.close_codes import RESTART_REASON
from server.edge.codec import encode
from server.edge.messaging import WireError
from server.runtime.process import refuse_in_worker
from server.session.hub import Hub
from server.session.resume import clients

#: how long the stop waits for clients to finish their close handshake
CLOSE_WAIT_S = 2.0
#: uvicorn's wait for the handlers after closing connections; the whole stop stays under 10 s
GRACEFUL_S = 4


class StoppingGate:
    """ASGI middleware: while the hub stops, requests that would start something get 503."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.hub.stopping
            and scope["type"] == "http"
            and scope["method"] == "POST"
            and str(scope["path"]).startswith("/api/rooms")
        ):
            body = encode(WireError("restarting", RESTART_REASON)).encode()
            headers = [(b"content-type", b"application/json"), (b"retry-after", b"5")]
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


class StoppingServer(uvicorn.Server):
    """uvicorn with the hub suspended before its connections are closed."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # as uvicorn, without keeping the signal to re-raise: a stop on request exits 0
        if self.should_exit:
            self.force_exit = True
        self.should_exit = True

    async def shutdown(self, sockets: list[object] | None = None) -> None:  # type: ignore[override]
        refuse_in_worker("the server's stop (suspending its games)")
        self.hub.stop()
        deadline = time.monotonic() + CLOSE_WAIT_S
        while clients(self.hub) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await super().shutdown(sockets)  # type: ignore[arg-type]
