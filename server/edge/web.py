"""HTTP plumbing shared by the API modules: JSON answers, errors as wire errors, bounded
request bodies decoded into structs (a bad body is an error value, never an exception)."""

from __future__ import annotations

from typing import Any, TypeVar

import anyio
import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from server.edge.messaging import WireError

MAX_BODY = 4096
T = TypeVar("T")


def json_response(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status, media_type="application/json")


def error(code: str, message: str, status: int = 400) -> Response:
    return json_response(WireError(code, message), status)


def closing(response: Response) -> Response:
    """``response`` with ``Connection: close``: uvicorn then drops the connection instead of
    reading (and discarding) the rest of an unwanted body."""
    response.headers["Connection"] = "close"
    return response


def bearer(request: Request) -> str:
    """The seat token of ``Authorization: Bearer <token>`` ('' when absent): tokens never
    travel in URLs, where logs and Referer headers would keep them."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def read_body(request: Request, kind: type[T]) -> T | Response:
    """The body as ``kind``, or the error response to send back (see ``read_bytes``)."""
    raw = await read_bytes(request)
    if isinstance(raw, Response):
        return raw
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        return error("bad_request", str(exc))


async def read_bytes(request: Request, limit: int | None = None) -> bytes | Response:
    """The body, or the error response to send back.

    The body is counted while it streams in: at ``limit`` bytes (default ``max_body``) the
    answer is 413 and the connection is closed, so a client that sends 100 MB makes the
    server hold 4 KiB; a body that trickles in slower than ``header_timeout_s`` gets 408."""
    settings = getattr(request.app.state, "settings", None)
    if limit is None:
        limit = settings.max_body if settings is not None else MAX_BODY
    deadline = settings.header_timeout_s if settings is not None else 10.0
    raw = bytearray()
    with anyio.move_on_after(deadline) as scope:
        try:
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > limit:
                    return closing(error("too_large", f"body over {limit} bytes", 413))
        except ClientDisconnect:
            return closing(error("gone", "the client went away"))
    if scope.cancelled_caught:
        return closing(error("too_slow", "the body took too long", 408))
    return bytes(raw)
