"""PostgreSQL refusing writes under a real ``python -m server --database-url`` mid-game: the
table is suspended (never ``error``), /healthz answers 503 with the reason and a new room a
clear 503; once the database takes writes again the game goes on by itself, with no restart,
to an end that verifies (issue 31, finding 4, for the cluster's store).

The fault is PostgreSQL's own: the database is made read-only for new sessions and the
server's sessions are ended (``pg_terminate_backend``), so the server's next write finds its
connection lost and every new one refuses writes (SQLSTATE 25006); then the database is made
writable and the sessions ended again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from server.edge.messaging import EventMsg, ServerMessage
from tests import system
from tests.server.procs import Player, ServerProcess
from tests.server.storage.test_disk_full import _until
from tests.services import fresh_database, postgres_server

DB = "faulty"


@pytest.fixture
def database() -> Iterator[tuple[str, str]]:
    """(the admin URL, the URL of an empty database for the server)."""
    system.postgres()
    with postgres_server() as url:
        yield url, fresh_database(url, DB)


def _read_only(admin: str, on: bool) -> None:
    """New sessions of the database refuse (or take) writes; its open sessions end."""
    with psycopg.connect(admin, autocommit=True) as conn:
        flag = "on" if on else "off"
        conn.execute(f'ALTER DATABASE "{DB}" SET default_transaction_read_only = {flag}')
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (DB,),
        )


async def test_a_database_that_refuses_writes_suspends_the_game_until_it_writes_again(
    tmp_path: Path, database: tuple[str, str]
) -> None:
    admin, url = database
    server = ServerProcess(tmp_path, RIICHI_DATABASE_URL=url)
    events = [0]
    faulted = [False]

    def fault_once(player: Player, msg: ServerMessage) -> bool:
        if isinstance(msg, EventMsg):
            events[0] += 1
            if events[0] == 60 and not faulted[0]:
                faulted[0] = True
                _read_only(admin, True)
        return False

    await server.start()
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=10) as h:
            body = {"preset": "tenhou-tonpuu", "bots": 3, "name": "me"}
            grant = (await h.post("/api/rooms", json=body)).json()
            game, code = grant["room"]["game"], grant["room"]["code"]
            player = Player(server.host, grant["token"], 3, fault_once)
            playing = asyncio.create_task(player.play())

            async def unhealthy() -> bool:
                return (await h.get("/healthz")).status_code == 503

            await _until(unhealthy, "a write to be refused")
            health = (await h.get("/healthz")).json()
            assert health["ok"] is False and "cannot be written" in health["reason"], health
            assert (await h.get(f"/api/rooms/{code}")).json()["status"] == "suspended"
            refused = await h.post("/api/rooms", json={**body, "name": "late"})
            assert refused.status_code == 503 and refused.json()["code"] == "storage"
            await asyncio.sleep(1.0)  # a while refused: nothing ends the game
            assert (await h.get(f"/api/rooms/{code}")).json()["status"] == "suspended"
            _read_only(admin, False)

            async def healthy() -> bool:
                return (await h.get("/healthz")).status_code == 200

            await _until(healthy, "the database to take writes again")
            await asyncio.wait_for(playing, 300)
            verdict = (await h.get(f"/api/games/{game}/verify")).json()
            record = (await h.get(f"/api/games/{game}/record")).json()
    finally:
        server.stop()
    assert faulted[0] and 1012 in player.closes  # told to reconnect, as at a stop
    assert player.ended and record["status"] == "finished"
    assert verdict["commitment_ok"] and verdict["replay_ok"], verdict
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log, log[-3000:]
