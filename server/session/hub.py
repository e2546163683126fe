"""The hub: every room and table of one server, and the task group their games run in."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import anyio
import msgspec
from anyio.abc import TaskGroup

from server.edge.close_codes import CloseCode
from server.edge.messaging import RoomInfo, RoomMsg, Welcome, WireError, encode
from server.session import resume
from server.session.durable import Feed
from server.session.engine_port import EnginePort
from server.session.outbox import Outbox
from server.session.peers import Peers
from server.session.rooms import Room, RoomError, Rooms, Seat
from server.session.table import Table
from server.settings import Settings
from server.storage import persist
from server.storage.sqlite import Store

log = logging.getLogger("server")


class Hub:
    def __init__(
        self,
        settings: Settings,
        storage: Store,
        engine: EnginePort,
        rooms: Rooms | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.engine = engine
        self.rooms = rooms or Rooms()
        self.now = now
        self.tables: dict[str, Table] = {}
        self._tg: TaskGroup | None = None
        #: rooms that finished, for tests and the load bench
        self.finished = 0
        #: the server is stopping: no new rooms or games (server/session/resume.py)
        self.stopping = False
        #: what the last ``bind`` restored from storage
        self.resumed = resume.Resumed()
        #: the other nodes of a scale-out (server/session/peers.py), None for a server alone
        self.peers: Peers | None = None
        #: called with every new table (metrics, stdio mjai seats)
        self.on_table: list[Callable[[Table], None]] = []
        persist.open_tables(storage)

    def bind(self, tg: TaskGroup) -> None:
        """Games run in ``tg`` (the app's lifespan task group); the rooms and unfinished
        games stored by an earlier run of the server come back first."""
        self._tg = tg
        self.resumed = resume.restore(self)

    def stop(self) -> None:
        """Graceful stop: suspend every game and tell every client to reconnect."""
        resume.suspend(self)

    def save(self, room: Room) -> None:
        """Store a waiting room as it is now (seats, tokens' hashes, options): call it after
        every change to one (join, kick, lock, ...) so a restart brings it back the same."""
        persist.save_room(self.storage, room, started=room.status != "waiting")

    def _refuse_while_stopping(self) -> None:
        if self.stopping:
            raise RoomError("restarting", "the server is restarting; try again in a moment")

    def spawn(self, func: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        """Run a task beside the games (an SSE client's session)."""
        if self._tg is None:
            raise RuntimeError("the hub is not running")
        self._tg.start_soon(func, *args)

    def start(self, room: Room, feed: Feed | None = None, stored_rounds: int = 0) -> Table:
        """Fill empty seats with bots, draw the seats and start the game (idempotent); with
        ``feed``, the stored game of a restored room goes on in its stored seats
        (server/session/resume.py). Every game starts here, so every game is drawn."""
        table = self.tables.get(room.game)
        if table is not None:
            return table
        if self._tg is None:
            raise RuntimeError("the hub is not running")
        if feed is None:
            self._refuse_while_stopping()
        room.fill_with_bots()
        if feed is None:
            room.draw_seats()
            # drawn before the game's row exists: a crash in between restores it drawn
            persist.save_room(self.storage, room)
        table = Table(room, self.settings, self.storage, self.engine, self.now, feed, stored_rounds)
        if feed is None:
            persist.save_room(self.storage, room, started=True)
            persist.mark_started(self.storage, room.game)
        self.tables[room.game] = table
        room.status = "playing"
        for seat in room.seats:
            if seat.outbox is not None:
                table.attach(seat, seat.outbox)
        if self.peers is not None:
            table.spectators.relay = self.peers.relay(room.game, restored=feed is not None)
        for hook in self.on_table:
            hook(table)
        self._tg.start_soon(self._play, room, table)
        self._tg.start_soon(table.spectators.run)
        return table

    def create(self, **options: Any) -> Room:
        """A new room (``Rooms.create`` options); rooms left waiting too long are dropped
        first, and a server holding ``max_rooms`` refuses more (RoomError)."""
        self._refuse_while_stopping()
        now = self.now()
        for room in list(self.rooms.by_code.values()):
            if room.status == "waiting" and now - room.created > self.settings.room_ttl_s:
                self.rooms.forget(room)
                persist.drop_room(self.storage, room.game)
        if len(self.rooms.by_code) >= self.settings.max_rooms:
            raise RoomError("server_full", "this server has no room for another table")
        room = self.rooms.create(**options)
        room.created = now
        self.save(room)
        return room

    def info(self, room: Room) -> RoomInfo:
        """A room of this server as answers show it: with its node's URL in a cluster."""
        info = room.info()
        return info if self.peers is None else msgspec.structs.replace(info, node=self.peers.url)

    def listed(self) -> list[RoomInfo]:
        """Every room of this server, for the cluster's shared directory."""
        return [self.info(room) for room in self.rooms.by_code.values()]

    def reserve(
        self, code: str, name: str, invite: str | None, token_hash: str
    ) -> tuple[RoomInfo, int] | WireError:
        """Sit a player who joined through another node (that node holds the token): the
        room and the seat's index, or why not."""
        try:
            room, seat = self.join(code, name, invite, reserved=token_hash)
        except RoomError as exc:
            return WireError(exc.code, str(exc))
        return self.info(room), seat.index

    def greeting(self, game: str) -> tuple[list[str], int, bool] | None:
        """What a watcher on another node gets first of the running ``game``: the texts,
        the sequence number they reach, whether the game ended; None when it does not run."""
        table = self.tables.get(game)
        if table is None:
            return None
        spectators = table.spectators
        texts = spectators.greeting(self.info(table.room))
        return texts, spectators.view()[0], spectators.ended

    def start_if_full(self, room: Room) -> None:
        if room.full and room.status == "waiting":
            self.start(room)

    def join(
        self, code: str, name: str, invite: str | None = None, reserved: str | None = None
    ) -> tuple[Room, Seat]:
        """Sit a human at a room (raises RoomError); the game starts when the room is full.
        ``reserved``: the token hash of a seat reserved through another node."""
        self._refuse_while_stopping()
        room, seat = self.rooms.join(code, name, invite, reserved)
        self.save(room)
        self.broadcast_room(room)
        self.start_if_full(room)
        return room, seat

    def kick(self, room: Room, index: int) -> None:
        """The owner removes a player before the start (raises RoomError); their socket is
        closed with CloseCode.KICKED and their token no longer opens anything."""
        seat = self.rooms.kick(room, index)
        if seat.outbox is not None:
            seat.outbox.shut(CloseCode.KICKED)
            seat.outbox = None
        self.save(room)
        self.broadcast_room(room)

    def _linger_s(self, ended_at: float | None) -> float:
        """How long a finished room stays (late clients get its end): ``room_ttl_s`` from
        the end, which for a game held again after a restart was before the restart."""
        ttl = self.settings.room_ttl_s
        return ttl if ended_at is None else max(0.0, ttl - (time.time() - ended_at))

    async def _play(self, room: Room, table: Table) -> None:
        feed_ended_at = None if table.feed is None else table.feed.ended_at
        try:
            await table.run()
        except Exception:
            log.exception("game %s of room %s failed", room.game, room.code)
        if not table.finished.is_set():
            return  # suspended: the server stops, the room stays as it is
        self.finished += 1
        await anyio.sleep(self._linger_s(feed_ended_at))
        self.tables.pop(room.game, None)
        self.rooms.forget(room)

    def attach(self, room: Room, seat: Seat, outbox: Outbox) -> None:
        table = self.tables.get(room.game)
        if table is not None:
            table.attach(seat, outbox)
            return
        if seat.outbox is not None and seat.outbox is not outbox:
            seat.outbox.shut(CloseCode.REPLACED)
        seat.outbox = outbox
        outbox.push(encode(Welcome(seat.index, room.game, room.info())))
        self.broadcast_room(room)

    def detach(self, room: Room, seat: Seat, outbox: Outbox) -> None:
        table = self.tables.get(room.game)
        if table is not None:
            table.detach(seat, outbox)
        elif seat.outbox is outbox:
            seat.outbox = None
            self.broadcast_room(room)

    def broadcast_room(self, room: Room) -> None:
        text = encode(RoomMsg(room.info()))
        for seat in room.seats:
            if seat.outbox is not None:
                seat.outbox.push(text)
