"""A WebSocket path served straight from the middleware stack, past Starlette's router.

A WebSocket's ASGI call stays suspended for the socket's life, and so does every layer it
went through: the exception middleware, the router, the route and the endpoint's session
wrapper are nine coroutines, closures and cells, about 3 KiB of every seat's socket (four a
table: bench/memory.py). A seat's socket needs none of them: its endpoint makes its own
WebSocket and handles its own errors. Placed innermost, after the Shield (Origin) and the
stopping gate, this hands ``lanes``' exact paths to their endpoint; everything else goes on
to the router as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from starlette._utils import get_route_path
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

Endpoint = Callable[[WebSocket], Awaitable[None]]


class SocketLanes:
    """ASGI middleware: a WebSocket whose path is a key of ``lanes`` goes to its endpoint."""

    def __init__(self, app: ASGIApp, lanes: Mapping[str, Endpoint]) -> None:
        self.app = app
        self.lanes = dict(lanes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            endpoint = self.lanes.get(get_route_path(scope))
            if endpoint is not None:
                await endpoint(WebSocket(scope, receive, send))
                return
        await self.app(scope, receive, send)
