"""A ranked seat whose player never plays (never connects, or lets every decision time out)
keeps the real clock, base plus bank as a present seat does, and the game counts for
nobody: no standing moves, and the record and every seat's history say why (issue 43 #1)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import WireBot, live_server

BASE_S, BANK_S = 0.05, 2.0
LOBBY = json.dumps(
    [{"name": "quick", "preset": "tenhou-tonpuu", "base_s": BASE_S, "bank_s": BANK_S}]
)
PASSWORD = "correct horse battery"


async def seated(http: httpx.AsyncClient, tokens: dict[str, str]) -> dict[str, Any]:
    """Every account's grant, once the lobby's draw has seated them all."""
    grants: dict[str, Any] = {}
    for _ in range(300):
        for name, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            grants[name] = (await http.get("/api/queue", headers=auth)).json()
        if {g["state"] for g in grants.values()} == {"seated"}:
            return grants
        await asyncio.sleep(0.05)
    raise AssertionError(f"not seated: {grants}")


async def accounts(http: httpx.AsyncClient, names: list[str]) -> dict[str, str]:
    tokens = {}
    for name in names:
        body = {"name": name, "password": PASSWORD}
        assert (await http.post("/api/accounts", json=body)).status_code == 201
        tokens[name] = (await http.post("/api/session", json=body)).json()["token"]
        http.cookies.clear()
    return tokens


@pytest.mark.timeout(300)
@pytest.mark.parametrize("away", ["absent", "silent"])
async def test_a_seat_that_never_plays_keeps_its_clock_and_the_game_counts_for_nobody(
    tmp_path: Path, away: str
) -> None:
    settings = {"ranked_lobbies": LOBBY, "start_grace_s": 0.5, "next_round_s": 0.2}
    async with (
        live_server(tmp_path, **settings) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        tokens = await accounts(http, ["a", "b", "c", "away"])
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            await http.post("/api/queue", json={"lobby": "quick"}, headers=auth)
        grants = await seated(http, tokens)
        started = time.monotonic()
        bots = [WireBot(host, grants[n]["token"], seed=i) for i, n in enumerate("abc")]
        if away == "silent":  # connected all along, never answering
            bots.append(WireBot(host, grants["away"]["token"], seed=9, silent=10**9))
        await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 240)
        elapsed = time.monotonic() - started
        assert all(b.ended for b in bots)
        game, seat = grants["away"]["game"], grants["away"]["seat"]
        record = (await http.get(f"/api/games/{game}/record")).json()
        mine = [d for d in record["decisions"] if d[1] == seat]
        assert mine and all(d[4] for d in mine)  # every one of its decisions timed out
        # the absent seat's clock ran as a present one's: its whole bank on the first
        # time-out (then the base on each decision), where it used to answer at once
        bank = hub.storage.query("SELECT bank FROM seats WHERE game = ? AND seat = ?", (game, seat))
        assert bank[0][0] == 0.0
        assert elapsed >= BANK_S + BASE_S * len(mine)
        assert record["result"]["counted"] is False
        assert record["result"]["reason"] == "absent"
        for name in tokens:
            profile = (await http.get(f"/api/players/{name}")).json()
            assert profile["lobbies"] == [], name  # no counted game: no standing at all
            (entry,) = profile["history"]
            assert (entry["game"], entry["counted"], entry["reason"]) == (game, False, "absent")
            assert entry["rating_delta"] == 0.0
        rows = hub.storage.query(
            "SELECT counted, reason FROM ranked_seats WHERE game = ? ORDER BY seat", (game,)
        )
        assert [tuple(r) for r in rows] == [(0, "absent")] * 4
