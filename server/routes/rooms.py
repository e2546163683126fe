"""The rooms API: presets, the public room list, creating, joining and starting rooms."""

from __future__ import annotations

import secrets

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from engine.rules.config import LABELS, PRESETS
from server.edge.limits import Guard
from server.edge.messaging import PresetInfo, RoomInfo, SeatGrant, WireError
from server.edge.names import clean_name
from server.edge.web import error, json_response, no_store, query_int, read_body
from server.session import bots
from server.session.hub import Hub
from server.session.peers import Peers
from server.session.rooms import Room, RoomError, token_hash
from server.settings import Settings

#: HTTP status of a refused join
JOIN_STATUS = {"no_room": 404, "locked": 403}
#: HTTP status of a room refused for want of capacity
CAPACITY_STATUS = {"busy": 503, "too_many_rooms": 429}


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
    #: the bot of each bot seat in seat order (names of GET /api/bots); the default bot
    #: plays the seats past the list's end and any seat filled when the owner starts early
    bot_names: list[str] = msgspec.field(default_factory=list)


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


#: rooms on one page of the lobby list, by default and at most
LOBBY_PAGE = 50
LOBBY_MAX = 200


class RoomsApi:
    def __init__(self, hub: Hub, settings: Settings, guard: Guard | None = None) -> None:
        self.hub = hub
        self.settings = settings
        self.guard = guard or Guard(settings)
        #: the public room list and when it was made: a lobby refresh storm costs one scan
        self._lobby: list[RoomInfo] = []
        self._lobby_at = -1e18

    def client(self, request: Request) -> str:
        return self.guard.client(request.client, request.headers)

    async def lobby(self) -> list[RoomInfo]:
        """The public rooms: this server's, or with a cluster every node's (from Redis)."""
        now = self.hub.now()
        if now - self._lobby_at >= self.settings.lobby_ttl_s:
            peers = self.hub.peers
            self._lobby = self.hub.rooms.public() if peers is None else await peers.lobby()
            self._lobby_at = now
        return self._lobby

    def info(self, room: Room) -> RoomInfo:
        """A room of this server as answers show it (with its node's URL in a cluster)."""
        return self.hub.info(room)

    def changed(self) -> None:
        """A room was made or joined: the lobby (and the cluster's directory) is stale."""
        self._lobby_at = -1e18
        if self.hub.peers is not None:
            self.hub.peers.touch()

    def _room_waiting(self, game: str) -> bool:
        room = self.hub.rooms.by_game.get(game)
        return room is not None and room.status == "waiting"

    def _room_open(self, game: str) -> bool:
        room = self.hub.rooms.by_game.get(game)
        return room is not None and room.status in ("waiting", "playing")

    async def healthz(self, request: Request) -> Response:
        """200 while the node serves; 503 with the reason while its store refuses writes
        (its games wait, suspended, and go on by themselves when it writes again)."""
        fault = self.hub.fault
        if fault is not None:
            return json_response({"ok": False, "reason": fault}, 503)
        return json_response({"ok": True})

    async def presets(self, request: Request) -> Response:
        """Each preset with what the lobby shows and what the table needs: its label, its
        seats (a sanma preset seats three) and its winds (1 tonpuusen, 2 hanchan)."""
        listed = [
            PresetInfo(name, LABELS.get(name, name), rules.players, rules.winds)
            for name, rules in PRESETS.items()
        ]
        return json_response({"presets": listed})

    def mjai_seats(self) -> bool:
        """External mjai seats are offered once the administrator set a bot token."""
        return bool(self.settings.mjai_token)

    async def bots(self, request: Request) -> Response:
        """The bots a room may seat here, each with a one-line description, and the default."""
        offered = bots.listing(self.mjai_seats(), self.settings.mjai_commands)
        return json_response({"bots": offered, "default": bots.DEFAULT})

    async def list_rooms(self, request: Request) -> Response:
        """``?limit=50&after=<code>``: a page of the (cached) public rooms; ``next`` is the
        ``after`` of the next page, null on the last."""
        q = request.query_params
        try:
            limit = query_int(q, "limit", LOBBY_PAGE, 1, LOBBY_MAX, clamp=True)
        except ValueError:
            return error("bad_query", "limit is a number")
        rooms = await self.lobby()
        start = 0
        after = q.get("after", "").upper()
        if after:
            start = next((i + 1 for i, r in enumerate(rooms) if r.code == after), len(rooms))
        page = rooms[start : start + limit]
        more = start + limit < len(rooms)
        return json_response({"rooms": page, "next": page[-1].code if more and page else None})

    async def create_room(self, request: Request) -> Response:
        client = self.client(request)
        refused = self.guard.check_rooms(client, self._room_open)
        refused = refused or await self.guard.check_rate(self.guard.creates, client, "new rooms")
        if refused is not None:
            return refused
        body = await read_body(request, CreateRoom)
        if isinstance(body, Response):
            return body
        try:
            stdio = self.settings.mjai_commands
            names = [bots.check(name, self.mjai_seats(), stdio) for name in body.bot_names]
        except bots.UnknownBot as exc:
            return error("bad_bot", str(exc))
        players = PRESETS[body.preset].players if body.preset in PRESETS else 0
        held = self.guard.waiting_rooms(client, self._room_waiting)
        try:  # a room the creator fills with bots starts at once and waits for nobody
            self.hub.check_capacity(body.bots + 1 < players, held)
        except RoomError as exc:
            status = CAPACITY_STATUS.get(exc.code, 400)
            response = error(exc.code, str(exc), status)
            response.headers["Retry-After"] = "60"
            return response
        self.changed()
        try:
            room = self.hub.create(
                preset=body.preset,
                bots=body.bots,
                base_s=self.settings.base_s if body.base_s is None else body.base_s,
                bank_s=self.settings.bank_s if body.bank_s is None else body.bank_s,
                public=body.public,
                seed=body.seed,
                broadcast=body.broadcast,
                bot_names=names,
            )
            self.guard.add_room(client, room.game)
            if room.full:
                self.hub.start(room)
                return json_response(self.info(room))
            room, seat = self.hub.join(room.code, clean_name(body.name))
        except RoomError as exc:
            return error(exc.code, str(exc))
        assert seat.token is not None
        return no_store(json_response(SeatGrant(self.info(room), seat.index, seat.token)))

    async def get_room(self, request: Request) -> Response:
        refused = await self.guard.check_rate(self.guard.lookups, self.client(request), "lookups")
        if refused is not None:
            return refused
        code = request.path_params["code"].upper()
        room = self.hub.rooms.by_code.get(code)
        if room is not None:
            return json_response(self.info(room))
        found = None if self.hub.peers is None else await self.hub.peers.find_room(code)
        if found is None:
            return error("no_room", "no such room", 404)
        return json_response(found)

    async def join_room(self, request: Request) -> Response:
        refused = await self.guard.check_rate(self.guard.joins, self.client(request), "joins")
        if refused is not None:
            return refused
        body = await read_body(request, JoinRoom)
        if isinstance(body, Response):
            return body
        self.changed()
        try:
            grant = await self._join(request.path_params["code"], clean_name(body.name), body)
        except RoomError as exc:
            return error(exc.code, str(exc), JOIN_STATUS.get(exc.code, 409))
        return no_store(json_response(grant))

    async def _join(self, code: str, name: str, body: JoinRoom) -> SeatGrant:
        """A seat here, or (cluster) reserved on the node that runs the room: the grant's
        ``room.node`` tells the client where to play."""
        peers = self.hub.peers
        if peers is not None and code.strip().upper() not in self.hub.rooms.by_code:
            return await self._join_elsewhere(peers, code, name, body)
        room, seat = self.hub.join(code, name, body.invite)
        assert seat.token is not None
        return SeatGrant(self.info(room), seat.index, seat.token)

    @staticmethod
    async def _join_elsewhere(peers: Peers, code: str, name: str, body: JoinRoom) -> SeatGrant:
        """Reserve a seat in a room of another node (raises RoomError): this node makes the
        token and hands it to the client; the room's node gets only its hash."""
        token = secrets.token_urlsafe(32)
        found = await peers.join(code, name, body.invite, token_hash(token))
        if isinstance(found, WireError):
            raise RoomError(found.code, found.message)
        room, seat = found
        return SeatGrant(room, seat, token)

    async def _owned(self, request: Request, token: str) -> Room | Response:
        """The room of ``code`` if ``token`` is its owner's, else the error to send (421
        with the node's URL for a room another node of the cluster runs)."""
        code = request.path_params["code"].upper()
        room = self.hub.rooms.by_code.get(code)
        peers = self.hub.peers
        if room is None and peers is not None:
            found = await peers.find_room(code)
            if found is not None:
                return error("elsewhere", f"room {code} is run by {found.node}; ask there", 421)
        if room is None:
            return error("no_room", "no such room", 404)
        if not room.is_owner(token):
            return error("not_owner", "only the player who made the room may do this", 403)
        return room

    async def start_room(self, request: Request) -> Response:
        body = await read_body(request, TokenBody)
        if isinstance(body, Response):
            return body
        room = await self._owned(request, body.token)
        if isinstance(room, Response):
            return room
        self.hub.start(room)
        self.changed()
        return json_response(self.info(room))

    async def kick(self, request: Request) -> Response:
        body = await read_body(request, KickBody)
        if isinstance(body, Response):
            return body
        room = await self._owned(request, body.token)
        if isinstance(room, Response):
            return room
        if not 0 <= body.seat < len(room.seats):
            return error("bad_seat", f"seat must be 0..{len(room.seats) - 1}")
        try:
            self.hub.kick(room, body.seat)
        except RoomError as exc:
            return error(exc.code, str(exc), 409)
        self.changed()
        return json_response(self.info(room))

    async def lock(self, request: Request) -> Response:
        body = await read_body(request, LockBody)
        if isinstance(body, Response):
            return body
        room = await self._owned(request, body.token)
        if isinstance(room, Response):
            return room
        invite = room.lock(body.locked)
        self.hub.save(room)
        self.hub.broadcast_room(room)
        self.changed()
        return json_response({"room": self.info(room), "invite": invite})
