"""The app factory: HTTP routes, WebSocket endpoints and the lifespan that runs the games.

``create_app(settings, hub=None)`` takes its services, so tests inject a hub with an
in-memory storage or a fake engine; ``python -m server`` builds the real ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from engine.rules.config import PRESETS
from server import records
from server.mailbox import Closed
from server.messaging import Answer, SeatGrant, Snapshot, WireError, encode
from server.session.client import answer, serve_seat, serve_watcher
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.session.rooms import RoomError
from server.settings import Settings
from server.storage import Storage
from server.transport import StreamConnection, WebSocketConnection

MAX_BODY = 4096
T = TypeVar("T")


class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    name: str = ""
    preset: str = "tenhou-hanchan"
    bots: int = 3
    base_s: float | None = None
    bank_s: float | None = None
    public: bool = True
    seed: int | None = None


class JoinRoom(msgspec.Struct, forbid_unknown_fields=True):
    name: str = ""


class TokenBody(msgspec.Struct, forbid_unknown_fields=True):
    token: str


class PostAnswer(msgspec.Struct, forbid_unknown_fields=True):
    token: str
    inquiry: int
    action: int
    option: int = 0


def _json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status, media_type="application/json")


def _error(code: str, message: str, status: int = 400) -> Response:
    return _json(WireError(code, message), status)


async def _body(request: Request, kind: type[T]) -> T | Response:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return _error("too_large", f"body over {MAX_BODY} bytes", 413)
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        return _error("bad_request", str(exc))


def create_app(settings: Settings | None = None, hub: Hub | None = None) -> Starlette:
    settings = settings or Settings()
    if hub is None:
        hub = Hub(settings, Storage(settings.db_path), RealEngine())
    the_hub = hub

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tg:
            the_hub.bind(tg)
            yield
            tg.cancel_scope.cancel()

    async def healthz(request: Request) -> Response:
        return _json({"ok": True})

    async def presets(request: Request) -> Response:
        return _json({"presets": sorted(PRESETS)})

    async def list_rooms(request: Request) -> Response:
        return _json({"rooms": the_hub.rooms.public()})

    async def create_room(request: Request) -> Response:
        body = await _body(request, CreateRoom)
        if isinstance(body, Response):
            return body
        try:
            room = the_hub.create(
                preset=body.preset,
                bots=body.bots,
                base_s=settings.base_s if body.base_s is None else body.base_s,
                bank_s=settings.bank_s if body.bank_s is None else body.bank_s,
                public=body.public,
                seed=body.seed,
            )
            if room.full:
                the_hub.start(room)
                return _json(room.info())
            room, seat = the_hub.join(room.code, body.name)
        except RoomError as exc:
            return _error(exc.code, str(exc))
        assert seat.token is not None
        return _json(SeatGrant(room.info(), seat.index, seat.token))

    async def get_room(request: Request) -> Response:
        room = the_hub.rooms.by_code.get(request.path_params["code"].upper())
        if room is None:
            return _error("no_room", "no such room", 404)
        return _json(room.info())

    async def join_room(request: Request) -> Response:
        body = await _body(request, JoinRoom)
        if isinstance(body, Response):
            return body
        try:
            room, seat = the_hub.join(request.path_params["code"], body.name)
        except RoomError as exc:
            return _error(exc.code, str(exc), 409 if exc.code != "no_room" else 404)
        assert seat.token is not None
        return _json(SeatGrant(room.info(), seat.index, seat.token))

    async def start_room(request: Request) -> Response:
        body = await _body(request, TokenBody)
        if isinstance(body, Response):
            return body
        entry = the_hub.rooms.by_token.get(body.token)
        if entry is None or entry[0].code != request.path_params["code"].upper():
            return _error("bad_token", "not a seat of this room", 403)
        the_hub.start(entry[0])
        return _json(entry[0].info())

    async def game_state(request: Request) -> Response:
        game = request.path_params["game"]
        table = the_hub.tables.get(game)
        if table is None:
            return _error("no_game", "no running game", 404)
        entry = the_hub.rooms.by_token.get(request.query_params.get("token", ""))
        if entry is not None and entry[0].game == game:
            return _json(table.snapshot(entry[1].index))
        return _json(Snapshot(*table.spectators.view()))

    async def game_events(request: Request) -> Response:
        game = request.path_params["game"]
        token = request.query_params.get("token")
        entry = the_hub.rooms.by_token.get(token or "")
        conn = StreamConnection()
        if entry is not None and entry[0].game == game:
            the_hub.spawn(serve_seat, the_hub, conn, token or "")
        else:
            the_hub.spawn(serve_watcher, the_hub, conn, game, None)

        async def stream() -> AsyncIterator[str]:
            try:
                while True:
                    yield f"data: {await conn.frames.get()}\n\n"
            except Closed:
                return
            finally:
                await conn.close()

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def post_answer(request: Request) -> Response:
        body = await _body(request, PostAnswer)
        if isinstance(body, Response):
            return body
        entry = the_hub.rooms.by_token.get(body.token)
        if entry is None or entry[0].game != request.path_params["game"]:
            return _error("bad_token", "not a seat of this game", 403)
        msg = Answer(body.inquiry, body.action, body.option)
        error = answer(the_hub, entry[0].game, entry[1].index, msg)
        if error is not None:
            return _json(error, 409)
        return _json({"ok": True})

    async def game_record(request: Request) -> Response:
        fmt = request.query_params.get("format", "json")
        if fmt not in records.FORMATS:
            return _error("bad_format", f"format must be one of {records.FORMATS}")
        record = await anyio.to_thread.run_sync(the_hub.storage.load, request.path_params["game"])
        if record is None:
            return _error("no_game", "no such game", 404)
        if record.status == "playing":
            table = the_hub.tables.get(record.id)
            if fmt != "json" or table is None:
                return _error("playing", "this format is available when the game ends", 409)
            return _json(table.delayed(record))  # the spectator's view: delayed
        try:
            body, media = await anyio.to_thread.run_sync(records.export, record, fmt)
        except records.NotAvailable as exc:
            return _error("not_available", str(exc), 501)
        return Response(body, media_type=media)

    async def ws_play(ws: WebSocket) -> None:
        await ws.accept()
        await serve_seat(the_hub, WebSocketConnection(ws), ws.query_params.get("token", ""))

    async def ws_watch(ws: WebSocket) -> None:
        await ws.accept()
        token = ws.query_params.get("token") or ws.cookies.get("seat_token")
        await serve_watcher(the_hub, WebSocketConnection(ws), ws.path_params["game"], token)

    routes: list[BaseRoute] = [
        Route("/healthz", healthz),
        Route("/api/presets", presets),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", get_room),
        Route("/api/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{code}/start", start_room, methods=["POST"]),
        Route("/api/games/{game}/state", game_state),
        Route("/api/games/{game}/events", game_events),
        Route("/api/games/{game}/answer", post_answer, methods=["POST"]),
        Route("/api/games/{game}/record", game_record),
        WebSocketRoute("/ws/play", ws_play),
        WebSocketRoute("/ws/watch/{game}", ws_watch),
    ]
    static = Path(settings.static_dir) if settings.static_dir else _packaged_static()
    if static is not None and static.is_dir():
        routes.append(Mount("/", StaticFiles(directory=static, html=True), name="static"))
    return Starlette(routes=routes, lifespan=lifespan)


def _packaged_static() -> Path | None:
    candidate = Path(__file__).resolve().parent.parent / "static"
    return candidate if (candidate / "index.html").exists() else None


__all__ = ["create_app", "encode"]
