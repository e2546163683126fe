"""Resume on start and suspend on stop: the hub's rooms and tables across server restarts.

``restore`` runs when the hub starts: every waiting room comes back with its seats (token
hashes, so the same tokens work), and every unfinished game is replayed from its seed and
stored decisions into a table that catches up without sending or storing anything, then asks
its open inquiry again once the players are back. A game the current engine does not replay
exactly is marked aborted. A game that finished less than ``room_ttl_s`` ago comes back the
same way, played to its end, for what a running server would still give: the end and final
snapshot to a seat or spectator whose connection the restart cut before they came.

``restore_paced`` is the server's own start: the same, a game at a time with the loop yielded
after each, its record read and its log checked in a worker thread, and a rest after every
``BATCH`` games as long as the batch took (its tables' catch-up included). A restart then takes
at most about half of its core and of the shared store's time, so the nodes beside it (on
that core, or on the store's) keep their latency: before, 500 games came back in one go
(bench.cluster's kill -9, docs/perf-notes.md). The server listens once it is done, as before,
so no client ever sees a room of a game not yet back.

``suspend`` runs when the server stops: nothing is answered for anyone, unfinished games are
stored as suspended, and every client is told to reconnect (close code 1012).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio
import msgspec

from engine.actions.types import Decision
from engine.rules.config import RuleConfig
from engine.version import ENGINE_VERSION
from server.edge.close_codes import RESTART_REASON, CloseCode
from server.edge.codec import encode
from server.edge.messaging import WireError
from server.session.clock import SeatClock
from server.session.durable import Feed, verify
from server.session.rooms import Room
from server.storage import persist
from server.storage.sqlite import StorageFault, Store

if TYPE_CHECKING:
    from server.session.hub import Hub

log = logging.getLogger("server")

STORAGE_REASON = "the records cannot be written; the game waits, reconnect in a few seconds"
#: a table another process took over (a lease, server/storage/postgres.py) is dropped here
MOVED_REASON = "this table is now run by another server; reconnect"
#: games a paced restore brings back between two rests
BATCH = 8
#: a paced restore rests this many times as long as its last batch took (1: half the time)
REST = 1.0
#: the longest a paced restore waits for a batch's tables to catch up from their logs
CATCH_UP_S = 10.0


class Resumed(msgspec.Struct):
    """What one start restored: for the log line and the tests."""

    waiting: int = 0
    games: int = 0
    aborted: int = 0
    #: finished games kept for their late clients
    ended: int = 0


def restore(hub: Hub) -> Resumed:
    """Bring back every waiting room and unfinished game of ``hub.storage``, and the games
    that finished within the last ``room_ttl_s``, all at once (a hub bound directly)."""
    done = Resumed()
    for row in _rows(hub, done):
        room = _registered(hub, row, done)
        why = room if isinstance(room, str) or room is None else _guarded(_resume, hub, room, row)
        _settle(hub, row, room, why, done)
    return _said(done)


async def restore_paced(hub: Hub, batch: int = BATCH, rest: float = REST) -> Resumed:
    """``restore``, paced for the neighbours (the module's docstring): every game kept and
    none played differently, only later; a server that stops meanwhile stops here (the
    games not reached yet stay stored as they are, for the next start)."""
    done = Resumed()
    rows = _rows(hub, done)
    for first in range(0, len(rows), batch):
        began, tables = time.monotonic(), []
        for row in rows[first : first + batch]:
            if hub.stopping:
                return _said(done)
            room = _registered(hub, row, done)
            why = (
                room if isinstance(room, str) or room is None else await _resume_off(hub, room, row)
            )
            _settle(hub, row, room, why, done)
            if row.game in hub.tables:
                tables.append(hub.tables[row.game])
            await anyio.sleep(0)  # the tables already back play on
        with anyio.move_on_after(CATCH_UP_S):
            for table in tables:  # their catch-up runs in their own tasks: part of the batch
                while not (table.caught_up.is_set() or table.finished.is_set()):
                    await anyio.sleep(0.001)
        await anyio.sleep((time.monotonic() - began) * rest)
    return _said(done)


def _rows(hub: Hub, done: Resumed) -> list[persist.RoomRow]:
    """The rooms to bring back; unfinished games without a room are aborted first."""
    storage = hub.storage
    for game in persist.orphans(storage):
        storage.set_status(game, "aborted")
        done.aborted += 1
    return persist.to_restore(storage, time.time() - hub.settings.room_ttl_s)


def _registered(hub: Hub, row: persist.RoomRow, done: Resumed) -> Room | str | None:
    """The room as stored (None: a waiting room, nothing more to do), or why it no longer
    loads."""
    try:
        room = _room(hub, row)
    except Exception as exc:  # e.g. its preset is gone: one bad row must not stop the server
        return f"the room no longer loads: {exc!r}"
    if not row.started:
        done.waiting += 1
        return None
    return room


def _guarded(resume: Callable[[Hub, Room, persist.RoomRow], str | None], *args: Any) -> str | None:
    try:
        return resume(*args)
    except Exception as exc:
        return f"the game no longer starts: {exc!r}"


def _settle(
    hub: Hub, row: persist.RoomRow, room: Room | str | None, why: str | None, done: Resumed
) -> None:
    """Count a room brought back, or let it go (and abort its game) with why not."""
    if why is None:
        if room is not None:
            done.games += row.ended_at is None
            done.ended += row.ended_at is not None
        return
    if isinstance(room, Room):
        hub.rooms.forget(room)
    log.warning("room %s (game %s) cannot be restored: %s", row.code, row.game, why)
    if row.ended_at is not None:
        return  # its record stands as it is; only the room is not held again
    if row.started:
        hub.storage.set_status(row.game, "aborted")
        done.aborted += 1
    else:
        persist.drop_room(hub.storage, row.game)


def _said(done: Resumed) -> Resumed:
    if done != Resumed():
        log.info(
            "restored %d waiting rooms, %d games; %d aborted; %d finished kept",
            *msgspec.structs.astuple(done),
        )
    return done


def _room(hub: Hub, row: persist.RoomRow) -> Room:
    """The room as stored, indexed like a new one (code, game, token hashes)."""
    room = Room(
        row.code,
        row.game,
        row.preset,
        public=row.public,
        base_s=row.base_s,
        bank_s=row.bank_s,
        seed=row.seed,
    )
    room.salt = ""  # a room stored before v2 has none: its commitment was v1
    for name, value in row.options.items():
        setattr(room, name, value)
    room.created = hub.now()
    rooms = hub.rooms
    rooms.by_code[room.code] = room
    rooms.by_game[room.game] = room
    for stored in row.seats:
        seat = room.seats[stored.seat]
        seat.name = stored.name
        seat.bot_name = stored.bot_name
        seat.token_hash = stored.token_hash
        seat.clock = SeatClock(row.base_s, stored.bank)
        if seat.human:
            rooms.add_seat(room, seat)
    return room


class Checked(msgspec.Struct):
    """A stored game read and replayed exactly: what its table starts from."""

    rules: RuleConfig
    decisions: list[Decision]
    rounds: int


def _resume(hub: Hub, room: Room, row: persist.RoomRow) -> str | None:
    """Start the stored game's table from its log; why not, when it cannot be replayed."""
    _take(hub, row)
    return _start(hub, room, row, _checked(hub.storage, row))


async def _resume_off(hub: Hub, room: Room, row: persist.RoomRow) -> str | None:
    """``_resume`` with the record's reads and the log's replay in a worker thread."""
    try:
        _take(hub, row)
        checked = await anyio.to_thread.run_sync(_checked, hub.storage, row)
        return _start(hub, room, row, checked)
    except Exception as exc:
        return f"the game no longer starts: {exc!r}"


def _take(hub: Hub, row: persist.RoomRow) -> None:
    if row.ended_at is None:
        # this process runs the game from now on: a store shared with other processes
        # refuses their writes to it from here (PostgreSQL's leases), so the log read
        # next is whole, and nobody else adds to it
        hub.storage.take(row.game)


def _checked(storage: Store, row: persist.RoomRow) -> Checked | str:
    """The stored game, replayed and checked (``verify``); why not, when it cannot be."""
    record = storage.load(row.game)
    if record is None or record.seed is None:
        return "no game record"
    try:
        rules = msgspec.json.decode(record.rules, type=RuleConfig)
    except msgspec.DecodeError as exc:
        return f"the stored rules no longer load: {exc}"
    decisions = [Decision(d.inquiry, d.seat, d.action, d.option) for d in record.decisions]
    trails = storage.trails(row.game)
    why = verify(rules, record.seed, decisions, trails, whole=row.ended_at is not None)
    if why is not None:
        return why
    if record.engine != ENGINE_VERSION:
        log.info(
            "game %s (engine %s) replays exactly under engine %s",
            row.game,
            record.engine,
            ENGINE_VERSION,
        )
    return Checked(rules, decisions, len(record.rounds))


def _start(hub: Hub, room: Room, row: persist.RoomRow, checked: Checked | str) -> str | None:
    if isinstance(checked, str):
        return checked
    room.rules = checked.rules
    if row.ended_at is None and row.status != "playing":  # a kill -9 left it "playing"
        hub.storage.set_status(row.game, "playing")
    feed = Feed(checked.decisions, ended_at=row.ended_at, opened=hub.opened)
    hub.start(room, feed, checked.rounds)
    return None


async def go_on(hub: Hub, room: Room) -> str | None:
    """Play on a game its table froze when the store refused a write (the store writes
    again): replayed from its record as after a restart, checked off the event loop; why
    not, when it cannot be (then it is aborted)."""
    storage = hub.storage
    record = await anyio.to_thread.run_sync(storage.load, room.game)
    if record is None or record.seed is None:
        return "no game record"
    decisions = [Decision(d.inquiry, d.seat, d.action, d.option) for d in record.decisions]
    trails = await anyio.to_thread.run_sync(storage.trails, room.game)
    why = await anyio.to_thread.run_sync(verify, room.rules, record.seed, decisions, trails)
    if why is not None:
        storage.set_status(room.game, "aborted")
        room.status = "aborted"
        return why
    storage.set_status(room.game, "playing")
    hub.start(room, Feed(decisions), len(record.rounds))
    return None


def suspend(hub: Hub) -> None:
    """Stop every table where it waits, store its game as suspended, tell every client."""
    hub.stopping = True
    bye = encode(WireError("restarting", RESTART_REASON))
    for table in list(hub.tables.values()):
        if table.finished.is_set():
            continue
        table.suspend()
        table.room.status = "suspended"
        try:
            hub.storage.set_status(table.room.game, "suspended")
        except StorageFault as exc:  # e.g. its lease is another process's now: not ours
            log.warning("game %s is not stored as suspended: %s", table.room.game, exc)
        table.spectators.restarting(bye, CloseCode.RESTARTING, RESTART_REASON)
    for room in list(hub.rooms.by_code.values()):
        for seat in room.seats:
            if seat.outbox is not None:
                seat.outbox.push(bye)
                seat.outbox.shut(CloseCode.RESTARTING, RESTART_REASON)


def clients(hub: Hub) -> int:
    """Connections still open (seats and spectators): the stop waits for them to close."""
    seats = sum(
        1
        for room in hub.rooms.by_code.values()
        for seat in room.seats
        if seat.outbox is not None and not seat.outbox.done
    )
    watchers = sum(
        1 for table in hub.tables.values() for w in table.spectators.watchers if not w.done
    )
    return seats + watchers
