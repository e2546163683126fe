"""server/edge/security.py ``TrustedHosts``: Starlette's Host check, answered alike, with no
parsed headers held by a frame for a socket's life."""

from __future__ import annotations

import sys
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware

from server.edge.security import TrustedHosts

ALLOWED = ["example.com", "*.example.org", "www.example.net"]


def _scope(kind: str, host: str | None) -> dict[str, Any]:
    headers = [] if host is None else [(b"host", host.encode())]
    return {
        "type": kind,
        "path": "/x",
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "scheme": "http",
        "server": ("example.com", 80),
    }


async def _answer(middleware: type[TrustedHostMiddleware], kind: str, host: str | None) -> Any:
    """What the middleware did with one request: ("app",) when passed on, else the status
    and headers it sent."""
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        sent.append(("app",))

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            sent.append((message["status"], sorted(message["headers"])))

    await middleware(app, allowed_hosts=ALLOWED)(_scope(kind, host), receive, send)
    return sent


async def test_every_host_is_answered_as_starlette_answers_it() -> None:
    hosts = [None, "", "example.com", "EXAMPLE.com:8000", "a.example.org", "example.org"]
    hosts += ["evil.com", "example.net", "www.example.net", "example.com.evil.com"]
    for kind in ("http", "websocket"):
        for host in hosts:
            ours = await _answer(TrustedHosts, kind, host)
            assert ours == await _answer(TrustedHostMiddleware, kind, host), (kind, host)
    assert await _answer(TrustedHosts, "http", "example.net") != [("app",)]  # the redirect


async def test_the_frame_that_awaits_the_socket_holds_no_parsed_headers() -> None:
    """The app runs for the socket's life: the middleware's frame above it must not keep the
    request's ``Headers`` (Starlette's does: ~1 KiB of every socket, issue 45)."""
    held: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        frame = sys._getframe(1)  # the middleware's suspended ``__call__``
        held.append(dict(frame.f_locals))

    async def nothing() -> Any:
        return {}

    async def drop(message: Any) -> None:
        return None

    for middleware in (TrustedHostMiddleware, TrustedHosts):
        await middleware(app, allowed_hosts=ALLOWED)(
            _scope("websocket", "example.com"), nothing, drop
        )
    starlette, ours = held
    assert any(isinstance(v, Headers) for v in starlette.values())  # what the test looks for
    assert not any(isinstance(v, Headers) for v in ours.values())
    assert set(ours) <= {"self", "scope", "receive", "send", "__class__"}
