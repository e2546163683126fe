"""Game records, rooms and write-ahead decisions in PostgreSQL: one store for every node.

The same interface as the SQLite ``Storage`` (server/storage/sqlite.py ``Store``), so tables, rooms
and the games API do not know which they write to. What changes is who sees it: every node
of a cluster (docs/scaling.md) lists and downloads every game, wherever it was played, and a
node restores only the rooms whose ``node`` is its own.

Writes stay synchronous in the table's task, as with SQLite: a decision is committed (an
autocommit statement, ``synchronous_commit`` as the server has it, on by default) before the
engine or any client sees its effect. That is one round trip to PostgreSQL on the event loop
per decision; the record reads of the games API run on a second connection in a worker
thread, so a large download never holds a decision back.

psycopg 3 is an optional dependency (``pip install 'riichi-server[cluster]'``): a server
without ``--database-url`` never imports this module.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import psycopg
from psycopg import errors

from server.storage import migrate
from server.storage.sqlite import (
    SQL_ADD_DECISION,
    SQL_COUNT_DECISIONS,
    SQL_CREATE_GAME,
    SQL_DECISIONS,
    SQL_GAME,
    SQL_ROUNDS,
    SQL_TRAILS,
    SQL_WITH_STATUS,
    FinishHook,
    GameSummary,
    Statement,
    StorageFault,
    StoredGame,
    finished_summary,
    game_row,
    stored_game,
    unfinished_summary,
)


def _pg(sql: str) -> str:
    """The shared SQL (``?`` placeholders) in psycopg's (``%s``)."""
    return sql.replace("?", "%s")


T = TypeVar("T")

#: what PostgreSQL answers when it cannot take a write now: the server down or restarting,
#: the connection lost, its disk full, a read-only database or standby (SQLSTATE 25006)
REFUSALS = (psycopg.OperationalError, errors.ReadOnlySqlTransaction)


class PgStore:
    """The record store of every node of a cluster, in one PostgreSQL database.

    A write PostgreSQL refuses raises ``StorageFault`` (the tables that needed it wait, as on
    SQLite's full disk) and a lost connection is opened again at the next write, so the hub's
    probe finds the database once it is back."""

    def __init__(self, url: str, node: str) -> None:
        self.node = node
        self.finish_hook: FinishHook | None = None
        self._url = url
        self._db = psycopg.connect(url, autocommit=True)
        self._reader = psycopg.connect(url, autocommit=True)
        self._lock = threading.Lock()
        self._read_lock = threading.Lock()
        try:  # one node migrates at a time; a database a newer server wrote is refused
            migrate.migrate_postgres(self._db)
        except BaseException:
            self._db.close()
            self._reader.close()
            raise
        self._decision_count: dict[str, int] = {}

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._db.close()
            self._reader.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[psycopg.Connection[Any]]:
        """The writing connection under its lock, opened again when it was lost; a refusal
        becomes ``StorageFault`` (what failed changed nothing: its transaction rolls back)."""
        with self._lock:
            try:
                if self._db.closed or self._db.broken:
                    self._db = psycopg.connect(self._url, autocommit=True)
                yield self._db
            except REFUSALS as exc:
                raise StorageFault(f"the records cannot be written: {exc}".strip()) from exc

    def execute(self, sql: str, args: tuple[object, ...] = ()) -> None:
        with self._writing() as db:
            db.execute(_pg(sql), args)

    def transaction(self, statements: list[tuple[str, tuple[object, ...]]]) -> None:
        """Several statements committed together (or not at all)."""
        with self._writing() as db, db.transaction():
            for sql, args in statements:
                db.execute(_pg(sql), args)

    def query(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._writing() as db:
            return db.execute(_pg(sql), args).fetchall()

    def _reading(self, read: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``read`` on the second connection (the games API's reads, in worker threads)
        under its lock; a connection found lost is opened again and the read tried once
        more, and a database that still does not answer is a ``StorageFault``."""
        with self._read_lock:
            for again in (False, True):
                try:
                    if self._reader.closed or self._reader.broken:
                        self._reader = psycopg.connect(self._url, autocommit=True)
                    return read(self._reader)
                except REFUSALS as exc:
                    if again or not self._reader.broken:
                        raise StorageFault(f"the records cannot be read: {exc}") from exc
        raise AssertionError("unreachable")

    def _read(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        return self._reading(lambda reader: reader.execute(sql, args).fetchall())

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
        salt: str = "",
        draw: list[int] | None = None,
    ) -> None:
        """A new game; a public room's game will show in the finished-games list."""
        values = game_row(game, room, preset, seed, rules, seats, commitment, practice, salt, draw)
        with self._writing() as db, db.transaction():
            db.execute(_pg(SQL_CREATE_GAME), values)
            if public:
                db.execute("INSERT INTO listed VALUES (%s) ON CONFLICT DO NOTHING", (game,))

    def add_decision(
        self,
        game: str,
        inquiry: int,
        seat: int,
        action: int,
        option: int,
        timeout: bool,
        trail: str | None = None,
    ) -> None:
        """Append a decision; committed when this returns (write-ahead)."""
        n = self._decision_count.get(game)
        if n is None:  # a resumed game goes on from what is stored
            n = self.query(SQL_COUNT_DECISIONS, (game,))[0][0]
        self.execute(
            SQL_ADD_DECISION, (game, n, inquiry, seat, action, option, int(timeout), trail)
        )
        self._decision_count[game] = n + 1

    def add_round(self, game: str, n: int, data: bytes) -> None:
        self.execute(
            "INSERT INTO rounds VALUES (?, ?, ?) ON CONFLICT (game, n) "
            "DO UPDATE SET data = excluded.data",
            (game, n, data.decode()),
        )

    def finish_game(self, game: str, result: bytes, status: str = "finished") -> None:
        """The game's end, and what ``finish_hook`` adds, in one transaction."""
        self._decision_count.pop(game, None)
        ended = (
            "INSERT INTO endings VALUES (?, ?) ON CONFLICT (game) DO UPDATE SET at = excluded.at"
        )
        with self._writing() as db, db.transaction():
            more: list[Statement] = []
            if self.finish_hook is not None:
                more = self.finish_hook(self._in_transaction, game, status, result)
            for sql, args in [
                (
                    "UPDATE games SET status = ?, result = ? WHERE id = ?",
                    (status, result.decode(), game),
                ),
                (ended, (game, time.time())),
                *more,
            ]:
                db.execute(_pg(sql), args)

    def _in_transaction(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """A read on the writing connection (inside its open transaction)."""
        return self._db.execute(_pg(sql), args).fetchall()

    def set_status(self, game: str, status: str) -> None:
        """A game that did not end (suspended, playing again after a resume, aborted)."""
        self._decision_count.pop(game, None)
        self.execute("UPDATE games SET status = ? WHERE id = ?", (status, game))

    def games_with_status(self, status: str, limit: int) -> list[GameSummary]:
        """Games of public rooms with an unfinished status, newest first (every node's)."""
        rows = self._read(_pg(SQL_WITH_STATUS), (status, limit))
        return [unfinished_summary(r, status) for r in rows]

    def finished_games(self, limit: int, before: float | None = None) -> list[GameSummary]:
        """Finished games of public rooms (every node's), newest first; ``before`` (unix ms)
        pages past the last one seen."""
        rows = self._read(
            "SELECT g.id, g.preset, e.at, g.seats, (g.result::json -> 'scores')::text, "
            "g.practice "
            "FROM endings e JOIN listed l ON l.game = e.game JOIN games g ON g.id = e.game "
            "WHERE g.status = 'finished' AND e.at < %s ORDER BY e.at DESC LIMIT %s",
            (float("inf") if before is None else before / 1000, limit),
        )
        return [finished_summary(r) for r in rows]

    def load(self, game: str) -> StoredGame | None:
        """The whole record of a game, or None; one snapshot of the database (a game still
        being played elsewhere is read consistently)."""
        return self._reading(lambda reader: _snapshot(reader, game))

    def trails(self, game: str) -> list[str | None]:
        """The replay hash stored with each decision of ``game``, in order."""
        return [r[0] for r in self.query(SQL_TRAILS, (game,))]


def _snapshot(reader: psycopg.Connection[Any], game: str) -> StoredGame | None:
    """A game's whole record read in one repeatable-read transaction."""
    with reader.transaction():
        reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        row = reader.execute(_pg(SQL_GAME), (game,)).fetchone()
        if row is None:
            return None
        decisions = reader.execute(_pg(SQL_DECISIONS), (game,)).fetchall()
        rounds = reader.execute(_pg(SQL_ROUNDS), (game,)).fetchall()
    return stored_game(row, decisions, rounds)
