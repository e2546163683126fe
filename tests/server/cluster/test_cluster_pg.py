"""Two ``python -m server`` nodes on one real Redis and one real PostgreSQL (docs/scaling.md):
a game played on node A, through a kill -9 of A and its restart, is resumed by A from the
shared database, and node B lists it and serves its record as A does."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import system
from tests.server.cluster.test_cluster import api, eventually, nodes
from tests.server.procs import Player, Watcher
from tests.services import fresh_database, postgres_server, redis_server


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    """(Redis URL, PostgreSQL URL of an empty database)."""
    system.redis()
    system.postgres()
    with redis_server() as redis_url, postgres_server() as pg_url:
        yield redis_url, fresh_database(pg_url, "riichi")


async def test_a_game_on_a_survives_kill_9_and_b_lists_and_serves_its_record(
    tmp_path: Path, services: tuple[str, str]
) -> None:
    redis_url, pg_url = services
    async with nodes(tmp_path, redis_url, RIICHI_DATABASE_URL=pg_url) as (a, b):
        body = {"name": "Ann", "bots": 3, "preset": "tenhou-tonpuu"}
        made = (await api(a, "POST", "/api/rooms", json=body)).json()
        game = made["room"]["game"]
        player = Player(a.host, made["token"], seed=5)
        watcher = Watcher(b.host, game)
        tasks = [asyncio.create_task(player.play()), asyncio.create_task(watcher.play())]
        await eventually(lambda: asyncio.sleep(0, player.events > 30))

        async def playing_on_b() -> bool:  # B reads A's game from the shared database
            games = (await api(b, "GET", "/api/games?status=playing")).json()["games"]
            return game in [g["id"] for g in games]

        try:  # a loaded machine: B reads through a thread
            await eventually(playing_on_b, 45.0)
        except AssertionError as exc:  # a rare failure in CI: say what each node saw
            seen = (await api(b, "GET", f"/api/games/{game}/record")).json().get("status")
            logs = [(tmp_path / n / "server.log").read_text()[-3000:] for n in "ab"]
            why = f"B never listed {game} as playing (record: {seen}); {logs}"
            raise AssertionError(why) from exc
        a.kill()
        before = (await api(b, "GET", f"/api/games/{game}/record")).json()
        assert before["status"] == "playing" and before["seed"] is None
        assert len(before["decisions"]) > 0
        await a.start()  # the same node id: it takes its room back from PostgreSQL
        await asyncio.wait_for(asyncio.gather(*tasks), 150)
        assert player.ended and watcher.ended and player.welcomes >= 2  # came back to A
        assert watcher.gaps == []

        async def finished_on_b() -> bool:
            games = (await api(b, "GET", "/api/games?status=finished")).json()["games"]
            return game in [g["id"] for g in games]

        await eventually(finished_on_b)
        for fmt in ("json", "tenhou"):
            path = f"/api/games/{game}/record?format={fmt}"
            there, here = await api(b, "GET", path), await api(a, "GET", path)
            assert there.status_code == here.status_code == 200
            assert there.content == here.content
        record = (await api(b, "GET", f"/api/games/{game}/record")).json()
        assert record["status"] == "finished" and record["seed"] is not None
        # nothing played before the kill was lost: the stored log goes on from it
        assert record["decisions"][: len(before["decisions"])] == before["decisions"]
        assert len(record["decisions"]) > len(before["decisions"])
        verdict = (await api(b, "GET", f"/api/games/{game}/verify")).json()
        assert verdict["commitment_ok"] and verdict["replay_ok"], verdict
        # A kept no SQLite file of its own: the records are in PostgreSQL
        assert not (tmp_path / "a" / "records.sqlite3").exists()
