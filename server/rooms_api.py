"""The rooms API: presets, the public room list, creating, joining and starting rooms."""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from engine.rules.config import PRESETS
from server.messaging import SeatGrant
from server.session.hub import Hub
from server.session.rooms import Room, RoomError
from server.settings import Settings
from server.web import error, json_response, read_body

#: HTTP status of a refused join
JOIN_STATUS = {"no_room": 404, "locked": 403}


class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    name: str = ""
    preset: str = "tenhou-hanchan"
    bots: int = 3
    base_s: float | None = None
    bank_s: float | None = None
    public: bool = True
    seed: int | None = None
    #: spectators see every hand (delayed): every joiner is told before sitting down
    broadcast: bool = False


class JoinRoom(msgspec.Struct, forbid_unknown_fields=True):
    name: str = ""
    #: the key of a locked room's invite link
    invite: str | None = None


class TokenBody(msgspec.Struct, forbid_unknown_fields=True):
    token: str


class KickBody(msgspec.Struct, forbid_unknown_fields=True):
    token: str
    seat: int


class LockBody(msgspec.Struct, forbid_unknown_fields=True):
    token: str
    locked: bool = True


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
                broadcast=body.broadcast,
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
            room, seat = self.hub.join(request.path_params["code"], body.name, body.invite)
        except RoomError as exc:
            return error(exc.code, str(exc), JOIN_STATUS.get(exc.code, 409))
        assert seat.token is not None
        return json_response(SeatGrant(room.info(), seat.index, seat.token))

    def _owned(self, request: Request, token: str) -> Room | Response:
        """The room of ``code`` if ``token`` is its owner's, else the error to send."""
        room = self.hub.rooms.by_code.get(request.path_params["code"].upper())
        if room is None:
            return error("no_room", "no such room", 404)
        if not room.is_owner(token):
            return error("not_owner", "only the player who made the room may do this", 403)
        return room

    async def start_room(self, request: Request) -> Response:
        body = await read_body(request, TokenBody)
        if isinstance(body, Response):
            return body
        room = self._owned(request, body.token)
        if isinstance(room, Response):
            return room
        self.hub.start(room)
        return json_response(room.info())

    async def kick(self, request: Request) -> Response:
        body = await read_body(request, KickBody)
        if isinstance(body, Response):
            return body
        room = self._owned(request, body.token)
        if isinstance(room, Response):
            return room
        if not 0 <= body.seat < len(room.seats):
            return error("bad_seat", f"seat must be 0..{len(room.seats) - 1}")
        try:
            self.hub.kick(room, body.seat)
        except RoomError as exc:
            return error(exc.code, str(exc), 409)
        return json_response(room.info())

    async def lock(self, request: Request) -> Response:
        body = await read_body(request, LockBody)
        if isinstance(body, Response):
            return body
        room = self._owned(request, body.token)
        if isinstance(room, Response):
            return room
        invite = room.lock(body.locked)
        self.hub.broadcast_room(room)
        return json_response({"room": room.info(), "invite": invite})
