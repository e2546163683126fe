"""Rooms and seats in SQLite, so a restarted server has every room, seat and clock bank.

The games table (server/storage/sqlite.py) holds what a game is (seed, rules, decisions); these two
tables hold who sits where: a room row per room (its options and whether it still waits),
a seat row per chair with the sha256 of the seat's token, never the token, and the seat's
clock bank as last charged. Rows are small and written when they change: at create, join,
start and after a decision that used bank time.

The SQL runs on SQLite and on PostgreSQL (server/storage/postgres.py) alike. A shared
PostgreSQL holds every node's rooms: each row names its ``node``, and a node restores only its own.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.version import ENGINE_VERSION
from server.storage.sqlite import Store, seed_columns, stored_seed

#: what a stored bot seat without a name was played by (rows from before bots had names)
OLD_BOT = "easy"

#: room attributes beyond the constructor's that are kept when present (owner, practice...)
OPTIONS = (
    "owner",
    "practice",
    "broadcast",
    "invite",
    "salt",
    "draw",
    "ranked",
    "fixed_seats",
    "sealed",
    "advice",
)


class SeatRow(msgspec.Struct, array_like=True):
    seat: int
    name: str
    #: the bot playing the seat (server/session/bots.py), None for a human or a free seat
    bot_name: str | None
    token_hash: str | None
    bank: float


class RoomRow(msgspec.Struct):
    game: str
    code: str
    preset: str
    public: bool
    base_s: float
    bank_s: float
    seed: int
    started: bool
    options: dict[str, Any]
    seats: list[SeatRow]
    #: the games table's status and engine version (None while waiting)
    status: str | None = None
    engine: str | None = None
    #: when its game finished (unix seconds), None for a room still waiting or playing
    ended_at: float | None = None


#: the ``probe`` table has one row, rewritten to learn whether the store writes again after
#: it refused a write; its size: a full disk may still take a page or two (frames a failed write had
#: already put in SQLite's WAL), which would call it writable again after every failure
PROBE_PAD = "x" * 65536


def probe(storage: Store, now: float) -> None:
    """A write of ``PROBE_PAD`` (StorageFault while the store still refuses)."""
    storage.execute(
        "INSERT INTO probe (id, at, pad) VALUES (1, ?, ?) "
        "ON CONFLICT (id) DO UPDATE SET at = excluded.at, pad = excluded.pad",
        (now, PROBE_PAD + str(now)),
    )


_UPSERT_ROOM = (
    "INSERT INTO rooms (game, code, preset, public, base_s, bank_s, seed, started, options,"
    " node, seed_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game) DO UPDATE"
    " SET code = excluded.code, preset = excluded.preset, public = excluded.public,"
    " base_s = excluded.base_s, bank_s = excluded.bank_s, seed = excluded.seed,"
    " started = excluded.started, options = excluded.options, node = excluded.node,"
    " seed_text = excluded.seed_text"
)
_UPSERT_SEAT = (
    "INSERT INTO seats (game, seat, name, bot, token_hash, bank, bot_name)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, seat) DO UPDATE SET name = excluded.name,"
    " bot = excluded.bot, token_hash = excluded.token_hash, bank = excluded.bank,"
    " bot_name = excluded.bot_name"
)


def save_room(storage: Store, room: Any, started: bool = False) -> None:
    """Write (or rewrite) a room and all its seats in one transaction."""
    options = {k: getattr(room, k) for k in OPTIONS if hasattr(room, k)}
    rows = [
        (room.game, s.index, s.name, int(s.bot), s.token_hash, s.clock.bank, s.bot_name)
        for s in room.seats
    ]
    values = (room.game, room.code, room.preset, int(room.public), room.base_s, room.bank_s)
    options_json = msgspec.json.encode(options).decode()
    seed, seed_text = seed_columns(room.seed)
    statements: list[tuple[str, tuple[object, ...]]] = [
        (_UPSERT_ROOM, (*values, seed, int(started), options_json, storage.node, seed_text)),
        *((_UPSERT_SEAT, row) for row in rows),
    ]
    storage.transaction(statements)


def mark_started(storage: Store, game: str) -> None:
    """The room's game began (its games row exists): stamp the engine version on it."""
    storage.transaction(
        [
            ("UPDATE rooms SET started = 1 WHERE game = ?", (game,)),
            ("UPDATE games SET engine = ? WHERE id = ?", (ENGINE_VERSION, game)),
        ]
    )


def mark_played(storage: Store, game: str, seat: int) -> None:
    """The seat's player answered a decision itself (``seats.own``): a ranked game in which
    a seat never did is not counted (server/ladder/finish.py)."""
    storage.execute("UPDATE seats SET own = 1 WHERE game = ? AND seat = ?", (game, seat))


def save_bank(storage: Store, game: str, seat: int, bank: float) -> None:
    storage.execute("UPDATE seats SET bank = ? WHERE game = ? AND seat = ?", (bank, game, seat))


def drop_room(storage: Store, game: str) -> None:
    """A waiting room that expired: nothing of it is kept."""
    storage.transaction(
        [
            ("DELETE FROM rooms WHERE game = ?", (game,)),
            ("DELETE FROM seats WHERE game = ?", (game,)),
        ]
    )


def to_restore(storage: Store, ended_since: float | None = None) -> list[RoomRow]:
    """Rooms still waiting and rooms whose game is unfinished (playing or suspended); with
    ``ended_since`` (unix seconds), also rooms whose game finished since then, which a
    running server would still hold. A room whose game row exists has started, even if a
    crash came before its row said so."""
    rows = storage.query(
        "SELECT r.game, r.code, r.preset, r.public, r.base_s, r.bank_s, r.seed, "
        "(r.started = 1 OR g.id IS NOT NULL), r.options, g.status, g.engine, e.at, r.seed_text "
        "FROM rooms r LEFT JOIN games g ON g.id = r.game LEFT JOIN endings e ON e.game = r.game "
        "WHERE r.node = ? AND ((r.started = 0 AND g.id IS NULL) "
        "OR g.status IN ('playing', 'suspended') OR (g.status = 'finished' AND e.at >= ?)) "
        "ORDER BY r.rowid",
        (storage.node, float("inf") if ended_since is None else ended_since),
    )
    return [_room_row(storage, r) for r in rows]


def _room_row(storage: Store, r: tuple[Any, ...]) -> RoomRow:
    seats = storage.query(
        "SELECT seat, name, bot, token_hash, bank, bot_name FROM seats WHERE game = ? "
        "ORDER BY seat",
        (r[0],),
    )
    return RoomRow(
        game=r[0],
        code=r[1],
        preset=r[2],
        public=bool(r[3]),
        base_s=r[4],
        bank_s=r[5],
        seed=stored_seed(r[6], r[12]) or 0,
        started=bool(r[7]),
        options=msgspec.json.decode(r[8]),
        seats=[SeatRow(s[0], s[1], s[5] or (OLD_BOT if s[2] else None), s[3], s[4]) for s in seats],
        status=r[9],
        engine=r[10],
        ended_at=r[11] if r[9] == "finished" else None,
    )


def orphans(storage: Store) -> list[str]:
    """Unfinished games without a room row (stored by a server before rooms were kept):
    their seats are gone, so they cannot go on."""
    rows = storage.query(
        "SELECT id FROM games g WHERE g.status IN ('playing', 'suspended') "
        "AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.game = g.id)"
    )
    return [r[0] for r in rows]
