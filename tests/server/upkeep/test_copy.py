"""The backup's copy itself: one snapshot, in small steps, while another connection writes
all along (as the server's tables do), and a restore that keeps what it replaces."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from server.runtime import datadir
from server.settings import Settings
from server.upkeep import backup

ROOT = Path(__file__).resolve().parents[3]

#: commits one row after another into the database its argument names, until killed
WRITER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA synchronous=OFF")
n = 0
while True:
    db.execute("INSERT INTO games VALUES (?, 'playing', '')", (f"p{n}",))
    n += 1
"""


def _count(db: Path, status: str) -> int:
    with sqlite3.connect(db) as conn:
        found = int(
            conn.execute("SELECT count(*) FROM games WHERE status = ?", (status,)).fetchone()[0]
        )
    conn.close()
    return found


def _records(data: Path, rows: int) -> Settings:
    settings = Settings(data_dir=str(data))
    data.mkdir()
    with sqlite3.connect(settings.db_path, isolation_level=None) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, status TEXT, pad TEXT)")
        db.executemany(
            "INSERT INTO games VALUES (?, 'finished', ?)",
            ((f"f{i}", "x" * 900) for i in range(rows)),
        )
    db.close()
    return settings


def test_a_copy_in_one_page_steps_finishes_while_every_step_sees_a_new_commit(
    tmp_path: Path,
) -> None:
    """Without the pinned snapshot each commit between two steps restarts the copy: with a
    commit every few milliseconds and 1-page steps it would never end."""
    settings = _records(tmp_path / "d", 20000)
    # another process commits all along, as the server's tables do (no GIL between them)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(settings.db_path)])
    try:
        while _count(settings.db_path, "playing") < 10:
            time.sleep(0.01)
        started = _count(settings.db_path, "playing")
        done: list[backup.Copied] = []
        copying = threading.Thread(
            target=lambda: done.append(backup.backup(settings, tmp_path / "copy", step_pages=1)),
            daemon=True,
        )
        copying.start()
        copying.join(timeout=60)
        assert done, "the copy did not end while the writer wrote (restarted at each commit?)"
        copied = done[0]
        during = _count(settings.db_path, "playing") - started
    finally:
        writer.kill()
        writer.wait()
    assert copied.pages > 4000 and during > 20, (copied, during)
    assert copied.finished == 20000 and 10 <= copied.unfinished <= started + during
    with sqlite3.connect(tmp_path / "copy") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
        # one commit's state: the writer's ids run 0..k-1 without a gap
        ids = sorted(int(r[0][1:]) for r in db.execute("SELECT id FROM games WHERE id LIKE 'p%'"))
    db.close()
    assert ids == list(range(len(ids)))
    assert not (tmp_path / "copy.partial").exists()


def test_a_restore_moves_the_records_it_replaces_aside_and_refuses_a_held_data_dir(
    tmp_path: Path,
) -> None:
    settings = _records(tmp_path / "d", 3)
    copy = tmp_path / "copy"
    backup.backup(settings, copy)
    with sqlite3.connect(settings.db_path) as db:
        db.execute("DELETE FROM games")
    db.close()
    with datadir.acquire(settings.data_dir), pytest.raises(datadir.DataDirHeld):
        backup.restore(settings, copy)
    assert list(Path(settings.data_dir).glob("*.replaced-*")) == []
    restored, moved = backup.restore(settings, copy)
    assert restored.games == 3
    assert [p.name.split(".replaced-")[0] for p in moved] == ["records.sqlite3"]
    with sqlite3.connect(moved[0]) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)
    db.close()


def test_a_file_that_is_not_whole_records_replaces_nothing(tmp_path: Path) -> None:
    settings = _records(tmp_path / "d", 3)
    bad = tmp_path / "bad"
    bad.write_bytes(b"SQLite format 3\0" + b"\xff" * 5000)
    before = settings.db_path.read_bytes()
    with pytest.raises(backup.UpkeepError):
        backup.restore(settings, bad)
    assert settings.db_path.read_bytes() == before


def test_with_postgresql_the_commands_print_pg_dump_and_pg_restore_and_do_nothing(
    tmp_path: Path,
) -> None:
    url = "postgresql://riichi@db.example/riichi"
    for command, tool in (("backup", "pg_dump --format=custom"), ("restore", "pg_restore")):
        done = subprocess.run(
            [sys.executable, "-m", "server", command, str(tmp_path / "f"), "--database-url", url],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 64, done.stderr
        line = next(li.strip() for li in done.stderr.splitlines() if tool in li)
        assert url in line and str(tmp_path / "f") in line
    assert list(tmp_path.iterdir()) == []


def test_backup_without_records_says_so(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server",
            "backup",
            str(tmp_path / "f"),
            "--data-dir",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 66 and "no records to back up" in done.stderr
