"""Backup and restore from outside (issue 44): a real ``python -m server`` with counted ranked
games plays 20 all-bot tables; ``python -m server backup`` copies its records meanwhile; a
restore over the running server's data dir is refused; the copy restored into a fresh data
dir serves, on a second server, every finished game (verified) and every rating, and its
games in play resume from their last decision committed before the backup."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.procs import ROOT, ServerProcess
from tests.server.upkeep.ranked_db import LOBBY, build

TABLES = 20
ENV = {
    "RIICHI_BOT_PACE_S": "0.05",
    "RIICHI_MAX_OPEN_ROOMS": "100",
    "RIICHI_CREATE_PER_MIN": "1000",
    "RIICHI_MAX_ROOMS": "200",
}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _read(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(sql, args).fetchall()
    conn.close()
    return rows


def _finished_rows(db: Path, game: str) -> list[Any]:
    return [
        _read(db, "SELECT * FROM games WHERE id = ?", (game,)),
        _read(db, "SELECT * FROM decisions WHERE game = ? ORDER BY n", (game,)),
        _read(db, "SELECT * FROM rounds WHERE game = ? ORDER BY n", (game,)),
    ]


async def _ids(http: httpx.AsyncClient, status: str) -> set[str]:
    got = (await http.get("/api/games", params={"status": status, "limit": 100})).json()
    return {g["id"] for g in got["games"]}


async def test_a_backup_of_20_tables_in_play_restores_every_game_and_rating(
    tmp_path: Path,
) -> None:
    source, restored, copy = tmp_path / "a", tmp_path / "b", tmp_path / "backup.sqlite3"
    ranked_games = await build(source)
    first = ServerProcess(source, **ENV)
    second: ServerProcess | None = None
    try:
        await first.start()
        assert first.proc is not None
        async with httpx.AsyncClient(base_url=f"http://{first.host}", timeout=30) as http:
            body = {"preset": "tenhou-tonpuu", "bots": 4}
            for _ in range(TABLES):
                made = await http.post("/api/rooms", json=body)
                while made.status_code == 429:  # the per-address burst of new rooms
                    await asyncio.sleep(1)
                    made = await http.post("/api/rooms", json=body)
                assert made.status_code == 200, made.text
            deadline = time.monotonic() + 240
            while len(await _ids(http, "finished")) <= len(ranked_games):
                assert time.monotonic() < deadline, "no table finished"
                await asyncio.sleep(0.5)
            finished_before = await _ids(http, "finished")
            board = (await http.get("/api/leaderboard", params={"lobby": LOBBY})).json()
            assert len(board["players"]) == 5

            backed = _cli("backup", str(copy), "--data-dir", str(source))
            assert backed.returncode == 0, backed.stderr
            print(backed.stdout.strip())  # the figure: games, pages, seconds
            in_play = int(backed.stdout.split(" finished, ")[1].split(" in play")[0])
            assert in_play >= TABLES // 2, backed.stdout  # the copy was made mid-game

            refused = _cli("restore", str(copy), "--data-dir", str(source))
            assert refused.returncode == 75, refused.stderr
            assert f"process {first.proc.pid}" in refused.stderr
            assert not list(source.glob("*.replaced-*")) and not list(source.glob("*.restoring"))

            done = _cli("restore", str(copy), "--data-dir", str(restored))
            assert done.returncode == 0, done.stderr
            db = restored / "records.sqlite3"
            finished = {r[0] for r in _read(db, "SELECT id FROM games WHERE status = 'finished'")}
            assert finished >= finished_before
            for game in finished:  # a finished game never changes: the same bytes
                assert _finished_rows(db, game) == _finished_rows(first.db, game)
            columns = "account, lobby, dan, points, rating, games, first, second, third, fourth"
            standings = f"SELECT {columns} FROM standings ORDER BY account, lobby"
            assert _read(db, standings) == _read(first.db, standings)
            playing = {
                game: int(n)
                for game, n in _read(
                    db,
                    "SELECT g.id, count(d.n) FROM games g LEFT JOIN decisions d ON d.game = g.id "
                    "WHERE g.status = 'playing' GROUP BY g.id",
                )
            }
            assert len(playing) == in_play
            for game, n in playing.items():  # a prefix of what the first server holds now
                theirs = _read(
                    first.db, "SELECT * FROM decisions WHERE game = ? ORDER BY n", (game,)
                )
                mine = _read(db, "SELECT * FROM decisions WHERE game = ? ORDER BY n", (game,))
                assert len(theirs) >= n and theirs[:n] == mine

        second = ServerProcess(restored, **ENV)
        await second.start()
        async with httpx.AsyncClient(base_url=f"http://{second.host}", timeout=30) as http:
            assert (await http.get("/api/leaderboard", params={"lobby": LOBBY})).json() == board
            for game in finished:
                verdict = (await http.get(f"/api/games/{game}/verify")).json()
                assert verdict["replay_ok"] is True, (game, verdict)
            resumed = await _ids(http, "playing") | await _ids(http, "finished")
            assert set(playing) <= resumed
        log = (restored / "server.log").read_bytes().decode(errors="replace")
        assert f"restored 0 waiting rooms, {len(playing)} games; 0 aborted" in log
    finally:
        first.stop()
        if second is not None:
            second.stop()
