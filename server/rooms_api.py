"""The rooms API: presets, the public room list, creating, joining and starting rooms."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from engine.rules.config import PRESETS
from server.messaging import SeatGrant
from server.session.hub import Hub
from server.session.rooms import RoomError
from server.settings import Settings
from server.web import error, json_response, read_body


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


class RoomsApi:
    def __init__(self, hub: Hub, settings: Settings) -> None:
        self.hub = hub
        self.settings = settings

    async def healthz(self, request: Request) -> Response:
        return json_response({"ok": True})

    async def presets(self, request: Request) -> Response:
        return json_response({"presets": sorted(PRESETS)})

    async def list_rooms(self, request: Request) -> Response:
        return json_response({"rooms": self.hub.rooms.public()})

    async def create_room(self, request: Request) -> Response:
        body = await read_body(request, CreateRoom)
        if isinstance(body, Response):
            return body
        try:
            room = self.hub.create(
                preset=body.preset,
                bots=body.bots,
                base_s=self.settings.base_s if body.base_s is None else body.base_s,
                bank_s=self.settings.bank_s if body.bank_s is None else body.bank_s,
                public=body.public,
                seed=body.seed,
            )
            if room.full:
                self.hub.start(room)
                return json_response(room.info())
            room, seat = self.hub.join(room.code, body.name)
        except RoomError as exc:
            return error(exc.code, str(exc))
        assert seat.token is not None
        return json_response(SeatGrant(room.info(), seat.index, seat.token))

    async def get_room(self, request: Request) -> Response:
        room = self.hub.rooms.by_code.get(request.path_params["code"].upper())
        if room is None:
            return error("no_room", "no such room", 404)
        return json_response(room.info())

    async def join_room(self, request: Request) -> Response:
        body = await read_body(request, JoinRoom)
        if isinstance(body, Response):
            return body
        try:
            room, seat = self.hub.join(request.path_params["code"], body.name)
        except RoomError as exc:
            return error(exc.code, str(exc), 409 if exc.code != "no_room" else 404)
        assert seat.token is not None
        return json_response(SeatGrant(room.info(), seat.index, seat.token))

    async def start_room(self, request: Request) -> Response:
        body = await read_body(request, TokenBody)
        if isinstance(body, Response):
            return body
        entry = self.hub.rooms.seat_of(body.token)
        if entry is None or entry[0].code != request.path_params["code"].upper():
            return error("bad_token", "not a seat of this room", 403)
        self.hub.start(entry[0])
        return json_response(entry[0].info())
