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
from server.edge.codec import encode
from server.edge.lean import LeanEvent
from server.edge.messaging import RoomInfo, RoomMsg, Welcome, WireError
from server.session import resume
from server.session.durable import Feed
from server.session.engine_port import EnginePort
from server.session.outbox import Outbox
from server.session.peers import Peers
from server.session.rooms import Room, RoomError, Rooms
from server.session.seat import Seat
from server.session.table import Table
from server.settings import Settings
from server.storage import persist
from server.storage.sqlite import LeaseLost, StorageFault, Store

log = logging.getLogger("server")
#: how often a store that refused a write is tried again
PROBE_S = 0.5


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
        #: the stored games are back and the server takes players: a restored game's held
        #: inquiry and start grace begin only then (a paced restore may outlast the grace)
        self.opened = LeanEvent()
        #: the other nodes of a scale-out (server/session/peers.py), None for a server alone
        self.peers: Peers | None = None
        #: called with every new table (metrics, stdio mjai seats)
        self.on_table: list[Callable[[Table], None]] = []
        #: called once with each table whose game ended (not one suspended by a stop): what
        #: waits for a game's end hooks here, not in a task per table that waits all game
        #: (~3 KiB of task, scopes and coroutine per table: docs/perf-notes.md, issue 45)
        self.on_end: list[Callable[[Table], None]] = []
        #: why the store refuses writes (None: it writes); the rooms whose tables it froze
        self.fault: str | None = None
        self.faulted: dict[str, Room] = {}
        #: set at a fault (from any callback, task or not): the watch tries the store
        self._fault_seen: anyio.Event | None = None

    def bind(self, tg: TaskGroup, restore: bool = True) -> None:
        """Games run in ``tg`` (the app's lifespan task group); the rooms and unfinished
        games stored by an earlier run of the server come back first, all at once (without
        ``restore``, the caller awaits ``restore_paced``: the server's own start)."""
        self._tg = tg
        self._fault_seen = anyio.Event()
        tg.start_soon(self._watch_storage)
        if restore:
            self.resumed = resume.restore(self)
            self.opened.set()

    async def restore_paced(self, batch: int = resume.BATCH, rest: float = resume.REST) -> None:
        """The stored rooms and games back in batches that leave the core and the store to
        the nodes beside this one (server/session/resume.py), before the server listens."""
        try:
            self.resumed = await resume.restore_paced(self, batch, rest)
        finally:
            self.opened.set()

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
        table.on_fault = self.storage_failed
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
        if table.spectators.delay:  # else every item goes out at once: a task only waits
            self._tg.start_soon(table.spectators.run)
        return table

    def forfeit(self, game: str, index: int, why: str) -> bool:
        """The player of seat ``index`` lost it mid-game (``why``: "banned", "deleted"): its
        token grants nothing more, its socket closes, and the seat plays the default at once
        from now on. False when this hub holds no such game."""
        room = self.rooms.by_game.get(game)
        if room is None or not 0 <= index < len(room.seats):
            return False
        seat = room.seats[index]
        if seat.forfeit is not None:
            return True
        seat.forfeit = why
        if seat.token_hash is not None:
            self.rooms.by_token.pop(seat.token_hash, None)
        if seat.outbox is not None:
            seat.outbox.shut(CloseCode.BAD_TOKEN, f"this seat's account was {why}")
            seat.outbox = None
        table = self.tables.get(game)
        if table is not None:
            table.answers.forfeited(index)
        return True

    def create(self, **options: Any) -> Room:
        """A new room (``Rooms.create`` options); rooms left waiting too long are dropped
        first, and a server holding ``max_rooms`` refuses more (RoomError)."""
        self._refuse_while_stopping()
        if self.fault is not None:
            raise StorageFault(self.fault)
        now = self.sweep()
        if len(self.rooms.by_code) >= self.settings.max_rooms:
            raise RoomError("server_full", "this server has no room for another table")
        room = self.rooms.create(**options)
        room.created = now
        try:
            self.save(room)
        except StorageFault:  # not stored, so not made: nobody holds a room that is not kept
            self.rooms.forget(room)
            raise
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

    def storage_failed(self, exc: StorageFault, table: Table | None = None) -> None:
        """The store refused a write: ``table`` (if one needed it) is suspended, /healthz
        says why, new rooms are refused, and the store is tried until it writes again. A
        write refused because another process took the game over (LeaseLost) drops that
        table alone: the store is fine, the game is the other process's now."""
        if isinstance(exc, LeaseLost):
            if table is not None:
                self._drop(table, str(exc))
            return
        if self.fault is None:
            log.warning("storage: %s; tables that write wait until it writes again", exc)
            self.fault = str(exc)
            if self._fault_seen is not None:
                self._fault_seen.set()
        if table is not None:
            self._freeze(table)

    def _drop(self, table: Table, why: str) -> None:
        """Let go of a table another process runs now: it stops where it waits, nothing
        more of it is written here, its clients reconnect (to the node that has it)."""
        log.warning(
            "game %s of room %s: %s; its table is dropped here",
            table.room.game,
            table.room.code,
            why,
        )
        room = table.room
        table.suspend()
        table.spectators.stop()
        if self.tables.get(room.game) is table:
            del self.tables[room.game]
        self.rooms.forget(room)
        bye = encode(WireError("restarting", resume.MOVED_REASON))
        table.spectators.restarting(bye, CloseCode.RESTARTING, resume.MOVED_REASON)
        for seat in room.seats:
            if seat.outbox is not None:
                seat.outbox.push(bye)
                seat.outbox.shut(CloseCode.RESTARTING, resume.MOVED_REASON)

    def _freeze(self, table: Table) -> None:
        """Suspend one table as a stop does; its room waits in ``faulted``."""
        room = table.room
        table.suspend()
        table.spectators.stop()
        room.status = "suspended"
        if self.tables.get(room.game) is table:
            del self.tables[room.game]
        self.faulted[room.game] = room
        bye = encode(WireError("restarting", resume.STORAGE_REASON))
        table.spectators.restarting(bye, CloseCode.RESTARTING, resume.STORAGE_REASON)
        for seat in room.seats:
            if seat.outbox is not None:
                seat.outbox.push(bye)
                seat.outbox.shut(CloseCode.RESTARTING, resume.STORAGE_REASON)

    async def _watch_storage(self) -> None:
        """Until cancelled: after each fault, wait for the store (``_await_storage``)."""
        while True:
            assert self._fault_seen is not None
            await self._fault_seen.wait()
            self._fault_seen = anyio.Event()
            await self._await_storage()

    async def _await_storage(self) -> None:
        """Try a small write until one succeeds, then play the frozen games on from their
        records and start the full rooms whose start the store refused."""
        while True:
            await anyio.sleep(PROBE_S)
            try:
                persist.probe(self.storage, time.time())
                break
            except StorageFault:
                continue
        log.info("storage writes again; %d suspended games go on", len(self.faulted))
        self.fault = None
        try:
            for game, room in list(self.faulted.items()):
                why = await resume.go_on(self, room)
                del self.faulted[game]
                if why is not None:
                    log.warning("game %s cannot go on: %s", game, why)
            for room in list(self.rooms.by_code.values()):
                self.start_if_full(room)
        except StorageFault as exc:  # refused again: the next watch takes over
            self.storage_failed(exc)

    def sweep(self) -> float:
        """Drop the rooms left waiting too long: ``room_ttl_s``, or ``lonely_ttl_s`` for one
        whose creator still sits alone (a room nobody joins is cheap to make by the
        hundred). The clock's time now."""
        now = self.now()
        lonely, ttl = self.settings.lonely_ttl_s, self.settings.room_ttl_s
        for room in list(self.rooms.by_code.values()):
            if room.status != "waiting":
                continue
            age = now - room.created
            if age > ttl or (age > lonely and len(room.humans) <= 1):
                self.rooms.forget(room)
                persist.drop_room(self.storage, room.game)
        return now

    def check_capacity(self, waits: bool, held_waiting: int) -> None:
        """Raise RoomError when a new room may not be made: waiting rooms fill at most
        ``waiting_share`` of ``max_rooms`` (the rest is for rooms that start), and past
        ``crowded_share`` a creator who holds a waiting room is refused another, so many
        addresses cannot fill the server with rooms nobody plays."""
        if not waits:
            return
        self.sweep()
        settings = self.settings
        waiting = sum(1 for r in self.rooms.by_code.values() if r.status == "waiting")
        if waiting >= settings.max_rooms * settings.waiting_share:
            raise RoomError(
                "busy", "too many rooms wait for players; join one, or play with bots now"
            )
        if held_waiting and waiting >= settings.max_rooms * settings.crowded_share:
            raise RoomError("too_many_rooms", "your room still waits for players; fill it first")

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
        try:
            self.save(room)
        except StorageFault:  # the seat is not stored: its token is never handed out
            self.rooms.unjoin(room, seat)
            raise
        self.broadcast_room(room)
        self.start_if_full(room)
        return room, seat

    def substitute(self, game: str, name: str, bot_name: str) -> bool:
        """A built-in bot takes over the seat of ``name`` in a running game (an organiser's
        substitute for a player who did not show): its token opens nothing any more, its
        connection is closed, the bot plays from the seat's next deadline on, and the room
        is stored so a restart resumes it with the bot. False when no such human seat runs
        here."""
        table = self.tables.get(game)
        if table is None or table.finished.is_set():
            return False
        seat = next((s for s in table.room.seats if s.human and s.name == name), None)
        if seat is None:
            return False
        if seat.token_hash is not None:
            self.rooms.by_token.pop(seat.token_hash, None)
        seat.token = seat.token_hash = None
        if seat.outbox is not None:
            seat.outbox.shut(CloseCode.KICKED)
            seat.outbox = None
        seat.seat_bot(bot_name)
        seat.name = name
        self.save(table.room)
        table.answers.adopt(seat.index)
        table.broadcast_room()
        return True

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
        for hook in self.on_end:
            hook(table)
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
