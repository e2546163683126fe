"""One data dir, one server (issue 44): a second ``python -m server`` on a data dir a running
server holds stops at once, names the holder's PID and writes nothing; the first one's games
play on and verify. On 91c6984 the second server restored the same game and played it too:
the first died of ``UNIQUE constraint failed: decisions.game, decisions.n`` and the record no
longer replayed."""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.runtime import datadir
from server.runtime.process import WorkerProcess, in_worker
from tests.server.procs import ROOT, ServerProcess, free_port

#: a bots' tonpuusen at this pace plays for about ten seconds
PACE = {"RIICHI_BOT_PACE_S": "0.02", "RIICHI_ROOM_TTL_S": "1"}


def _rows(db: Path, games: list[str]) -> dict[str, list[Any]]:
    """Every row of ``games`` in every table that holds a game's record (read-only)."""
    marks = ", ".join("?" for _ in games)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        found = {
            table: conn.execute(
                f"SELECT * FROM {table} WHERE {key} IN ({marks}) ORDER BY {order}", games
            ).fetchall()
            for table, key, order in (
                ("games", "id", "id"),
                ("decisions", "game", "game, n"),
                ("rounds", "game", "game, n"),
                ("endings", "game", "game"),
                ("rooms", "game", "game"),
                ("seats", "game", "game, seat"),
            )
        }
    conn.close()
    return found


async def _bots_game(http: httpx.AsyncClient) -> str:
    grant = (await http.post("/api/rooms", json={"preset": "tenhou-tonpuu", "bots": 3})).json()
    assert grant["room"]["status"] == "playing", grant
    return str(grant["room"]["game"])


async def _finished(http: httpx.AsyncClient, game: str, within: float = 120) -> None:
    deadline = time.monotonic() + within
    while (await http.get(f"/api/games/{game}/verify")).status_code != 200:
        assert time.monotonic() < deadline, f"game {game} did not finish"
        await asyncio.sleep(0.2)


async def test_a_second_server_on_a_held_data_dir_stops_and_the_first_plays_on(
    tmp_path: Path,
) -> None:
    data = tmp_path / "d"
    data.mkdir()
    first = ServerProcess(data, **PACE)
    try:
        await first.start()
        assert first.proc is not None
        async with httpx.AsyncClient(base_url=f"http://{first.host}", timeout=10) as http:
            done = await _bots_game(http)
            await _finished(http, done)
            playing = await _bots_game(http)
            await asyncio.sleep(1.0)  # some of its decisions are stored
            before = _rows(first.db, [done])
            files = {p.name: p.stat().st_mtime_ns for p in data.iterdir()}
            started = time.monotonic()
            second = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "server",
                    *("--port", str(free_port())),
                    "--data-dir",
                    str(data),
                ],
                cwd=ROOT,
                env=first.env,
                capture_output=True,
                text=True,
                timeout=30,
            )
            took = time.monotonic() - started
            assert second.returncode != 0, second.stderr
            assert took < 10
            assert f"process {first.proc.pid}" in second.stderr, second.stderr
            assert "another server runs on this data dir" in second.stderr
            assert "Traceback" not in second.stderr
            assert _rows(first.db, [done]) == before
            # the game the second server would have restored was in play all along
            assert _rows(first.db, [playing])["games"][0][6] == "playing"
            # nothing of the second one's start touched the lock or wrote a check file
            assert {p.name for p in data.iterdir()} <= set(files) | {"records.sqlite3-wal"}
            assert (data / datadir.LOCK_NAME).stat().st_mtime_ns == files[datadir.LOCK_NAME]
            await _finished(http, playing)
            for game in (done, playing):
                verdict = (await http.get(f"/api/games/{game}/verify")).json()
                assert verdict["replay_ok"] is True, verdict
                record = (await http.get(f"/api/games/{game}/record")).json()
                assert record["status"] == "finished"
        assert first.proc.poll() is None, "the first server died"
    finally:
        first.stop()


def test_the_lock_is_refused_in_this_process_too_and_free_after_release(tmp_path: Path) -> None:
    """``flock`` locks the open file: a second take in the same process is refused (restore
    relies on it), and the holder's PID is what the refusal names."""
    with datadir.acquire(tmp_path / "d") as held:
        with pytest.raises(datadir.DataDirHeld) as refused:
            datadir.acquire(tmp_path / "d")
        assert refused.value.pid is not None and refused.value.pid > 0
        assert held.path.read_text().strip() == str(refused.value.pid)
    datadir.acquire(tmp_path / "d").release()


def _run_server_in_worker(data_dir: str) -> str:
    """In a spawned worker: the server's start, as ``python -m server`` runs it."""
    import server.__main__ as entry

    sys.argv = ["server", "--port", "0", "--data-dir", data_dir]
    try:
        entry.main()
    except WorkerProcess as exc:
        return f"refused: {exc}"
    except SystemExit as exc:
        return f"exited {exc.code}"
    return "ran"


def _lifespan_in_worker(data_dir: str) -> str:
    """In a spawned worker: the app (its store) and its lifespan (restore, then suspend)."""
    import anyio

    from server.app import create_app
    from server.settings import Settings

    async def start() -> None:
        app = create_app(Settings(data_dir=data_dir))
        async with app.router.lifespan_context(app):
            pass

    try:
        anyio.run(start)
    except WorkerProcess as exc:
        return f"refused: {exc}"
    return "ran"


def test_a_spawned_worker_never_runs_the_servers_start_or_stop(tmp_path: Path) -> None:
    """The review pool's kind of process (``spawn``, as server/review/jobs.py starts it):
    ``main`` is refused before it takes the data dir, the lifespan before it restores."""
    assert not in_worker()
    data = tmp_path / "d"
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        assert pool.apply(_run_server_in_worker, (str(data),)).startswith("refused: the server")
        assert not data.exists()  # not even the data dir was made
        data.mkdir()
        said = pool.apply(_lifespan_in_worker, (str(data),))
    assert said.startswith("refused: the server's start"), said
    assert list(data.iterdir()) == []  # no store was opened
