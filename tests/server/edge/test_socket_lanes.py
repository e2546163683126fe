"""server/edge/socket_lanes.py: a seat's WebSocket path goes straight to its endpoint (none
of the router's layers held for the socket's life); every other request to the router."""

from __future__ import annotations

from typing import Any

from starlette.websockets import WebSocket

from server.edge.socket_lanes import SocketLanes


async def test_only_a_lanes_websocket_path_skips_the_router() -> None:
    routed: list[str] = []
    served: list[str] = []

    async def router(scope: Any, receive: Any, send: Any) -> None:
        routed.append(f"{scope['type']} {scope['path']}")

    async def endpoint(ws: WebSocket) -> None:
        served.append(ws.url.path)

    async def nothing() -> Any:
        return {}

    async def drop(message: Any) -> None:
        return None

    lanes = SocketLanes(router, {"/ws/play": endpoint})
    for kind, path in (
        ("websocket", "/ws/play"),
        ("websocket", "/ws/watch/g1"),
        ("websocket", "/ws/play/x"),
        ("http", "/ws/play"),
    ):
        scope = {"type": kind, "path": path, "root_path": "", "headers": [], "query_string": b""}
        if kind == "websocket":
            scope["scheme"] = "ws"
        scope["server"] = ("testserver", 80)
        await lanes(scope, nothing, drop)
    assert served == ["/ws/play"]
    assert routed == ["websocket /ws/watch/g1", "websocket /ws/play/x", "http /ws/play"]
