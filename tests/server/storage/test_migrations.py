"""The schema's numbered steps (server/storage/migrations) and their runner, on SQLite and a
real PostgreSQL: a released step is never edited, a new or old database reaches the latest
version, a failing step changes nothing, a database newer than the code is refused with the
database left as it was, and two nodes starting on one PostgreSQL database migrate it once."""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from server.storage import migrate, migrations
from server.storage.migrate import SchemaTooNew
from server.storage.migrations import Step
from server.storage.postgres import PgStore
from server.storage.sqlite import Storage
from tests.services import fresh_database, postgres_server

ROOT = Path(__file__).resolve().parents[3]
_names = itertools.count()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def _pg_fresh(pg_url: str) -> str:
    return fresh_database(pg_url, f"mig{next(_names)}")


# -- the steps --


def test_every_step_says_why_and_the_numbers_run_without_gaps() -> None:
    found = migrations.steps()
    migrations.check_numbers([s.number for s in found])  # a release has every step
    for step in found:
        assert len(step.why.split()) >= 8, f"step {step.number} needs a docstring saying why"
        assert step.sqlite.strip() and step.postgres.strip()
    files = sorted(p.name for p in migrations.HERE.glob("m[0-9]*.py"))
    assert len(files) == len(found), f"a step file whose name the runner skips: {files}"


def test_a_released_step_is_never_edited() -> None:
    released = migrations.released()
    assert 1 in released, "the baseline is released (91c6984's schema)"
    assert sorted(released) == list(range(1, len(released) + 1))
    for number, digest in released.items():
        assert migrations.file_hash(number) == digest, (
            f"step {number} was released and must not change: add a new step instead"
        )


def test_a_gap_in_the_numbers_is_refused() -> None:
    migrations.check_numbers([1, 2, 3])
    for numbers in ([1, 3], [2], [1, 1]):
        with pytest.raises(migrations.BadStep):
            migrations.check_numbers(numbers)


def test_statements_split_where_sqlite_says_they_end() -> None:
    script = "CREATE TABLE a (x TEXT DEFAULT ';');\nINSERT INTO a VALUES ('b;c');\n"
    assert migrate.sqlite_statements(script) == [
        "CREATE TABLE a (x TEXT DEFAULT ';');",
        "INSERT INTO a VALUES ('b;c');",
    ]


# -- SQLite --


def _columns(db: sqlite3.Connection) -> dict[str, set[str]]:
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}


def test_a_new_sqlite_file_is_at_the_latest_version(tmp_path: Path) -> None:
    Storage(tmp_path / "new.sqlite3").close()
    with sqlite3.connect(tmp_path / "new.sqlite3") as db:
        rows = db.execute("SELECT version, name FROM schema_version").fetchall()
        assert rows == [(s.number, s.name) for s in migrations.steps()]
        assert {"games", "rooms", "accounts", "standings", "reviews", "verdicts"} <= set(
            _columns(db)
        )


def test_an_unversioned_file_with_old_tables_is_adopted(tmp_path: Path) -> None:
    """Tables as servers before versioning made them, without the late columns: opening adds
    the columns, creates the missing tables, fills the reviews' figures and records step 1;
    its columns are then those of a new file."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(
            "CREATE TABLE games (id TEXT PRIMARY KEY, room TEXT NOT NULL, preset TEXT NOT NULL,"
            " seed INTEGER NOT NULL, rules TEXT NOT NULL, seats TEXT NOT NULL,"
            " status TEXT NOT NULL, result TEXT);"
            "CREATE TABLE rooms (game TEXT PRIMARY KEY, code TEXT NOT NULL, preset TEXT NOT NULL,"
            " public INTEGER NOT NULL, base_s REAL NOT NULL, bank_s REAL NOT NULL,"
            " seed INTEGER NOT NULL, started INTEGER NOT NULL, options TEXT NOT NULL);"
            "CREATE TABLE seats (game TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
            " bot INTEGER NOT NULL, token_hash TEXT, bank REAL NOT NULL, PRIMARY KEY (game, seat));"
            "CREATE TABLE reviews (game TEXT NOT NULL, seat INTEGER NOT NULL, engine TEXT NOT NULL,"
            " status TEXT NOT NULL, job TEXT NOT NULL, node TEXT NOT NULL, done INTEGER NOT NULL,"
            " total INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, result TEXT, error TEXT,"
            " PRIMARY KEY (game, seat, engine));"
            "INSERT INTO rooms VALUES ('g', 'C', 'p', 1, 5.0, 20.0, 9, 0, '{}');"
            "INSERT INTO reviews VALUES ('g', 1, 'e', 'done', 'j', 'a', 4, 4, 1.0,"
            " '{\"match_rate\": 0.5, \"rating\": 1}', '');"
        )
    Storage(path).close()
    Storage(tmp_path / "new.sqlite3").close()
    with sqlite3.connect(path) as db, sqlite3.connect(tmp_path / "new.sqlite3") as new:
        assert _columns(db) == _columns(new)
        assert db.execute("SELECT node, seed_text FROM rooms").fetchall() == [("", None)]
        assert db.execute("SELECT match_rate, rating FROM reviews").fetchall() == [(0.5, 1.0)]
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version")]
        assert versions == list(range(1, migrations.latest() + 1))


def test_a_failing_step_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    Storage(path).close()
    script = "CREATE TABLE half (x TEXT); INSERT INTO nowhere VALUES (1);"
    bad = Step(migrations.latest() + 1, "half", "why", script, "")
    db = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        migrate.migrate_sqlite(db, str(path), plan=(*migrations.steps(), bad))
    assert migrate.sqlite_version(db) == migrations.latest()
    assert "half" not in _columns(db)
    db.close()


def test_a_step_that_landed_after_a_higher_one_is_still_applied(tmp_path: Path) -> None:
    """Numbers are reserved for work in flight: a database that ran 1 and 3 gains 2."""
    two = Step(2, "two", "why", "CREATE TABLE two (x TEXT);", "")
    three = Step(3, "three", "why", "CREATE TABLE three (x TEXT);", "")
    base = migrations.steps()[:1]  # the baseline alone: the real later steps are not the point
    db = sqlite3.connect(tmp_path / "x.sqlite3", isolation_level=None)
    migrate.migrate_sqlite(db, "x", plan=(*base, three))
    assert migrate.sqlite_applied(db) == {1, 3}
    with pytest.raises(SchemaTooNew):  # code without step 3 refuses the file
        migrate.migrate_sqlite(db, "x", plan=(*base, two))
    migrate.migrate_sqlite(db, "x", plan=(*base, two, three))
    assert migrate.sqlite_applied(db) == {1, 2, 3} and {"two", "three"} <= set(_columns(db))
    db.close()


def _stamp_newer(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute(
            "INSERT INTO schema_version VALUES (?, 'from the future', 0)",
            (migrations.latest() + 1,),
        )


def _files(directory: Path) -> dict[str, bytes]:
    """The database's files byte for byte: the file and its WAL (the ``-shm`` index is
    shared memory that every reader updates, rebuilt from the WAL, not the database)."""
    return {
        p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.suffix != ".sqlite3-shm"
    }


def test_a_newer_sqlite_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "data" / "records.sqlite3"
    Storage(path).close()
    _stamp_newer(path)
    before = _files(path.parent)
    with pytest.raises(SchemaTooNew, match="newer than this server"):
        Storage(path)
    assert _files(path.parent) == before


def test_a_newer_file_a_crashed_server_left_with_its_wal_is_left_untouched(
    tmp_path: Path,
) -> None:
    """A newer server killed with committed frames still in its WAL: a writable connection
    would checkpoint them into the file when it closes; the refusal reads through a
    read-only one, so the file and its WAL stay byte for byte."""
    path = tmp_path / "records.sqlite3"
    Storage(path).close()
    _stamp_newer(path)
    crash = (
        "import os, sqlite3, sys; db = sqlite3.connect(sys.argv[1], isolation_level=None);"
        "db.execute('PRAGMA journal_mode=WAL');"
        "db.execute(\"INSERT INTO listed VALUES ('late')\"); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", crash, str(path)], check=True)
    before = _files(tmp_path)
    assert len(before.get("records.sqlite3-wal", b"")) > 0
    with pytest.raises(SchemaTooNew):
        Storage(path)
    assert _files(tmp_path) == before


def test_the_server_refuses_a_newer_database_with_a_clear_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Storage(data / "records.sqlite3").close()
    _stamp_newer(data / "records.sqlite3")
    before = _files(data)
    serve = ["--port", "0", "--data-dir", str(data)]
    for command in (serve, ["accounts", "--data-dir", str(data), "list"]):
        done = subprocess.run(
            [sys.executable, "-m", "server", *command],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PATH": "/usr/bin:/bin", "RIICHI_COMPILE": "0", "HOME": str(tmp_path)},
        )
        assert done.returncode == 65, (command, done.stderr)
        newer = f"schema version {migrations.latest() + 1}, newer than this server's"
        assert newer in done.stderr and "Traceback" not in done.stderr
        assert _files(data) == before


# -- PostgreSQL --


def _pg_tables(url: str) -> dict[str, list[str]]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        ).fetchall()
    tables: dict[str, list[str]] = {}
    for table, column in rows:
        tables.setdefault(table, []).append(column)
    return tables


def test_a_new_postgres_database_is_at_the_latest_version(pg_url: str) -> None:
    url = _pg_fresh(pg_url)
    PgStore(url, node="a").close()
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT version, name FROM schema_version").fetchall()
    assert rows == [(s.number, s.name) for s in migrations.steps()]


def test_two_nodes_starting_at_once_migrate_once(pg_url: str) -> None:
    url = _pg_fresh(pg_url)
    opened: list[PgStore] = []
    failed: list[BaseException] = []

    def start(node: str) -> None:
        try:
            opened.append(PgStore(url, node=node))
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=start, args=(n,)) for n in "abc"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for store in opened:
        store.close()
    assert failed == [] and len(opened) == 3
    with psycopg.connect(url) as db:
        assert db.execute("SELECT count(*) FROM schema_version").fetchone() == (
            len(migrations.steps()),
        )


def test_a_node_waits_while_another_migrates(pg_url: str) -> None:
    """The migrating node's advisory lock holds the others back until it lets go."""
    url = _pg_fresh(pg_url)
    opened: list[PgStore] = []
    with psycopg.connect(url, autocommit=True) as migrating:
        migrating.execute("SELECT pg_advisory_lock(%s)", (migrate.PG_LOCK,))
        waiting = threading.Thread(target=lambda: opened.append(PgStore(url, node="b")))
        waiting.start()
        waiting.join(1.0)
        assert waiting.is_alive() and not opened
        migrating.execute("SELECT pg_advisory_unlock(%s)", (migrate.PG_LOCK,))
        waiting.join(30)
    assert len(opened) == 1
    opened[0].close()


def test_an_unversioned_postgres_database_is_adopted(pg_url: str) -> None:
    url = _pg_fresh(pg_url)
    with psycopg.connect(url, autocommit=True) as old:
        old.execute(
            "CREATE TABLE rooms (rowid BIGSERIAL, game TEXT PRIMARY KEY, code TEXT NOT NULL,"
            " preset TEXT NOT NULL, public INTEGER NOT NULL, base_s DOUBLE PRECISION NOT NULL,"
            " bank_s DOUBLE PRECISION NOT NULL, seed BIGINT NOT NULL, started INTEGER NOT NULL,"
            " options TEXT NOT NULL);"
            "INSERT INTO rooms (game, code, preset, public, base_s, bank_s, seed, started, options)"
            " VALUES ('g', 'C', 'p', 1, 5, 20, 9, 0, '{}')"
        )
    PgStore(url, node="").close()
    new = _pg_fresh(pg_url)
    PgStore(new, node="").close()
    assert {t: set(c) for t, c in _pg_tables(url).items()} == {
        t: set(c) for t, c in _pg_tables(new).items()
    }
    with psycopg.connect(url) as db:
        assert db.execute("SELECT node, seed_text FROM rooms").fetchall() == [("", None)]


def test_a_newer_postgres_database_is_refused_and_left_untouched(pg_url: str) -> None:
    url = _pg_fresh(pg_url)
    PgStore(url, node="a").close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE verdicts")  # the newer release dropped it: it must stay dropped
        db.execute(
            "INSERT INTO schema_version VALUES (%s, 'from the future', 0)",
            (migrations.latest() + 1,),
        )
    before = _pg_tables(url)
    with pytest.raises(SchemaTooNew, match="newer than this server"):
        PgStore(url, node="a")
    assert _pg_tables(url) == before
    with psycopg.connect(url) as db:  # and the lock was given back
        locks = db.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
        assert locks.fetchone() == (0,)
