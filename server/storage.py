"""Game records in SQLite: seed, rules, every decision and every round result, as they happen.

Writes are small synchronous statements in WAL mode with ``synchronous=NORMAL`` (no fsync per
commit): bench/storage.py measured 128 us per decision on this shared 2-core machine against
757 us for the same insert through ``anyio.to_thread`` (a bare thread hop alone: 480 us), so
the table's task writes directly. Reads for downloads run
in a worker thread (``anyio.to_thread``) because a record can be large.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import msgspec

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, room TEXT NOT NULL, preset TEXT NOT NULL, seed INTEGER NOT NULL,
    rules TEXT NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, result TEXT,
    commitment TEXT, practice INTEGER
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL, n INTEGER NOT NULL, inquiry INTEGER NOT NULL, seat INTEGER NOT NULL,
    action INTEGER NOT NULL, option INTEGER NOT NULL, timeout INTEGER NOT NULL,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS rounds (
    game TEXT NOT NULL, n INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS endings (game TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS listed (game TEXT PRIMARY KEY);
CREATE INDEX IF NOT EXISTS endings_at ON endings (at);
"""
#: columns added to ``games`` after its first release: (name, type), added to older files
_ADDED_COLUMNS = (("commitment", "TEXT"), ("practice", "INTEGER"))


class DecisionRow(msgspec.Struct, array_like=True):
    inquiry: int
    seat: int
    action: int
    option: int
    timeout: bool


class GameRecord(msgspec.Struct):
    """What the database knows of one game; enough to replay it with the engine."""

    id: str
    room: str
    preset: str
    #: null in a record served during the game: the seed makes every wall, so every hand
    seed: int | None
    rules: msgspec.Raw
    seats: list[str]
    status: str
    decisions: list[DecisionRow]
    rounds: list[msgspec.Raw]
    result: msgspec.Raw
    #: the commitment to ``seed`` every seat had before the first deal (engine.rules.wall)
    commitment: str = ""
    #: the one human chose the seed (a practice game)
    practice: bool = False


class GameSummary(msgspec.Struct):
    """One line of the finished-games list: enough to pick a game to replay."""

    id: str
    preset: str
    #: unix ms when the game ended (server clock)
    finished: int
    seats: list[str]
    scores: msgspec.Raw


class Storage:
    """One SQLite file shared by every table of the server."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._add_columns()
        self._decision_count: dict[str, int] = {}

    def _add_columns(self) -> None:
        """Bring a file made before a column existed up to the schema (additive only)."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for name, kind in _ADDED_COLUMNS:
            if name not in have:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: tuple[object, ...]) -> None:
        with self._lock:
            self._db.execute(sql, args)

    def create_game(
        self,
        game: str,
        room: str,
        preset: str,
        seed: int,
        rules: bytes,
        seats: list[str],
        public: bool = True,
        commitment: str = "",
        practice: bool = False,
    ) -> None:
        """A new game; a public room's game will show in the finished-games list."""
        seats_json = msgspec.json.encode(seats).decode()
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, room, preset, seed, rules, seats, status, result, "
                "commitment, practice) VALUES (?, ?, ?, ?, ?, ?, 'playing', NULL, ?, ?)",
                (game, room, preset, seed, rules.decode(), seats_json, commitment, int(practice)),
            )
            if public:
                self._db.execute("INSERT OR IGNORE INTO listed VALUES (?)", (game,))

    def add_decision(
        self, game: str, inquiry: int, seat: int, action: int, option: int, timeout: bool
    ) -> None:
        n = self._decision_count.get(game, 0)
        self._decision_count[game] = n + 1
        self._write(
            "INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game, n, inquiry, seat, action, option, int(timeout)),
        )

    def add_round(self, game: str, n: int, data: bytes) -> None:
        self._write("INSERT OR REPLACE INTO rounds VALUES (?, ?, ?)", (game, n, data.decode()))

    def finish_game(self, game: str, result: bytes, status: str = "finished") -> None:
        self._decision_count.pop(game, None)
        with self._lock:
            self._db.execute(
                "UPDATE games SET status = ?, result = ? WHERE id = ?",
                (status, result.decode(), game),
            )
            self._db.execute("INSERT OR REPLACE INTO endings VALUES (?, ?)", (game, time.time()))

    def finished_games(self, limit: int, before: float | None = None) -> list[GameSummary]:
        """Finished games of public rooms, newest first; ``before`` (unix ms) pages past the
        last one seen."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.preset, e.at, g.seats, json_extract(g.result, '$.scores') "
                "FROM endings e JOIN listed USING (game) JOIN games g ON g.id = e.game "
                "WHERE g.status = 'finished' AND e.at < ? ORDER BY e.at DESC LIMIT ?",
                (float("inf") if before is None else before / 1000, limit),
            ).fetchall()
        return [
            GameSummary(
                id=r[0],
                preset=r[1],
                finished=int(r[2] * 1000),
                seats=msgspec.json.decode(r[3], type=list[str]),
                scores=msgspec.Raw((r[4] or "null").encode()),
            )
            for r in rows
        ]

    def load(self, game: str) -> GameRecord | None:
        """The whole record of a game, or None; safe to call from a worker thread."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, room, preset, seed, rules, seats, status, result, commitment, "
                "practice FROM games WHERE id = ?",
                (game,),
            ).fetchone()
            if row is None:
                return None
            decisions = self._db.execute(
                "SELECT inquiry, seat, action, option, timeout FROM decisions "
                "WHERE game = ? ORDER BY n",
                (game,),
            ).fetchall()
            rounds = self._db.execute(
                "SELECT data FROM rounds WHERE game = ? ORDER BY n", (game,)
            ).fetchall()
        return GameRecord(
            id=row[0],
            room=row[1],
            preset=row[2],
            seed=row[3],
            rules=msgspec.Raw(row[4].encode()),
            seats=msgspec.json.decode(row[5], type=list[str]),
            status=row[6],
            decisions=[DecisionRow(d[0], d[1], d[2], d[3], bool(d[4])) for d in decisions],
            rounds=[msgspec.Raw(r[0].encode()) for r in rounds],
            result=msgspec.Raw((row[7] or "null").encode()),
            commitment=row[8] or "",
            practice=bool(row[9]),
        )
