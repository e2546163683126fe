"""Issue 43 #8c against a real server: a review of a ranked seat asked for by anyone but the
seat's own account is served to all, but does not feed that player's public match rate; the
seat's own account asking for the same review (stored: nothing is computed again) makes it
count."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.ladder.test_ranked_absent import accounts, seated
from tests.server.live import WireBot, live_server

LOBBY = json.dumps([{"name": "quick", "preset": "tenhou-tonpuu", "base_s": 0.05, "bank_s": 0}])
#: a review starts a worker process (an interpreter importing the engine) on a shared machine
PATIENCE_S = 240.0


async def _reviewed(http: httpx.AsyncClient, game: str, seat: int, **kw: Any) -> dict[str, Any]:
    """Ask for the seat's review (with ``kw``'s headers) and wait until it is done."""
    asked = await http.post(f"/api/games/{game}/review", json={"seat": seat}, **kw)
    assert asked.status_code in (200, 202), asked.text
    deadline = time.monotonic() + PATIENCE_S
    while True:
        got = (await http.get(f"/api/games/{game}/review", params={"seat": seat})).json()
        assert got["status"] != "failed", got
        if got["status"] == "done":
            return dict(got["review"])
        assert time.monotonic() < deadline, got
        await asyncio.sleep(0.5)


@pytest.mark.timeout(600)
async def test_only_the_seats_own_account_feeds_its_match_rate(tmp_path: Path) -> None:
    settings = {"ranked_lobbies": LOBBY, "start_grace_s": 5, "next_round_s": 0.2}
    async with (
        live_server(tmp_path, ranked_draw_s=0.05, review_per_min=1000.0, **settings) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        tokens = await accounts(http, ["me", "rival", "c", "d"])
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            await http.post("/api/queue", json={"lobby": "quick"}, headers=auth)
        grants = await seated(http, tokens)
        bots = [WireBot(host, grants[n]["token"], seed=i) for i, n in enumerate(tokens)]
        await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 240)
        game, seat = grants["me"]["game"], grants["me"]["seat"]
        rival = {"Authorization": f"Bearer {tokens['rival']}"}
        review = await _reviewed(http, game, seat, headers=rival)  # a rival asks for mine
        profile = (await http.get("/api/players/me")).json()
        assert profile["history"][0]["game"] == game
        assert (profile["reviews"], profile["match_rate"]) == ([], None)
        anonymous = await http.post(f"/api/games/{game}/review", json={"seat": seat})
        assert anonymous.status_code == 200  # served to anyone, still not mine
        assert (await http.get("/api/players/me")).json()["match_rate"] is None
        mine = {"Authorization": f"Bearer {tokens['me']}"}
        again = await http.post(f"/api/games/{game}/review", json={"seat": seat}, headers=mine)
        assert again.status_code == 200 and again.json()["review"] == review
        profile = (await http.get("/api/players/me")).json()
        assert profile["match_rate"] == review["match_rate"]
        assert [r["game"] for r in profile["reviews"]] == [game]
