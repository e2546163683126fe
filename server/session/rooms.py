"""Rooms and seats: who sits where, with which token, and the public room list.

A room holds one game. Seats are taken by humans (each gets an unguessable token from
``secrets.token_urlsafe``) or bots; the game starts when every seat is taken, or earlier on
request with bots in the empty seats. Join codes are short and typed by people, so they
avoid look-alike letters; the token, not the code, is what grants a seat.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Literal

from engine.rules.config import PRESETS, RuleConfig
from server.messaging import RoomInfo, SeatInfo
from server.session.clock import SeatClock
from server.session.outbox import Outbox

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
Status = Literal["waiting", "playing", "suspended", "finished", "aborted"]


def token_hash(token: str) -> str:
    """What the server keeps of a seat token (in memory and on disk): its sha256."""
    return hashlib.sha256(token.encode()).hexdigest()


class RoomError(ValueError):
    """A refused room request; the message is shown to the user."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Seat:
    """One chair: a human (token, maybe a live connection) or a bot."""

    __slots__ = ("bot", "clock", "index", "name", "outbox", "token", "token_hash")

    def __init__(self, index: int, clock: SeatClock) -> None:
        self.index = index
        self.name = ""
        self.bot = False
        #: the token, only until it is handed out (a restored seat knows just the hash)
        self.token: str | None = None
        self.token_hash: str | None = None
        self.outbox: Outbox | None = None
        self.clock = clock

    @property
    def human(self) -> bool:
        return self.token_hash is not None

    @property
    def taken(self) -> bool:
        return self.bot or self.human

    @property
    def connected(self) -> bool:
        return self.outbox is not None and not self.outbox.closed

    def info(self) -> SeatInfo:
        return SeatInfo(self.index, self.name, self.bot, self.bot or self.connected)

    def push(self, text: str) -> None:
        """Send without waiting; an outbox that cannot keep up is let go (it shut itself)."""
        if self.outbox is not None and not self.outbox.push(text):
            self.outbox = None


class Room:
    def __init__(
        self,
        code: str,
        game: str,
        preset: str,
        *,
        public: bool,
        base_s: float,
        bank_s: float,
        seed: int,
    ) -> None:
        self.code = code
        self.game = game
        self.preset = preset
        self.rules: RuleConfig = PRESETS[preset]
        self.public = public
        self.base_s = base_s
        self.bank_s = bank_s
        self.seed = seed
        #: the creator chose the seed (and so knows the walls); shown to everyone who joins
        self.seeded = False
        self.status: Status = "waiting"
        #: when the room was made (server monotonic clock): idle waiting rooms expire
        self.created = 0.0
        self.seats = [Seat(i, SeatClock(base_s, bank_s)) for i in range(self.rules.players)]

    @property
    def full(self) -> bool:
        return all(s.taken for s in self.seats)

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.human]

    def info(self) -> RoomInfo:
        return RoomInfo(
            code=self.code,
            game=self.game,
            preset=self.preset,
            public=self.public,
            base_s=self.base_s,
            bank_s=self.bank_s,
            seats=[s.info() for s in self.seats],
            status=self.status,
            seeded=self.seeded,
        )

    def sit(self, name: str) -> Seat:
        """Give the first free seat to a human."""
        for seat in self.seats:
            if not seat.taken:
                seat.name = name[:32] or f"Player {seat.index + 1}"
                seat.token = secrets.token_urlsafe(32)
                seat.token_hash = token_hash(seat.token)
                return seat
        raise RoomError("room_full", f"room {self.code} has no free seat")

    def fill_with_bots(self) -> None:
        for seat in self.seats:
            if not seat.taken:
                seat.bot = True
                seat.name = f"Bot {seat.index + 1}"


class Rooms:
    """Every room of this server, indexed by join code, game id and seat token hash."""

    def __init__(self, new_seed: Callable[[], int] | None = None) -> None:
        self.by_code: dict[str, Room] = {}
        self.by_game: dict[str, Room] = {}
        self.by_token: dict[str, tuple[Room, Seat]] = {}
        self._new_seed = new_seed or (lambda: secrets.randbits(63))

    def _code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.by_code:
                return code

    def create(
        self,
        *,
        preset: str,
        bots: int,
        base_s: float,
        bank_s: float,
        public: bool = True,
        seed: int | None = None,
    ) -> Room:
        if preset not in PRESETS:
            raise RoomError("bad_preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
        players = PRESETS[preset].players
        if not 0 <= bots <= players:
            raise RoomError("bad_bots", f"bots must be 0..{players}")
        if not (0 <= base_s <= 300 and 0 <= bank_s <= 3600):
            raise RoomError("bad_clock", "base_s must be 0..300 and bank_s 0..3600")
        room = Room(
            self._code(),
            secrets.token_urlsafe(9),
            preset,
            public=public,
            base_s=base_s,
            bank_s=bank_s,
            seed=self._new_seed() if seed is None else seed & (2**63 - 1),
        )
        room.seeded = seed is not None
        for seat in room.seats[players - bots :]:
            seat.bot = True
            seat.name = f"Bot {seat.index + 1}"
        self.by_code[room.code] = room
        self.by_game[room.game] = room
        return room

    def join(self, code: str, name: str) -> tuple[Room, Seat]:
        room = self.by_code.get(code.strip().upper())
        if room is None:
            raise RoomError("no_room", f"no room with code {code!r}")
        if room.status != "waiting":
            raise RoomError("started", f"room {room.code} has already started")
        seat = room.sit(name)
        self.add_seat(room, seat)
        return room, seat

    def add_seat(self, room: Room, seat: Seat) -> None:
        """Index a human seat by its token hash (a new one, or one restored from storage)."""
        assert seat.token_hash is not None
        self.by_token[seat.token_hash] = (room, seat)

    def seat_of(self, token: str) -> tuple[Room, Seat] | None:
        """The room and seat ``token`` grants, or None."""
        return self.by_token.get(token_hash(token)) if token else None

    def forget(self, room: Room) -> None:
        """Drop a finished room from memory (its record stays in storage)."""
        self.by_code.pop(room.code, None)
        self.by_game.pop(room.game, None)
        for seat in room.seats:
            if seat.token_hash is not None:
                self.by_token.pop(seat.token_hash, None)

    def public(self) -> list[RoomInfo]:
        return [r.info() for r in self.by_code.values() if r.public and r.status != "finished"]
