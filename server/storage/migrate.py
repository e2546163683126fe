"""Bring a database to this code's schema: the numbered steps it lacks, each in one transaction.

``schema_version`` holds a row per step applied (version, name, applied_at). A database
without it was written before versioning (or is new): step 1, the baseline, adopts it by
adding the late columns its tables lack, then creating what is missing. A database holding a
step this code does not have was written by a newer server: it is refused before anything
is written to it, since this code does not know what that step changed.

The steps a database lacks are applied in number order, including one numbered below a step
it has (steps reserved for work in flight may land in another order than their numbers; a
release has them all, tests/server/storage/test_migrations.py).

On PostgreSQL every node of a cluster opens the same database: one migrates under an
advisory lock and the others wait for it, then find nothing left to do.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.storage.migrations import Step, latest, steps

if TYPE_CHECKING:
    import psycopg

#: the advisory lock a migrating node holds (the key server/storage/postgres.py always used)
PG_LOCK = 7_015_014
_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
    "name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
)
_RECORD = "INSERT INTO schema_version (version, name, applied_at) VALUES ({0}, {0}, {0})"


class SchemaTooNew(Exception):
    """The database was written by a newer server; nothing was written to it."""

    def __init__(self, where: str, found: int) -> None:
        super().__init__(
            f"{where} has schema version {found}, newer than this server's {latest()}: it was "
            f"written by a newer release. Run that release (or newer), or restore a backup "
            f"taken before the upgrade; this server leaves the database as it is."
        )
        self.found = found


def check(where: str, applied: set[int], plan: Sequence[Step] | None = None) -> None:
    """SchemaTooNew when ``applied`` holds a step ``plan`` (default: every step) lacks."""
    known = {s.number for s in (steps() if plan is None else plan)}
    unknown = applied - known
    if unknown:
        raise SchemaTooNew(where, max(unknown))


def _pending(where: str, applied: set[int], plan: Sequence[Step] | None) -> list[Step]:
    plan = steps() if plan is None else plan
    check(where, applied, plan)
    return [s for s in plan if s.number not in applied]


# -- SQLite --


def sqlite_applied(db: sqlite3.Connection) -> set[int]:
    """The steps recorded (none: a database from before versioning, or a new one)."""
    has = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchall()
    if not has:
        return set()
    return {int(r[0]) for r in db.execute("SELECT version FROM schema_version")}


def sqlite_version(db: sqlite3.Connection) -> int:
    """The highest step recorded (0: none)."""
    return max(sqlite_applied(db), default=0)


def sqlite_file_applied(path: Path) -> set[int]:
    """The steps the database file at ``path`` records (none: no such file), read through a
    read-only connection, so that refusing a newer one writes nothing: not even the
    checkpoint a writable connection makes when it closes, nor an empty WAL."""
    if not path.exists():
        return set()
    # without a WAL everything is in the file: ``immutable`` reads it creating no -wal/-shm
    wal = path.with_name(path.name + "-wal").exists()
    uri = path.absolute().as_uri() + ("?mode=ro" if wal else "?immutable=1")
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        return sqlite_applied(db)


def sqlite_statements(script: str) -> list[str]:
    """A script's statements, split where SQLite says one is complete (not inside a string)."""
    statements, part = [], ""
    for piece in script.split(";"):
        part += piece + ";"
        if sqlite3.complete_statement(part):
            statements.append(part.strip())
            part = ""
    if part.strip(" \n;"):
        raise ValueError(f"an incomplete statement ends the script: {part!r}")
    return [s for s in statements if s != ";"]


def migrate_sqlite(db: sqlite3.Connection, where: str, plan: Sequence[Step] | None = None) -> int:
    """Apply the steps of ``plan`` (default: every step) that ``db`` (an autocommit
    connection) lacks; the version it is at after. A second process opening the same file
    meanwhile waits on SQLite's write lock and then finds each step recorded."""
    for step in _pending(where, sqlite_applied(db), plan):
        db.execute("BEGIN IMMEDIATE")
        try:
            if step.number not in sqlite_applied(db):
                _sqlite_step(db, step)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    return sqlite_version(db)


def _sqlite_step(db: sqlite3.Connection, step: Step) -> None:
    for table, column, kind in step.adopted:
        names = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        if names and column not in names:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    for statement in sqlite_statements(step.sqlite):
        db.execute(statement)
    db.execute(_VERSION_TABLE)
    db.execute(_RECORD.format("?"), (step.number, step.name, time.time()))


# -- PostgreSQL --


def pg_applied(db: psycopg.Connection[Any]) -> set[int]:
    """The steps ``db``'s schema_version records (none: no such table)."""
    row = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return set()
    return {int(r[0]) for r in db.execute("SELECT version FROM schema_version")}


def migrate_postgres(
    db: psycopg.Connection[Any],
    where: str = "the PostgreSQL database",
    plan: Sequence[Step] | None = None,
) -> int:
    """Apply the steps of ``plan`` (default: every step) that ``db`` (an autocommit
    connection) lacks, under the cluster's advisory lock: a node that starts while another
    migrates waits, then finds the steps recorded."""
    db.execute("SELECT pg_advisory_lock(%s)", (PG_LOCK,))
    try:
        for step in _pending(where, pg_applied(db), plan):
            with db.transaction():
                _pg_step(db, step)
        return max(pg_applied(db), default=0)
    finally:
        db.execute("SELECT pg_advisory_unlock(%s)", (PG_LOCK,))


def _pg_step(db: psycopg.Connection[Any], step: Step) -> None:
    for table, column, kind in step.adopted:
        row = db.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()
        if row and row[0]:
            db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
    db.execute(step.postgres)
    db.execute(_VERSION_TABLE)
    db.execute(_RECORD.format("%s"), (step.number, step.name, time.time()))
