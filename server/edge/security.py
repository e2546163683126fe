"""Web hardening around the app: response headers, Origin and content-type checks, the body
cap, and the HTTP protocol's connection limits (slowloris).

``Shield`` is the outermost ASGI layer: every response gets the security headers, a
cross-site browser request (WebSocket or POST from another Origin) is refused, a POST that
is not ``application/json`` is refused (so a cross-site ``text/plain`` form cannot act: it
would need a CORS preflight, which we never grant), and a declared Content-Length over
``max_body`` gets 413 before any of the body is read (``web.read_body`` counts the rest).

``guarded_protocol`` is uvicorn's h11 protocol with two more limits: a connection must send
its request headers within ``header_timeout_s`` (uvicorn has no header time-out, so a
slowloris client could hold a socket forever), and one address may hold at most
``max_conns_per_client`` connections, everyone together ``max_connections``, so nobody can
run the process out of file descriptors.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any
from urllib.parse import urlsplit

import h11
from starlette._utils import parse_host_header
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from server.edge.close_codes import CloseCode
from server.edge.limits import network, parse_list
from server.edge.ws_direct import DirectProtocol
from server.settings import Settings

log = logging.getLogger("server")

#: no inline script, no style elements, nothing from elsewhere, never framed
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' "
    "data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


#: an origin's host[:port] as a CSP source may name it (no spaces, quotes or semicolons)
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:\d+)?|\[[0-9A-Fa-f:.]+\](:\d+)?")


def csp(origins: frozenset[str]) -> str:
    """``CSP`` whose ``connect-src`` also names ``origins`` (``allowed_origins``: in a cluster
    every node's URL), each with its WebSocket scheme, so this node's page may open a seat's
    socket on the node that runs the room (docs/scaling.md). CSP's ``http:`` source does not
    cover ``ws:``, hence both."""
    sources = ["'self'"]
    for origin in sorted(origins):
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not _HOST.fullmatch(parts.netloc):
            continue  # not an origin a page could have (and nothing to inject into the header)
        ws = "wss" if parts.scheme == "https" else "ws"
        sources += [f"{parts.scheme}://{parts.netloc}", f"{ws}://{parts.netloc}"]
    return CSP.replace("connect-src 'self'", "connect-src " + " ".join(sources))


def headers(origins: frozenset[str]) -> list[tuple[bytes, bytes]]:
    """``HEADERS`` with the CSP of ``csp(origins)``."""
    policy = (b"content-security-policy", csp(origins).encode())
    return [policy if name == b"content-security-policy" else (name, v) for name, v in HEADERS]


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: the replay viewer's upload: a whole game log, capped by ``max_log`` instead of ``max_body``
UPLOAD_PATH = "/api/replay"
#: besides JSON, the upload takes mjai's JSON lines (still never a form a page can post)
LOG_TYPES = frozenset({"application/x-ndjson", "application/jsonl"})
#: WebSocket close code for a refused handshake (uvicorn answers it with HTTP 403)
POLICY_VIOLATION = CloseCode.POLICY_VIOLATION


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return ""


class TrustedHosts(TrustedHostMiddleware):
    """Starlette's Host check, made where no suspended frame keeps it: Starlette's
    ``__call__`` holds the request's parsed ``Headers`` and host in its locals while it
    awaits the app, which for a WebSocket is the socket's whole life (~1 KiB a socket,
    bench/memory.py, issue 45). A valid host goes on from a frame that holds only the call;
    anything else is refused by Starlette's own code (400, or its ``www.`` redirect)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.allow_any or scope["type"] not in ("http", "websocket") or self.valid(scope):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def valid(self, scope: Scope) -> bool:
        """The request's Host is one of the allowed (Starlette's rule, ``*.`` patterns too)."""
        parsed = parse_host_header(Headers(scope=scope).get("host"))
        if parsed is None:
            return False
        host = parsed.host.lower()
        return any(
            host == pattern or (pattern.startswith("*") and host.endswith(pattern[1:]))
            for pattern in self.allowed_hosts
        )


class Shield:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_body = settings.max_body
        self.max_log = settings.max_log
        self.origins = parse_list(settings.allowed_origins)
        self.headers = headers(self.origins)

    def origin_ok(self, scope: Scope) -> bool:
        """No Origin (not a browser, or a same-origin GET) or the same host, or allowed."""
        origin = _header(scope, b"origin")
        if not origin:
            return True
        if origin in self.origins:
            return True
        # the scheme is not compared: behind a TLS proxy the app sees http for https pages
        return urlsplit(origin).netloc.lower() == _header(scope, b"host").lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.origin_ok(scope):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": POLICY_VIOLATION})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            status, code, text = refusal
            await _send_error(send, status, code, text, self.headers)
            return

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:  # a bug: logged here, and the answer still carries the headers
            log.exception("%s %s failed", scope["method"], scope["path"])
            if started:
                raise
            await _send_error(send, 500, "internal", "the server failed", self.headers)

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        """(status, error code, message) of a request refused before the app sees it."""
        upload = scope["path"] == UPLOAD_PATH  # a game log: larger, and maybe mjai lines
        limit = self.max_log if upload else self.max_body
        length = _header(scope, b"content-length")
        if length.strip().isdigit() and int(length) > limit:
            return 413, "too_large", f"body over {limit} bytes"
        if scope["method"] not in UNSAFE_METHODS:
            return None
        if not self.origin_ok(scope):
            return 403, "bad_origin", "cross-origin requests are refused"
        kind = _header(scope, b"content-type").split(";")[0].strip().lower()
        if kind != "application/json" and not (upload and kind in LOG_TYPES):
            return 415, "bad_content_type", "send Content-Type: application/json"
        return None


async def _send_error(
    send: Send, status: int, code: str, text: str, extra: list[tuple[bytes, bytes]]
) -> None:
    body = b'{"type":"error","code":"%s","message":"%s"}' % (code.encode(), text.encode())
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),  # the unread body is not worth reading
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def guarded_protocol(settings: Settings) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a header deadline and per-address connection caps."""
    proxies = parse_list(settings.trusted_proxies)
    per_client = settings.max_conns_per_client
    total = settings.max_connections
    deadline_s = settings.header_timeout_s
    max_body = settings.max_body
    prefix = settings.ipv6_prefix
    held: dict[str, int] = {}
    #: HTTP connections open now, everyone's (uvicorn's own set also holds the WebSockets,
    #: which ``max_sockets`` caps apart: counted there, they took the HTTP places)
    http_open = [0]

    class GuardedProtocol(H11Protocol):
        _peer = ""
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else "unknown"
            self._peer = peer if peer in proxies else network(peer, prefix)
            count = held.get(self._peer, 0) + 1
            held[self._peer] = count
            http_open[0] += 1
            capped = count > per_client and self._peer not in proxies
            if capped or http_open[0] > total:
                transport.close()  # no answer: reading the request is what costs
                return
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE or self._leftover():
                self._arm()  # headers to come, or an answered request's unread body
            else:
                self._disarm()  # the app has the request: its own deadlines rule

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            # the WebSocket protocol takes the transport over: count it no longer here
            # (the app counts sockets per client), and the headers have arrived
            self._release()
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()
            if self._leftover():
                # answered before its body was read (429, a GET with a body): a small body
                # may still be in flight from a keep-alive client, which closing now would
                # reset, so it may finish within the deadline; a large or unsized one is not
                # worth reading
                if self._small_body():
                    self._arm()
                else:
                    self.transport.close()

        def _small_body(self) -> bool:
            for name, value in self.headers or ():
                if name == b"content-length":
                    return value.strip().isdigit() and int(value) <= max_body
            return False

        def _leftover(self) -> bool:
            return self.conn.their_state is h11.SEND_BODY and self.conn.our_state is h11.DONE

        def _arm(self) -> None:
            if self._deadline is None and not self.transport.is_closing():
                self._deadline = self.loop.call_later(deadline_s, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            late = self.conn.their_state is h11.IDLE or self._leftover()
            if late and not self.transport.is_closing():
                self.transport.close()

        def _release(self) -> None:
            self._disarm()
            if self._peer:
                left = held.get(self._peer, 1) - 1
                if left > 0:
                    held[self._peer] = left
                else:
                    held.pop(self._peer, None)
                http_open[0] -= 1
                self._peer = ""

    return GuardedProtocol


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn.Config keywords every server of ours runs with (``python -m server`` and
    the tests' live server alike)."""
    return {
        "http": guarded_protocol(settings),
        "ws": DirectProtocol,  # uvicorn's sans-I/O protocol with the session's direct lane
        "ws_max_size": 65536,
        # frames are a few hundred bytes: compressing them costs more CPU than it saves
        "ws_per_message_deflate": False,
        "ws_ping_interval": settings.ws_ping_s,
        "ws_ping_timeout": settings.ws_ping_s,
        "timeout_keep_alive": settings.keep_alive_s,
        "h11_max_incomplete_event_size": 16 * 1024,
        # uvicorn would believe X-Forwarded-For from 127.0.0.1 and rewrite the client's
        # address: trusted_proxies decides that instead (off by default)
        "proxy_headers": False,
        "access_log": False,  # request lines are nobody's business; tokens never go in them
    }
