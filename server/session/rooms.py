"""Rooms and seats: who sits where, with which token, and the public room list.

A room holds one game. Seats are taken by humans (each gets an unguessable token from
``secrets.token_urlsafe``) or bots; the game starts when every seat is taken, or earlier on
request with bots in the empty seats. Until the start a seat's index is its *place* (join
order: the creator's is 0, bots take the last); at the start ``Room.draw_seats`` moves every
place to the seat the room's committed seed draws (engine.rules.bagime). Join codes are
short and typed by people, so they avoid look-alike letters; the token, not the code, is what
grants a seat.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Literal

import msgspec

from engine.rules.bagime import bagime
from engine.rules.config import PRESETS, RuleConfig
from engine.rules.facts import rule_facts
from engine.rules.wall import SEED_BITS, SEED_MASK, seed_commitment
from server.edge.messaging import RoomInfo, RuleFacts
from server.session.bots import DEFAULT, external
from server.session.clock import SeatClock
from server.session.seat import Seat

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
        self.facts = msgspec.convert(rule_facts(self.rules), RuleFacts)
        self.public = public
        self.base_s = base_s
        self.bank_s = bank_s
        #: never served before the game ends: it makes every wall
        self.seed = seed
        #: the commitment's salt (v2), revealed with the seed; "" for a room stored by a
        #: server before v2 (its commitment is v1)
        self.salt = secrets.token_hex(16)
        #: the creator chose the seed (and so knows the walls): one human only, no joins
        self.practice = False
        self.status: Status = "waiting"
        #: when the room was made (server monotonic clock): idle waiting rooms expire
        self.created = 0.0
        self.seats = [Seat(i, SeatClock(base_s, bank_s)) for i in range(self.rules.players)]
        #: spectators get the (delayed) god view; fixed at creation, shown to every joiner
        self.broadcast = False
        #: the creator's seat index (None: an all-bot room nobody owns)
        self.owner: int | None = None
        #: a locked room is joined only with this key (the owner's invite link)
        self.invite: str | None = None
        #: the seat draw (engine.rules.bagime: ``draw[place]`` = seat), None until the start
        #: (and in a game stored before seats were drawn)
        self.draw: list[int] | None = None
        #: a ranked table (server/ladder/queue.py): a seat whose player is absent keeps the
        #: real clock, base plus bank, as a present one does (docs/ranking.md)
        self.ranked = False
        #: the places are the seats (a tournament's balanced seating fixed the winds): no draw
        self.fixed_seats = False
        #: a table of a duplicate tournament round: other tables play the same walls, so
        #: its seed and every concealed tile stay secret until the round is over
        #: (server/storage/tournaments.py ``round_running``), and spectators never get the
        #: god view, not even of a hand that is over
        self.sealed = False
        #: the table may advise its one human (``advises``); a ranked or tournament table
        #: sets False when it makes the room, before anyone sits (kept with the room's row)
        self.advice = True

    @property
    def commitment(self) -> str:
        """Published from creation, so every seat has it before the first deal."""
        return seed_commitment(self.seed, self.salt)

    @property
    def full(self) -> bool:
        return all(s.taken for s in self.seats)

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.human]

    def advises(self, index: int) -> bool:
        """Advice for seat ``index`` (docs/security.md): only a human's seat where every
        other seat is a built-in bot, at a table that allows it (``advice``: not ranked, not
        a tournament's). An external AI's seat is a connection the server cannot vouch
        for (a person could relay it), so it counts as a human."""
        if not self.advice or not 0 <= index < len(self.seats) or not self.seats[index].human:
            return False
        others = [s for s in self.seats if s.index != index]
        return all(s.bot and not external(s.bot_name) for s in others)

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
            practice=self.practice,
            commitment=self.commitment,
            broadcast=self.broadcast,
            owner=self.owner,
            locked=self.invite is not None,
            rules=self.facts,
            draw=self.draw,
            advice=any(self.advises(s.index) for s in self.seats),
        )

    def sit(self, name: str, reserved: str | None = None) -> Seat:
        """Give the first free seat to a human. ``reserved``: the hash of a token another
        node made and handed out (server/cluster): this node never sees that token."""
        for seat in self.seats:
            if not seat.taken:
                seat.name = name[:32] or f"Player {seat.index + 1}"
                seat.token = None if reserved else secrets.token_urlsafe(32)
                seat.token_hash = reserved or token_hash(seat.token or "")
                return seat
        raise RoomError("room_full", f"room {self.code} has no free seat")

    def is_owner(self, token: str) -> bool:
        owner = None if self.owner is None else self.seats[self.owner].token_hash
        return owner is not None and secrets.compare_digest(owner, token_hash(token))

    def lock(self, locked: bool) -> str | None:
        """Lock (a fresh invite key) or open the room; the key to share, if locked."""
        self.invite = secrets.token_urlsafe(12) if locked else None
        return self.invite

    def unseat(self, index: int) -> str:
        """Free a human's seat before the start; the removed token's hash (now worthless)."""
        seat = self.seats[index]
        if seat.token_hash is None or index == self.owner:
            raise RoomError("bad_seat", f"seat {index} holds no player the owner can remove")
        removed = seat.token_hash
        seat.token = seat.token_hash = None
        seat.name = ""
        return removed

    def draw_seats(self) -> None:
        """Bagime: every place (join order) moves to the seat the seed draws for it, humans
        and bots alike, with its token, connection, clock and bot; once per game. Every
        game's start calls it (the hub's ``start``), whoever fills the seats."""
        if self.draw is not None or self.fixed_seats:
            return
        draw = list(bagime(self.seed, len(self.seats)))
        drawn = list(self.seats)
        for place, seat in enumerate(self.seats):
            seat.index = draw[place]
            drawn[seat.index] = seat
        self.seats = drawn
        if self.owner is not None:
            self.owner = draw[self.owner]
        self.draw = draw

    def fill_with_bots(self) -> None:
        for seat in self.seats:
            if not seat.taken:
                seat.seat_bot(DEFAULT)


class Rooms:
    """Every room of this server, indexed by join code, game id and seat token hash."""

    def __init__(self, new_seed: Callable[[], int] | None = None) -> None:
        self.by_code: dict[str, Room] = {}
        self.by_game: dict[str, Room] = {}
        self.by_token: dict[str, tuple[Room, Seat]] = {}
        #: the server's own seed source: a secret draw per room (tests may pin it; a client
        #: never reaches it, a client's seed makes a practice room)
        self.new_seed = new_seed or (lambda: secrets.randbits(SEED_BITS))

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
        broadcast: bool = False,
        bot_names: Sequence[str] = (),
        advice: bool = True,
    ) -> Room:
        """A new room; ``bot_names[i]`` plays its i-th bot seat (the default bot past the
        list's end). The names are checked by the caller (server/session/bots.py knows them).
        ``advice=False``: a table that never advises (ranked, a tournament's: Room.advises)."""
        if preset not in PRESETS:
            raise RoomError("bad_preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
        players = PRESETS[preset].players
        if not 0 <= bots <= players:
            raise RoomError("bad_bots", f"bots must be 0..{players}")
        if not (0 <= base_s <= 300 and 0 <= bank_s <= 3600):
            raise RoomError("bad_clock", "base_s must be 0..300 and bank_s 0..3600")
        if len(bot_names) > bots:
            raise RoomError("bad_bots", f"{len(bot_names)} bot names for {bots} bot seats")
        if seed is not None and bots != players - 1:
            raise RoomError(
                "seed_not_allowed",
                f"a chosen seed makes every wall known to its chooser: it is only for a "
                f"practice room with one human and {players - 1} bots",
            )
        room = Room(
            self._code(),
            secrets.token_urlsafe(9),
            preset,
            public=public,
            base_s=base_s,
            bank_s=bank_s,
            seed=self.new_seed() if seed is None else seed & SEED_MASK,
        )
        room.practice = seed is not None
        room.broadcast = broadcast
        room.advice = advice
        names = [*bot_names, *[DEFAULT] * (bots - len(bot_names))]
        for seat, name in zip(room.seats[players - bots :], names, strict=True):
            seat.seat_bot(name)
        self.by_code[room.code] = room
        self.by_game[room.game] = room
        return room

    def join(
        self, code: str, name: str, invite: str | None = None, reserved: str | None = None
    ) -> tuple[Room, Seat]:
        room = self.by_code.get(code.strip().upper())
        if room is None:
            raise RoomError("no_room", f"no room with code {code!r}")
        if room.practice and room.humans:
            raise RoomError("practice_room", f"room {room.code} is a practice room for one")
        if room.status != "waiting":
            raise RoomError("started", f"room {room.code} has already started")
        key = (invite or "").encode()  # bytes: compare_digest refuses non-ASCII str
        if room.invite is not None and not secrets.compare_digest(room.invite.encode(), key):
            raise RoomError("locked", f"room {room.code} is open to invited players only")
        seat = room.sit(name, reserved)
        if room.owner is None:
            room.owner = seat.index
        self.add_seat(room, seat)
        return room, seat

    def unjoin(self, room: Room, seat: Seat) -> None:
        """Take back a seat just given (it could not be stored): free, as before the join."""
        if seat.token_hash is not None:
            self.by_token.pop(seat.token_hash, None)
        seat.token = seat.token_hash = None
        seat.name = ""
        if room.owner == seat.index:
            room.owner = None

    def add_seat(self, room: Room, seat: Seat) -> None:
        """Index a human seat by its token hash (a new one, or one restored from storage)."""
        assert seat.token_hash is not None
        self.by_token[seat.token_hash] = (room, seat)

    def seat_of(self, token: str) -> tuple[Room, Seat] | None:
        """The room and seat ``token`` grants, or None."""
        return self.by_token.get(token_hash(token)) if token else None

    def kick(self, room: Room, index: int) -> Seat:
        """The owner removes a seated player before the start; their token stops working."""
        if room.status != "waiting":
            raise RoomError("started", f"room {room.code} has already started")
        self.by_token.pop(room.unseat(index), None)
        return room.seats[index]

    def forget(self, room: Room) -> None:
        """Drop a finished room from memory (its record stays in storage)."""
        self.by_code.pop(room.code, None)
        self.by_game.pop(room.game, None)
        for seat in room.seats:
            if seat.token_hash is not None:
                self.by_token.pop(seat.token_hash, None)

    def public(self) -> list[RoomInfo]:
        return [r.info() for r in self.by_code.values() if r.public and r.status != "finished"]
