"""The server's SQLite writer never checkpoints (never fsyncs) on its own: the WAL reaches the
database file only through the checkpointer's thread (server/storage/checkpointer.py).

The database file is read with ``immutable=1``, which ignores the WAL: what it shows is what a
checkpoint copied."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from server.storage.sqlite import Storage

#: more commits than the 1,000 WAL pages after which SQLite checkpoints by itself
COMMITS = 1500


def _schema(path: Path) -> None:
    Storage(path).close()  # the tables, checkpointed into the file


def _in_file(path: Path) -> int:
    """Decisions in the database file itself (not in its WAL)."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM decisions").fetchone()[0])
    finally:
        db.close()


def _fill(storage: Storage) -> None:
    storage.create_game("g", "ROOM", "tenhou", 1, b"{}", ["a", "b", "c", "d"])
    for n in range(COMMITS):
        storage.add_decision("g", n, n % 4, 0, 0, False, "h")


def test_the_writer_leaves_its_wal_alone(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    _schema(path)
    storage = Storage(path, checkpoint_s=3600)  # a checkpointer that never comes round
    try:
        assert storage.query("PRAGMA wal_autocheckpoint") == [(0,)]
        _fill(storage)
        assert _in_file(path) == 0
        assert len(storage.load("g").decisions) == COMMITS  # type: ignore[union-attr]
    finally:
        storage.close()
    assert _in_file(path) == COMMITS  # a clean stop checkpoints everything


def test_the_checkpointer_copies_the_wal_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    _schema(path)
    storage = Storage(path, checkpoint_s=0.05)
    try:
        _fill(storage)
        checkpointer = storage.checkpointer
        assert checkpointer is not None
        runs, deadline = checkpointer.runs, time.monotonic() + 10
        while (checkpointer.runs < runs + 2 or _in_file(path) < COMMITS) and (
            time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert _in_file(path) == COMMITS
    finally:
        storage.close()
    assert not checkpointer._thread.is_alive()


def test_without_a_checkpointer_sqlite_checkpoints_in_the_commit(tmp_path: Path) -> None:
    """The default of a store made by hand (tests, tools): SQLite's own automatic checkpoint,
    which the two tests above would see if the server's writer still had it."""
    path = tmp_path / "records.sqlite3"
    _schema(path)
    storage = Storage(path)
    try:
        assert storage.checkpointer is None
        _fill(storage)
        assert _in_file(path) > 0
    finally:
        storage.close()
