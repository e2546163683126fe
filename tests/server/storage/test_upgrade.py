"""Every database fixture (tests/fixtures/COMMIT/{sqlite,postgres}, written by the server of
an earlier commit with scripts/make-fixture-db.sh and left by a kill -9 in the middle of a
game) opened by today's server, a real ``python -m server``: the schema reaches the latest
version with the columns of a new database, every finished game still verifies and replays,
every profile, account's games list, leaderboard, review and the games list equal what the
old server served (the fixture's expected.json), and the game cut off mid-play resumes, or is
aborted with its reason when its engine version no longer replays it
(server/session/resume.py, engine/version.py). From 0.2.0 on a fixture also holds what that
release added: a finished tournament (its state, standings with a penalty, CSV and export), one
cut off in its first round (its state, and its entrant's seat token), a ranked game whose
banned seat did not count (``counted``/``reason``), and a practice game's ``advice`` count:
each served as before."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
import sqlite3
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from engine.version import ENGINE_VERSION
from server.storage import migrations
from server.storage.postgres import PgStore
from server.storage.sqlite import Storage
from tests.server.procs import ServerProcess
from tests.services import _pg_bin, fresh_database, postgres_server

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SQLITE = sorted(FIXTURES.glob("*/sqlite/records.sqlite3"))
POSTGRES = sorted(FIXTURES.glob("*/postgres/records.sql"))


#: 91c6984: the last server before versioned migrations; daf3ce9: release 0.2.0 (v0.2.0),
#: the first with tournaments, fair play and advice
KEPT = ("91c6984", "daf3ce9")


@pytest.mark.parametrize("commit", KEPT)
def test_the_fixtures_are_there(commit: str) -> None:
    """Every kept fixture stays, on both databases, and 0.2.0's holds what it added."""
    assert FIXTURES / f"{commit}/sqlite/records.sqlite3" in SQLITE
    assert FIXTURES / f"{commit}/postgres/records.sql" in POSTGRES
    if commit == "daf3ce9":
        for flavour in ("sqlite", "postgres"):
            expected = json.loads((FIXTURES / commit / flavour / "expected.json").read_text())
            assert expected["tournaments"] and expected["tournaments_mid"]
            assert any("advice" in g["record"] for g in expected["games"].values())
            history = [h for p in expected["profiles"].values() for h in p["history"]]
            assert any(h.get("reason") == "banned" for h in history)


def _expected(fixture: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((fixture.parent / "expected.json").read_text())
    return found


def _env(expected: dict[str, Any]) -> dict[str, str]:
    return {
        "RIICHI_RANKED_LOBBIES": expected["ranked_lobbies"],
        "RIICHI_NODE_ID": expected["node_id"],  # the node whose rooms it restores
        "RIICHI_REPLAY_PER_MIN": "100000",
        "RIICHI_REVIEW_PER_MIN": "100000",
    }


def _digest(value: Any) -> str:
    """scripts/make_fixture_db.py's digest of a review's report."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _summary(record: dict[str, Any]) -> dict[str, Any]:
    """scripts/make_fixture_db.py's summary of a record."""
    keys = ("id", "preset", "seed", "seats", "status", "result", "commitment", "salt", "draw")
    return {
        **{k: record.get(k) for k in keys},
        "engine": record.get("engine"),
        "decisions": len(record["decisions"]),
        "rounds": len(record["rounds"]),
        **({"advice": record["advice"]} if "advice" in record else {}),
    }


async def _get(http: httpx.AsyncClient, url: str, **params: Any) -> Any:
    got = await http.get(url, params=params)
    assert got.status_code == 200, f"{url}: {got.status_code} {got.text}"
    return got.json()


def _since_0003(profile: dict[str, Any]) -> dict[str, Any]:
    """A profile as step 0003 serves it (issue 43): every game stored before it counted
    (``"counted": true`` in its history), and no stored review was known to be asked for by
    the seat's own account, so none feeds the match rate (the owner asking again marks it).
    A profile served by a server with fair play (0.2.0 on: ``counted`` in every history
    entry) is served as it was."""
    if all("counted" in h for h in profile["history"]):
        return profile
    history = [{**h, "counted": True} for h in profile["history"]]
    return {**profile, "history": history, "reviews": [], "match_rate": None}


async def _served_as_before(server: ServerProcess, expected: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=60) as http:
        for game, old in expected["games"].items():
            record = await _get(http, f"/api/games/{game}/record")
            assert _summary(record) == old["record"], game
            verdict = await _get(http, f"/api/games/{game}/verify")
            assert verdict == old["verify"] and verdict["replay_ok"] is True, game
            for fmt in ("tenhou", "mjai"):  # replayed by the engine from seed and decisions
                got = await http.get(f"/api/games/{game}/record", params={"format": fmt})
                assert got.status_code == 200, (game, fmt, got.text)
            replay = await http.get(f"/api/games/{game}/replay")
            assert replay.status_code == 200, (game, replay.text)
        assert await _get(http, "/api/games", limit=100) == expected["games_list"]
        for name, profile in expected["profiles"].items():
            assert await _get(http, f"/api/players/{name}") == _since_0003(profile), name
            games = expected["player_games"][name]
            counted = [{"counted": True, **g} for g in games["games"]]  # as 0003 serves
            assert await _get(http, f"/api/players/{name}/games") == {**games, "games": counted}
        lobby = expected["leaderboard"]["lobby"]
        assert await _get(http, "/api/leaderboard", lobby=lobby) == expected["leaderboard"]
        for key, old in expected["reviews"].items():
            game, seat, engine = key.split("/")
            body = await _get(http, f"/api/games/{game}/review", seat=seat, engine=engine)
            assert {**body, "review": _digest(body["review"])} == old, key
        await _tournaments(http, expected)
        await _mid_play(http, server, expected)


async def _tournaments(http: httpx.AsyncClient, expected: dict[str, Any]) -> None:
    """A finished tournament's state, standings (penalties counted) and export as before; one
    cut off in its first round still running it, its entrant's seat token the same."""
    for tid, old in expected.get("tournaments", {}).items():
        assert old["tournament"]["state"] == "finished" and old["tournament"]["penalties"]
        found = await _get(http, f"/api/tournaments/{tid}")
        assert found == old["tournament"], tid
        assert await _get(http, f"/api/tournaments/{tid}/standings.json") == old["standings_json"]
        csv = await http.get(f"/api/tournaments/{tid}/standings.csv")
        assert (csv.status_code, csv.text) == (200, old["standings_csv"]), tid
        export = await http.get(f"/api/tournaments/{tid}/export.zip")
        assert export.status_code == 200, export.text
        with zipfile.ZipFile(io.BytesIO(export.content)) as z:
            assert sorted(z.namelist()) == old["export"], tid
            assert z.read("standings.csv").decode() == old["standings_csv"]
            assert json.loads(z.read("standings.json")) == old["standings_json"]["standings"]
            assert json.loads(z.read("tournament.json")) == old["tournament"]
            assert all(z.read(n) for n in z.namelist())
    for tid, old in expected.get("tournaments_mid", {}).items():
        found = await _get(http, f"/api/tournaments/{tid}")
        was = old["tournament"]
        assert was["state"] == "running" and was["round"] == 1
        # the table the kill cut off resumes (or, under another engine, is aborted: no points)
        assert [t["status"] for t in was["tables"]] == ["playing"]
        assert len(found["tables"]) == 1
        assert found["tables"][0]["status"] in ("playing", "aborted")
        tables = [{**t, "status": "playing"} for t in found["tables"]]
        assert {**found, "tables": tables} == was, tid
        for name, seat in old["seats"].items():
            login = {"name": name, "password": old["password"]}
            token = (await http.post("/api/session", json=login)).json()["token"]
            http.cookies.clear()
            got = await http.get(
                f"/api/tournaments/{tid}/seat", headers={"Authorization": f"Bearer {token}"}
            )
            assert got.json() == seat, name
    if "listing" in expected:
        assert await _get(http, "/api/tournaments") == expected["listing"]


async def _mid_play(
    http: httpx.AsyncClient, server: ServerProcess, expected: dict[str, Any]
) -> None:
    """The game the kill cut off: resumed when today's engine is the one that played it
    (it replays exactly), else resumed or aborted with its reason in the log."""
    game = expected["mid_play"]["game"]
    record = await _get(http, f"/api/games/{game}/record")
    assert record["decisions"], "the kill came after the game had begun"
    if record["status"] == "aborted":
        assert record["engine"] != ENGINE_VERSION, "a game of today's engine must resume"
        server.log.flush()
        log = Path(server.log.name).read_text()
        assert f"(game {game}) cannot be restored: " in log
        return
    assert record["status"] == "playing", record["status"]
    state = await http.get(f"/api/games/{game}/state")
    assert state.status_code == 200, state.text


def _sqlite_columns(path: Path) -> dict[str, set[str]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("fixture", SQLITE, ids=lambda p: p.parent.parent.name)
async def test_a_sqlite_fixture_opens_with_everything_served_as_before(
    fixture: Path, tmp_path: Path
) -> None:
    expected = _expected(fixture)
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy2(fixture, data / "records.sqlite3")
    server = ServerProcess(data, **_env(expected))
    await server.start()
    try:
        await _served_as_before(server, expected)
    finally:
        server.stop()
    with contextlib.closing(sqlite3.connect(data / "records.sqlite3")) as db:
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY 1")]
    assert versions == [s.number for s in migrations.steps()]
    Storage(tmp_path / "new.sqlite3").close()
    assert _sqlite_columns(data / "records.sqlite3") == _sqlite_columns(tmp_path / "new.sqlite3")


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def _pg_columns(url: str) -> dict[str, set[str]]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public'"
        ).fetchall()
    tables: dict[str, set[str]] = {}
    for table, column in rows:
        tables.setdefault(table, set()).add(column)
    return tables


@pytest.mark.timeout(300)
@pytest.mark.parametrize("fixture", POSTGRES, ids=lambda p: p.parent.parent.name)
async def test_a_postgres_fixture_opens_with_everything_served_as_before(
    fixture: Path, tmp_path: Path, pg_url: str
) -> None:
    expected = _expected(fixture)
    url = fresh_database(pg_url, f"fixture_{fixture.parent.parent.name}")
    load = [str(_pg_bin() / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", str(fixture)]
    subprocess.run(load, check=True, capture_output=True)
    server = ServerProcess(tmp_path, RIICHI_DATABASE_URL=url, **_env(expected))
    await server.start()
    try:
        await _served_as_before(server, expected)
    finally:
        server.stop()
    with psycopg.connect(url) as db:
        versions = [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY 1")]
    assert versions == [s.number for s in migrations.steps()]
    new = fresh_database(pg_url, f"new_{fixture.parent.parent.name}")
    PgStore(new, node="").close()
    assert _pg_columns(url) == _pg_columns(new)
