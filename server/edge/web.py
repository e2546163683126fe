"""HTTP plumbing shared by the API modules: JSON answers, errors as wire errors, bounded
request bodies decoded into structs (a bad body is an error value, never an exception)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, TypeVar

import anyio
import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from server.edge.messaging import WireError

MAX_BODY = 4096
T = TypeVar("T")
#: an integer in a query: ASCII digits only (``int`` also takes "１２", "1_0" and " 7 "),
#: at most 18 of them, so every value fits a 64-bit column before its bounds are checked
INTEGER = re.compile(r"-?[0-9]{1,18}")


def query_int(
    query: Mapping[str, str], name: str, default: int, low: int, high: int, clamp: bool = False
) -> int:
    """The integer ``query[name]`` (``default`` when absent) within ``low..high``: clamped
    into the range with ``clamp`` (page sizes), else out of range is a ValueError like a
    non-number, which every route answers 400 (a seat of 2^63 reached SQLite: a 500).

    >>> query_int({"limit": "500"}, "limit", 20, 1, 200, clamp=True)
    200
    >>> query_int({"seat": "9223372036854775808"}, "seat", 0, 0, 3)
    Traceback (most recent call last):
    ValueError: seat is a whole number 0..3
    """
    raw = query.get(name)
    if raw is None:
        return default
    if not INTEGER.fullmatch(raw):
        raise ValueError(f"{name} is a whole number {low}..{high}")
    value = int(raw)
    if clamp:
        return min(max(value, low), high)
    if not low <= value <= high:
        raise ValueError(f"{name} is a whole number {low}..{high}")
    return value


def query_number(query: Mapping[str, str], name: str) -> float | None:
    """The finite number ``query[name]``, None when absent; ValueError for anything else
    ("nan", "inf", "1e999")."""
    raw = query.get(name)
    if raw is None:
        return None
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError(f"{name} is a finite number")
    return value


def json_response(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status, media_type="application/json")


def error(code: str, message: str, status: int = 400) -> Response:
    return json_response(WireError(code, message), status)


def no_store(response: Response) -> Response:
    """``response`` with ``Cache-Control: no-store``: it carries a credential (a session,
    CSRF or seat token), which no cache on the way may keep."""
    response.headers["Cache-Control"] = "no-store"
    return response


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
