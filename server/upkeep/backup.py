"""Backups of the SQLite records while the server plays, and their restore.

``backup`` copies the database with SQLite's online backup API a few pages a step, from one
read transaction held for the whole copy: in WAL mode a reader never blocks the server's
writer (nor its passive checkpoints), so no game waits on the backup, and the pinned
snapshot means the copy is the database as it was at one commit, however many decisions
the tables store meanwhile (without it, a write by the server between two steps would
restart the copy from its first page, for ever on a busy server). The copy is checked
(``PRAGMA integrity_check``) and renamed into place only when whole.

``restore`` takes the data dir's lock first (server/runtime/datadir.py): a running server
holds it, so its records are never overwritten under it. The records it replaces are moved
aside, never deleted.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
import time
from pathlib import Path

import msgspec

from server.runtime import datadir
from server.settings import Settings

#: pages copied per step of the backup (4 KiB pages: 1 MiB a step)
STEP_PAGES = 256


class UpkeepError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


class Copied(msgspec.Struct):
    """What a backup or restore copied: for its last line and the tests."""

    path: str
    pages: int
    games: int
    finished: int
    unfinished: int
    seconds: float


def pg_dump_line(url: str, target: str) -> str:
    """The command that backs up a PostgreSQL store (the cluster's records)."""
    return f"pg_dump --format=custom --file={shlex.quote(target)} {shlex.quote(url)}"


def pg_restore_line(url: str, source: str) -> str:
    """The command that restores ``pg_dump_line``'s file into an existing database."""
    return (
        "pg_restore --clean --if-exists --no-owner --single-transaction "
        f"--dbname={shlex.quote(url)} {shlex.quote(source)}"
    )


def backup(settings: Settings, target: Path, step_pages: int = STEP_PAGES) -> Copied:
    """Copy the data dir's records to ``target`` (replaced only once the copy is whole)."""
    db = settings.db_path
    if not db.exists():
        raise UpkeepError(f"{db} does not exist: no records to back up (check --data-dir)")
    if target.resolve() == db.resolve():
        raise UpkeepError(f"{target} is the records database itself")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    started = time.monotonic()
    source = sqlite3.connect(str(db), isolation_level=None)
    try:
        source.execute("PRAGMA query_only = ON")
        source.execute("BEGIN")  # one snapshot for every step (the module's docstring)
        source.execute("SELECT count(*) FROM sqlite_master").fetchall()
        with contextlib.closing(sqlite3.connect(str(partial))) as copy:
            source.backup(copy, pages=step_pages)
            _one_file(copy)
        source.execute("COMMIT")
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise UpkeepError(f"the backup of {db} failed: {exc}") from exc
    finally:
        source.close()
    copied = _checked(partial, started)
    _fsync(partial)
    os.replace(partial, target)
    _fsync_dir(target.parent)
    return msgspec.structs.replace(copied, path=str(target))


def restore(settings: Settings, source: Path) -> tuple[Copied, list[Path]]:
    """Put the backup ``source`` in the data dir as its records; the files it replaced,
    moved aside. Raises DataDirHeld while a server (or another restore) holds the data dir."""
    if not source.is_file():
        raise UpkeepError(f"{source} is not a file")
    _checked(source, time.monotonic())  # a damaged or foreign file replaces nothing
    with datadir.acquire(settings.data_dir):
        db = settings.db_path
        started = time.monotonic()
        partial = db.with_name(db.name + ".restoring")
        partial.unlink(missing_ok=True)
        with (
            contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
            contextlib.closing(sqlite3.connect(str(partial))) as copy,
        ):
            src.backup(copy, pages=STEP_PAGES)
            _one_file(copy)
        copied = _checked(partial, started)
        _fsync(partial)
        moved = _move_aside(db)
        os.replace(partial, db)
        _fsync_dir(db.parent)
    return msgspec.structs.replace(copied, path=str(db)), moved


def _one_file(copy: sqlite3.Connection) -> None:
    """The copy as one self-contained file (rollback journal, no WAL beside it); the
    server turns WAL on again when it opens it."""
    copy.execute("PRAGMA journal_mode=DELETE").fetchall()


def _move_aside(db: Path) -> list[Path]:
    """The records ``db`` (with its WAL, whose commits belong to it) renamed out of the way."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    moved = []
    for suffix in ("", "-wal", "-shm"):
        path = db.with_name(db.name + suffix)
        if path.exists():
            aside = db.with_name(f"{db.name}.replaced-{stamp}{suffix}")
            os.replace(path, aside)
            moved.append(aside)
    return moved


def _checked(path: Path, started: float) -> Copied:
    """``path``'s integrity and its games' count; UpkeepError when it is not our records."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            problems = db.execute("PRAGMA integrity_check").fetchall()
            if problems != [("ok",)]:
                raise UpkeepError(f"{path} is damaged: {problems[0][0]}")
            pages = int(db.execute("PRAGMA page_count").fetchone()[0])
            statuses = dict(db.execute("SELECT status, count(*) FROM games GROUP BY status"))
    except sqlite3.DatabaseError as exc:
        raise UpkeepError(f"{path} is not a records database: {exc}") from exc
    finished = int(statuses.get("finished", 0))
    unfinished = int(statuses.get("playing", 0)) + int(statuses.get("suspended", 0))
    games = sum(int(n) for n in statuses.values())
    return Copied(str(path), pages, games, finished, unfinished, time.monotonic() - started)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    """The rename itself made durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
