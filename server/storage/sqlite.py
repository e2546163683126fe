"""Game records in SQLite: seed, rules, every decision and every round result, as they happen.

Writes are small synchronous statements in WAL mode with ``synchronous=NORMAL`` (no fsync per
commit): bench/storage.py measured 128 us per decision on this shared 2-core machine against
757 us for the same insert through ``anyio.to_thread`` (a bare thread hop alone: 480 us), so
the table's task writes directly. Reads for downloads run
in a worker thread (``anyio.to_thread``) because a record can be large.

Durability: a decision is committed before the engine or any client sees its effect
(write-ahead, server/session/answers.py). Each commit is in the WAL file when ``execute``
returns, so it survives a crash or ``kill -9`` of the process; with ``synchronous=NORMAL`` a
power loss or kernel crash may lose the commits since the last WAL checkpoint sync (the last
few decisions; the database stays consistent and the game resumes from what is left).
``RIICHI_SYNCHRONOUS=full`` fsyncs every commit (README: measured cost). The server's store
checkpoints its WAL in a thread of its own (server/storage/checkpointer.py), so the fsync a
checkpoint needs never runs on the event loop.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import msgspec

from server.storage import migrate
from server.storage.checkpointer import Checkpointer

#: the ``seed`` column holds an SQL integer (64 bits): a 128-bit seed is kept whole as text
#: in ``seed_text``, and ``seed`` holds its low 63 bits (``stored_seed``)
SEED_COLUMN_MASK = 2**63 - 1
#: statuses a stored game may have (``error``: the engine raised; kept from older servers)
STATUSES = ("waiting", "playing", "suspended", "finished", "aborted")


class StorageFault(Exception):
    """A write the store refused (disk full, I/O error, a read-only data dir, a lock held
    too long): the tables that needed it wait, as at a stop, until a write succeeds again;
    it never ends a game (docs/security.md, durability)."""


class LeaseLost(StorageFault):
    """A write of a game whose lease another process took (server/storage/postgres.py):
    that process runs the game now; this one must drop its table and write nothing more
    of it (server/session/hub.py)."""


class DamagedRecord(Exception):
    """A stored record that no longer reads (a bad page, a row that does not decode)."""


@contextlib.contextmanager
def writing() -> Iterator[None]:
    """Turn SQLite's (and the OS's) refusal to write into ``StorageFault``; the statement
    that failed changed nothing (SQLite rolls it back)."""
    try:
        yield
    except FAULTS as exc:
        raise _fault(exc) from exc


#: what SQLite (and the OS) raise when they refuse a write
FAULTS = (sqlite3.OperationalError, OSError)


def _fault(exc: BaseException) -> StorageFault:
    return StorageFault(f"the records cannot be written: {exc}")


class DecisionRow(msgspec.Struct, array_like=True):
    inquiry: int
    seat: int
    action: int
    option: int
    timeout: bool


class StoredGame(msgspec.Struct):
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
    #: the commitment's salt (v2, revealed with the seed; empty for a v1 commitment)
    salt: str = ""
    #: the one human chose the seed (a practice game)
    practice: bool = False
    #: engine.version.ENGINE_VERSION of the server that played it (null: before versions)
    engine: str | None = None
    #: why the record is incomplete: "" for a finished game, else what it holds
    note: str = ""
    #: the seat draw (engine.rules.bagime: ``draw[place]`` = seat; ``seats`` are the names by
    #: drawn seat); null for a game stored before seats were drawn (seated as they joined)
    draw: list[int] | None = None
    #: how many decisions were advised (a practice table's hints, server/session/advice.py);
    #: absent from the record of a game where none was given
    advice: int | msgspec.UnsetType = msgspec.UNSET


class GameSummary(msgspec.Struct):
    """One line of the finished-games list: enough to pick a game to replay."""

    id: str
    preset: str
    #: unix ms when the game ended (server clock)
    finished: int
    seats: list[str]
    scores: msgspec.Raw
    status: str = "finished"
    #: the one human chose the seed (a practice game: the walls were known to them)
    practice: bool = False


#: the SQL both stores run as written (``?`` placeholders; PgStore turns them into ``%s``)
SQL_COUNT_DECISIONS = "SELECT count(*) FROM decisions WHERE game = ?"
SQL_ADD_DECISION = (
    "INSERT INTO decisions (game, n, inquiry, seat, action, option, timeout, hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
SQL_CREATE_GAME = (
    "INSERT INTO games (id, room, preset, seed, rules, seats, status, result, "
    "commitment, practice, seed_text, salt, draw) "
    "VALUES (?, ?, ?, ?, ?, ?, 'playing', NULL, ?, ?, ?, ?, ?) "
    "ON CONFLICT (id) DO NOTHING"  # a start the disk refused halfway is started again
)
SQL_WITH_STATUS = (
    "SELECT g.id, g.preset, g.seats, g.practice FROM games g JOIN listed l ON l.game = g.id "
    "WHERE g.status = ? ORDER BY g.rowid DESC LIMIT ?"
)
SQL_GAME = (
    "SELECT id, room, preset, seed, rules, seats, status, result, commitment, "
    "practice, engine, seed_text, salt, draw, advice FROM games WHERE id = ?"
)
#: one more advised decision of a game (both stores run it as written)
SQL_ADD_ADVICE = "UPDATE games SET advice = COALESCE(advice, 0) + 1 WHERE id = ?"


def seed_columns(seed: int) -> tuple[int, str]:
    """(``seed`` column, ``seed_text`` column) of a seed of up to 128 bits."""
    return seed & SEED_COLUMN_MASK, str(seed)


def game_row(
    game: str,
    room: str,
    preset: str,
    seed: int,
    rules: bytes,
    seats: list[str],
    commitment: str,
    practice: bool,
    salt: str,
    draw: list[int] | None,
) -> tuple[object, ...]:
    """``SQL_CREATE_GAME``'s values, the same for both stores: JSON for the lists, the seed
    in its two columns (``seed_columns``)."""
    column, text = seed_columns(seed)
    draw_json = None if draw is None else msgspec.json.encode(draw).decode()
    seats_json = msgspec.json.encode(seats).decode()
    return (
        *(game, room, preset, column, rules.decode(), seats_json),
        *(commitment, int(practice), text, salt, draw_json),
    )


def stored_seed(column: int | None, text: str | None) -> int | None:
    """The seed from its two columns (a row from before ``seed_text`` has the integer only)."""
    return int(text) if text else column


SQL_DECISIONS = (
    "SELECT inquiry, seat, action, option, timeout FROM decisions WHERE game = ? ORDER BY n"
)
SQL_ROUNDS = "SELECT data FROM rounds WHERE game = ? ORDER BY n"
SQL_TRAILS = "SELECT hash FROM decisions WHERE game = ? ORDER BY n"


def unfinished_summary(row: tuple[Any, ...], status: str) -> GameSummary:
    """A row of ``SQL_WITH_STATUS`` as the games list shows it."""
    seats = msgspec.json.decode(row[2], type=list[str])
    return GameSummary(row[0], row[1], 0, seats, msgspec.Raw(b"null"), status, bool(row[3]))


def finished_summary(row: tuple[Any, ...]) -> GameSummary:
    """A row of (id, preset, ended at, seats, scores, practice) as the finished-games list
    shows it."""
    seats = msgspec.json.decode(row[3], type=list[str])
    scores = msgspec.Raw((row[4] or "null").encode())
    return GameSummary(row[0], row[1], int(row[2] * 1000), seats, scores, practice=bool(row[5]))


def stored_game(
    row: tuple[Any, ...], decisions: list[tuple[Any, ...]], rounds: list[tuple[Any, ...]]
) -> StoredGame:
    """The rows of ``SQL_GAME``, ``SQL_DECISIONS`` and ``SQL_ROUNDS`` as one record."""
    return StoredGame(
        id=row[0],
        room=row[1],
        preset=row[2],
        seed=stored_seed(row[3], row[11]),
        rules=msgspec.Raw(row[4].encode()),
        seats=msgspec.json.decode(row[5], type=list[str]),
        status=row[6],
        decisions=[DecisionRow(d[0], d[1], d[2], d[3], bool(d[4])) for d in decisions],
        rounds=[msgspec.Raw(r[0].encode()) for r in rounds],
        result=msgspec.Raw((row[7] or "null").encode()),
        commitment=row[8] or "",
        practice=bool(row[9]),
        engine=row[10],
        salt=row[12] or "",
        draw=None if row[13] is None else msgspec.json.decode(row[13], type=list[int]),
        advice=msgspec.UNSET if row[14] is None else int(row[14]),
    )


#: one statement of a transaction: (SQL with ``?`` placeholders, its arguments)
Statement = tuple[str, tuple[object, ...]]
#: a read inside the open transaction (same SQL dialect as ``Store.query``)
Reader = Callable[[str, tuple[object, ...]], list[tuple[Any, ...]]]
#: called inside the transaction that marks a game ended, with the game, its status and its
#: result: returns more statements to commit with it (server/ladder/finish.py applies a ranked
#: game's ratings there, so a rating moves exactly when the game is marked finished)
FinishHook = Callable[[Reader, str, str, bytes], list[Statement]]


class Store(Protocol):
    """What tables, rooms and the games API need of a record store: ``Storage`` (SQLite, the
    default: one file per node) or ``server.storage.postgres.PgStore`` (PostgreSQL shared by every
    node). Both hold every table of server/storage/migrations once open. SQL handed to
    ``execute``/``transaction``/``query`` (server/storage/persist.py) is written for both:
    ``?`` placeholders, ``ON CONFLICT ... DO UPDATE`` upserts."""

    #: the node whose rooms this process restores ("" for a store of its own, SQLite)
    node: str
    #: more statements for the transaction that ends a game (None: nothing more)
    finish_hook: FinishHook | None

    def close(self) -> None: ...
    #: this process runs ``game`` from now on (a restored one): a store other processes
    #: share refuses their writes to it from here (LeaseLost)
    def take(self, game: str) -> None: ...
    def execute(self, sql: str, args: tuple[object, ...] = ()) -> None: ...
    def transaction(self, statements: list[tuple[str, tuple[object, ...]]]) -> None: ...
    def query(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]: ...
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
    ) -> None: ...
    def add_decision(
        self,
        game: str,
        inquiry: int,
        seat: int,
        action: int,
        option: int,
        timeout: bool,
        trail: str | None = None,
    ) -> None: ...
    def add_round(self, game: str, n: int, data: bytes) -> None: ...
    def finish_game(self, game: str, result: bytes, status: str = "finished") -> None: ...
    def set_status(self, game: str, status: str) -> None: ...
    def games_with_status(self, status: str, limit: int) -> list[GameSummary]: ...
    def finished_games(self, limit: int, before: float | None = None) -> list[GameSummary]: ...
    def load(self, game: str) -> StoredGame | None: ...
    def trails(self, game: str) -> list[str | None]: ...


class Storage:
    """One SQLite file shared by every table of the server; opening it brings its schema to
    this code's (server/storage/migrate.py: SchemaTooNew for a file a newer server wrote)."""

    #: a file of its own: every room in it is this node's
    node = ""
    finish_hook: FinishHook | None = None

    def __init__(
        self, path: str | Path, synchronous: str = "NORMAL", checkpoint_s: float | None = None
    ) -> None:
        """``checkpoint_s``: checkpoint the WAL that often in a thread of its own (the
        server's choice: server/storage/checkpointer.py) instead of in whichever commit fills it."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            migrate.check(str(path), migrate.sqlite_file_applied(Path(path)))
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        if synchronous.upper() not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        migrate.migrate_sqlite(self._db, str(path))
        self._decision_count: dict[str, int] = {}
        self.checkpointer: Checkpointer | None = None
        if checkpoint_s is not None and str(path) != ":memory:":
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self.checkpointer = Checkpointer(Path(path), checkpoint_s)

    def close(self) -> None:
        """Checkpoint the WAL into the main file and close (a clean stop)."""
        if self.checkpointer is not None:
            self.checkpointer.stop()
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()

    def take(self, game: str) -> None:
        """Nothing to fence: one server holds the data dir (server/runtime/datadir.py)."""

    def execute(self, sql: str, args: tuple[object, ...] = ()) -> None:
        """One statement (its own transaction), for the modules that own other tables."""
        self._write(sql, args)

    def transaction(self, statements: list[tuple[str, tuple[object, ...]]]) -> None:
        """Several statements committed together (or not at all)."""
        with self._lock, writing():
            self._db.execute("BEGIN")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
                self._db.execute("COMMIT")  # a full disk may refuse the commit itself
            except BaseException:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise

    def query(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _write(self, sql: str, args: tuple[object, ...]) -> None:
        """``writing()``'s translation spelled out: every decision comes through here, and a
        generator-based context manager costs five Python frames a statement."""
        with self._lock:
            try:
                self._db.execute(sql, args)
            except FAULTS as exc:
                raise _fault(exc) from exc

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
        statements: list[tuple[str, tuple[object, ...]]] = [(SQL_CREATE_GAME, values)]
        if public:
            statements.append(("INSERT OR IGNORE INTO listed VALUES (?)", (game,)))
        self.transaction(statements)

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
        """Append a decision; committed (in the WAL) when this returns. ``trail`` is the
        replay hash of the god-view stream when it was taken (server/session/resume.py)."""
        n = self._decision_count.get(game)
        if n is None:  # a resumed game goes on from what is stored
            n = self.query(SQL_COUNT_DECISIONS, (game,))[0][0]
        self._write(SQL_ADD_DECISION, (game, n, inquiry, seat, action, option, int(timeout), trail))
        self._decision_count[game] = n + 1

    def add_round(self, game: str, n: int, data: bytes) -> None:
        self._write("INSERT OR REPLACE INTO rounds VALUES (?, ?, ?)", (game, n, data.decode()))

    def finish_game(self, game: str, result: bytes, status: str = "finished") -> None:
        """The game's end, and what ``finish_hook`` adds, in one transaction."""
        self._decision_count.pop(game, None)
        with self._lock, writing():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                more = self._hooked(game, status, result)
                self._db.execute(
                    "UPDATE games SET status = ?, result = ? WHERE id = ?",
                    (status, result.decode(), game),
                )
                self._db.execute(
                    "INSERT OR REPLACE INTO endings VALUES (?, ?)", (game, time.time())
                )
                for sql, args in more:
                    self._db.execute(sql, args)
                self._db.execute("COMMIT")  # a full disk may refuse the commit itself
            except BaseException:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise

    def _hooked(self, game: str, status: str, result: bytes) -> list[Statement]:
        if self.finish_hook is None:
            return []
        return self.finish_hook(
            lambda sql, args: self._db.execute(sql, args).fetchall(), game, status, result
        )

    def set_status(self, game: str, status: str) -> None:
        """A game that did not end (suspended, playing again after a resume, aborted)."""
        self._decision_count.pop(game, None)
        self._write("UPDATE games SET status = ? WHERE id = ?", (status, game))

    def games_with_status(self, status: str, limit: int) -> list[GameSummary]:
        """Games of public rooms with an unfinished status, newest first."""
        rows = self.query(SQL_WITH_STATUS, (status, limit))
        return [unfinished_summary(r, status) for r in rows]

    def finished_games(self, limit: int, before: float | None = None) -> list[GameSummary]:
        """Finished games of public rooms, newest first; ``before`` (unix ms) pages past the
        last one seen."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.preset, e.at, g.seats, json_extract(g.result, '$.scores'), "
                "g.practice "
                "FROM endings e JOIN listed USING (game) JOIN games g ON g.id = e.game "
                "WHERE g.status = 'finished' AND e.at < ? ORDER BY e.at DESC LIMIT ?",
                (float("inf") if before is None else before / 1000, limit),
            ).fetchall()
        return [finished_summary(r) for r in rows]

    def load(self, game: str) -> StoredGame | None:
        """The whole record of a game, or None; safe to call from a worker thread.
        DamagedRecord when its rows no longer read (a bad page, a garbled column)."""
        try:
            with self._lock:
                row = self._db.execute(SQL_GAME, (game,)).fetchone()
                if row is None:
                    return None
                decisions = self._db.execute(SQL_DECISIONS, (game,)).fetchall()
                rounds = self._db.execute(SQL_ROUNDS, (game,)).fetchall()
            return stored_game(row, decisions, rounds)
        except (sqlite3.DatabaseError, msgspec.DecodeError, ValueError, TypeError) as exc:
            raise DamagedRecord(f"the record of game {game} is damaged: {exc}") from exc

    def trails(self, game: str) -> list[str | None]:
        """The replay hash stored with each decision of ``game``, in order."""
        return [r[0] for r in self.query(SQL_TRAILS, (game,))]
