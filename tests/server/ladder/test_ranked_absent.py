"""A ranked seat whose player never connects plays the default at each time-out, and the
game counts for every seat: the absent account's standing moves like the others'."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from tests.server.live import WireBot, live_server

LOBBY = json.dumps([{"name": "quick", "preset": "tenhou-tonpuu", "base_s": 0.05, "bank_s": 0}])
PASSWORD = "correct horse battery"


@pytest.mark.timeout(300)
async def test_an_absent_players_seat_plays_the_default_and_the_game_counts(
    tmp_path: Path,
) -> None:
    settings = {"ranked_lobbies": LOBBY, "start_grace_s": 0.5, "next_round_s": 0.2}
    async with (
        live_server(tmp_path, **settings) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        tokens = {}
        for name in ("a", "b", "c", "away"):
            body = {"name": name, "password": PASSWORD}
            assert (await http.post("/api/accounts", json=body)).status_code == 201
            tokens[name] = (await http.post("/api/session", json=body)).json()["token"]
            http.cookies.clear()
        grants = {}
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            await http.post("/api/queue", json={"lobby": "quick"}, headers=auth)
        for name, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            grants[name] = (await http.get("/api/queue", headers=auth)).json()
        assert {g["state"] for g in grants.values()} == {"seated"}
        bots = [WireBot(host, grants[n]["token"], seed=i) for i, n in enumerate("abc")]
        await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 240)
        assert all(b.ended for b in bots)
        game = grants["away"]["game"]
        record = (await http.get(f"/api/games/{game}/record")).json()
        away = grants["away"]["seat"]
        mine = [d for d in record["decisions"] if d[1] == away]
        assert mine and all(d[4] for d in mine)  # every one of its decisions timed out
        for name in tokens:
            standing = (await http.get(f"/api/players/{name}")).json()["lobbies"][0]
            assert standing["games"] == 1, name
        scores = record["result"]["scores"]
        place = sorted(range(4), key=lambda s: (-scores[s], s)).index(away) + 1
        assert (await http.get("/api/players/away")).json()["history"][0]["place"] == place
