"""``python -m server doctor`` (issue 44): passes on a clean database of real ranked games,
and finds a planted truncated record, a missing decision and a rating edited by hand."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from server.settings import Settings
from server.upkeep import doctor
from tests.server.upkeep.ranked_db import build

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with three counted ranked games (made once, copied by each test)."""
    data = tmp_path_factory.mktemp("ranked") / "d"
    anyio.run(build, data)
    return data


def _copy(clean: Path, tmp_path: Path) -> Path:
    shutil.copytree(clean, tmp_path / "d")
    return tmp_path / "d"


def _doctor(data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "doctor", "--data-dir", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _edit(data: Path, sql: str) -> None:
    with sqlite3.connect(data / "records.sqlite3") as db:
        db.execute(sql)
    db.close()


def test_a_clean_database_passes_every_check(clean: Path, tmp_path: Path) -> None:
    data = _copy(clean, tmp_path)
    before = (data / "records.sqlite3").read_bytes()
    done = _doctor(data)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "integrity_check: ok" in out
    assert "records: 3 of 3 games read (3 finished)" in out
    assert "replays: 3 games replayed" in out
    assert "ratings: 5 of 5 standings equal their 3 counted games" in out
    assert out.rstrip().endswith("doctor: no problem found")
    assert (data / "records.sqlite3").read_bytes() == before  # it wrote nothing


def test_a_truncated_round_result_is_found(clean: Path, tmp_path: Path) -> None:
    data = _copy(clean, tmp_path)
    _edit(data, "UPDATE rounds SET data = substr(data, 1, length(data) / 2) WHERE n = 0")
    done = _doctor(data)
    assert done.returncode == 1
    assert done.stdout.count("its record does not read: round result 0 does not read") == 3
    assert "doctor: 3 problems found" in done.stdout


def test_a_truncated_game_log_is_found_by_its_replay(clean: Path, tmp_path: Path) -> None:
    data = _copy(clean, tmp_path)
    _edit(
        data,
        "DELETE FROM decisions WHERE (game, n) = (SELECT game, max(n) FROM decisions "
        "WHERE game = (SELECT min(id) FROM games))",
    )
    done = _doctor(data)
    assert done.returncode == 1
    assert "(finished) does not replay: the game does not end with its" in done.stdout


def test_a_rating_edited_by_hand_is_found(clean: Path, tmp_path: Path) -> None:
    data = _copy(clean, tmp_path)
    _edit(
        data,
        "UPDATE standings SET rating = rating + 25 WHERE account = (SELECT id FROM accounts "
        "WHERE name = 'bo')",
    )
    report = doctor.examine(Settings(data_dir=str(data)), say=lambda _: None)
    assert len(report.problems) == 1, report.problems
    assert report.problems[0].startswith("standing of account ")
    assert "in tonpuu: stored" in report.problems[0]


def test_a_damaged_file_is_found(clean: Path, tmp_path: Path) -> None:
    data = _copy(clean, tmp_path)
    db = data / "records.sqlite3"
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])  # the file cut in half
    done = _doctor(data)
    assert done.returncode == 1
    assert "problem:" in done.stdout


def test_a_deleted_account_leaves_the_others_standings_recomputable(
    clean: Path, tmp_path: Path
) -> None:
    """Its seats keep the R they played at (rating less its change), so the others' changes
    count again as they were counted; only the deleted standing is gone."""
    from server.storage import accounts, ranked
    from server.storage.sqlite import Storage

    data = _copy(clean, tmp_path)
    store = Storage(data / "records.sqlite3")
    try:
        row = accounts.by_key(store, "ann")
        assert row is not None
        accounts.delete(store, row.id, ranked.seats_json_of(store, row.id))
    finally:
        store.close()
    report = doctor.examine(Settings(data_dir=str(data)), say=lambda _: None)
    assert report.problems == []


def test_on_postgresql_the_same_checks_pass_and_find_an_edited_rating(tmp_path: Path) -> None:
    """``doctor --database-url``: one read-only snapshot of a real PostgreSQL with the same
    kind of games (made through the PostgreSQL store); a hand-edited R is found there too."""
    import psycopg

    from tests import system
    from tests.services import fresh_database, postgres_server

    system.postgres()
    with postgres_server() as server:
        url = fresh_database(server, "doctor")
        anyio.run(build, tmp_path / "d", 3, url)
        done = _doctor_url(url)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "records: 3 of 3 games read (3 finished)" in done.stdout
        assert "ratings: 5 of 5 standings equal their 3 counted games" in done.stdout
        with psycopg.connect(url, autocommit=True) as db:
            db.execute(
                "UPDATE standings SET points = points + 100 WHERE account IN "
                "(SELECT id FROM accounts WHERE name = 'cy')"
            )
        done = _doctor_url(url)
        assert done.returncode == 1
        assert done.stdout.count("problem: standing of account") == 1


def _doctor_url(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "doctor", "--database-url", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_seat_the_game_did_not_count_for_is_counted_as_it_was(tmp_path: Path) -> None:
    """A seat whose account was banned during the game kept its standing while the others
    moved (docs/ranking.md, "What counts"): the doctor reads the stored reason back."""
    data = tmp_path / "d"
    anyio.run(build, data, 2, "", (1, 2))
    with sqlite3.connect(data / "records.sqlite3") as db:
        kept = db.execute("SELECT count(*) FROM ranked_seats WHERE reason = 'banned'").fetchone()
    db.close()
    assert kept == (1,)
    report = doctor.examine(Settings(data_dir=str(data)), say=lambda _: None)
    assert report.problems == []
