"""The ranked queue across two ``python -m server`` nodes on one real Redis and one real
PostgreSQL: accounts registered on one node log in and queue through either (the login
budget one budget on both); each table
forms on exactly one node; with every account joining through both nodes at once, each is
queued once and seated at exactly one table, and a table made this way is played to its end
on its node."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.cluster.test_cluster import api, nodes
from tests.server.procs import Player, ServerProcess
from tests.services import fresh_database, postgres_server, redis_server

PASSWORD = "correct horse battery"
ENV = {
    "RIICHI_LOGIN_ADDRESS_BURST": "1000",
    "RIICHI_LOGIN_ADDRESS_PER_MIN": "6000",
    "RIICHI_LOGIN_PER_MIN": "0.01",
    "RIICHI_RANKED_LOBBIES": '[{"name": "tonpuu", "preset": "tenhou-tonpuu"}]',
}


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    with redis_server() as redis_url, postgres_server() as pg_url:
        yield redis_url, fresh_database(pg_url, "riichi")


async def _account(node: ServerProcess, name: str) -> str:
    made = await api(node, "POST", "/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    login = await api(node, "POST", "/api/session", json={"name": name, "password": PASSWORD})
    assert login.status_code == 200, login.text
    return str(login.json()["token"])


async def _stranger(node: ServerProcess, body: dict[str, str]) -> httpx.Response:
    """A login from 127.0.0.9, an address none of the accounts logged in from."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.9")
    async with httpx.AsyncClient(
        base_url=f"http://{node.host}", transport=transport, timeout=10
    ) as http:
        return await http.post("/api/session", json=body)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _queue(node: ServerProcess, token: str) -> httpx.Response:
    return await api(node, "POST", "/api/queue", json={"lobby": "tonpuu"}, headers=_bearer(token))


async def _status(node: ServerProcess, token: str) -> dict[str, Any]:
    return dict((await api(node, "GET", "/api/queue", headers=_bearer(token))).json())


@pytest.mark.timeout(600)
async def test_one_queue_across_two_nodes_seats_everyone_once(
    tmp_path: Path, services: tuple[str, str]
) -> None:
    redis_url, pg_url = services
    async with nodes(tmp_path, redis_url, RIICHI_DATABASE_URL=pg_url, **ENV) as (a, b):
        both = (a, b)
        tokens = [await _account(both[i % 2], f"racer{i}") for i in range(16)]
        # the login budget is one budget on both nodes: 5 guesses in all, then 429, for a
        # stranger (another address: racer0's own has a budget of its own, issue 43)
        guess = {"name": "racer0", "password": "not it at all"}
        tries = [await _stranger(both[i % 2], guess) for i in range(6)]
        assert [r.status_code for r in tries] == [401] * 4 + [429] * 2  # racer0 logged in once
        # every account asks both nodes at the same moment
        answers = await asyncio.gather(*(_queue(n, t) for t in tokens for n in both))
        codes = Counter(r.status_code for r in answers)
        assert codes == {200: 16, 409: 16}, codes
        refused = [r.json()["code"] for r in answers if r.status_code == 409]
        assert set(refused) <= {"queued", "seated"}
        grants = [await _status(both[i % 2], t) for i, t in enumerate(tokens)]
        assert all(g["state"] == "seated" for g in grants), grants
        # the other node tells the same seat (the marker is in Redis)
        assert [await _status(both[(i + 1) % 2], t) for i, t in enumerate(tokens)] == grants
        tables = Counter(g["game"] for g in grants)
        assert len(tables) == 4 and set(tables.values()) == {4}
        for game in tables:
            seats = sorted(g["seat"] for g in grants if g["game"] == game)
            assert seats == [0, 1, 2, 3]
            where = {g["node"] for g in grants if g["game"] == game}
            assert len(where) == 1  # one node runs it
            code = next(g["code"] for g in grants if g["game"] == game)
            here = [await api(n, "GET", f"/api/rooms/{code}") for n in both]
            assert all(r.status_code == 200 for r in here)
            runs = {r.json()["node"] for r in here}
            assert runs == where
        again = await _queue(a, tokens[0])
        assert (again.status_code, again.json()["code"]) == (409, "seated")
        # one table played to its end on its node: the others may queue again afterwards
        game = next(iter(tables))
        mine = [(t, g) for t, g in zip(tokens, grants, strict=True) if g["game"] == game]
        host = mine[0][1]["node"].removeprefix("http://")
        players = [Player(host, g["token"], seed=i) for i, (_, g) in enumerate(mine)]
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 300)
        assert all(p.ended for p in players)
        for _ in range(100):
            states = [(await _status(a, t))["state"] for t, _ in mine]
            if states == ["idle"] * 4:
                break
            await asyncio.sleep(0.1)
        assert states == ["idle"] * 4
        name = "racer" + str(tokens.index(mine[0][0]))
        profile = (await api(b, "GET", f"/api/players/{name}")).json()
        assert profile["lobbies"][0]["games"] == 1
        assert (await _queue(b, mine[0][0])).json()["state"] == "waiting"
