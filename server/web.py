"""HTTP plumbing shared by the API modules: JSON answers, errors as wire errors, bounded
request bodies decoded into structs (a bad body is an error value, never an exception)."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.messaging import WireError

MAX_BODY = 4096
T = TypeVar("T")


def json_response(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status, media_type="application/json")


def error(code: str, message: str, status: int = 400) -> Response:
    return json_response(WireError(code, message), status)


def bearer(request: Request) -> str:
    """The seat token of ``Authorization: Bearer <token>`` ('' when absent): tokens never
    travel in URLs, where logs and Referer headers would keep them."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def read_body(request: Request, kind: type[T]) -> T | Response:
    """The body as ``kind``, or the error response to send back."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error("too_large", f"body over {MAX_BODY} bytes", 413)
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        return error("bad_request", str(exc))
