"""A ban or a deletion reaches a ranked game in progress (issue 43 #5): from then on the
seat's token grants nothing and it plays the default; the game counts for the others and
not for it. A deleted account keeps its name taken until the game has counted, then goes,
so it cannot re-register into a second ranked seat meanwhile."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.server.ladder.test_ranked_absent import PASSWORD, accounts, seated
from tests.server.live import WireBot, live_server

ROOT = Path(__file__).resolve().parents[3]
LOBBY = json.dumps([{"name": "quick", "preset": "tenhou-tonpuu", "base_s": 0.05, "bank_s": 0}])
SETTINGS = {
    "ranked_lobbies": LOBBY,
    "start_grace_s": 5,
    "next_round_s": 0.2,
    "ranked_draw_s": 0.05,
    "forfeit_sweep_s": 0.1,
}


def _ban(data_dir: Path, name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server", "accounts", "ban", name, "--data-dir", str(data_dir)],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["banned", "deleted"])
async def test_a_seat_lost_mid_game_plays_the_default_and_does_not_count_for_it(
    tmp_path: Path, how: str
) -> None:
    async with (
        live_server(tmp_path, **SETTINGS) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        tokens = await accounts(http, ["a", "b", "c", "lost"])
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            await http.post("/api/queue", json={"lobby": "quick"}, headers=auth)
        grants = await seated(http, tokens)
        game, seat = grants["lost"]["game"], grants["lost"]["seat"]
        bots = {n: WireBot(host, grants[n]["token"], seed=i) for i, n in enumerate(tokens)}
        plays = {n: asyncio.ensure_future(b.play()) for n, b in bots.items()}
        store = hub.storage
        for _ in range(600):  # the seat's player has answered a few decisions itself
            mine = store.query(
                "SELECT count(*) FROM decisions WHERE game = ? AND seat = ? AND timeout = 0",
                (game, seat),
            )[0][0]
            if mine >= 3:
                break
            await asyncio.sleep(0.02)
        assert mine >= 3
        auth = {"Authorization": f"Bearer {tokens['lost']}"}
        if how == "banned":
            await asyncio.to_thread(_ban, tmp_path, "lost")
        else:
            gone = await http.request(
                "DELETE", "/api/account", json={"password": PASSWORD}, headers=auth
            )
            assert gone.status_code == 200, gone.text
            # the name is still taken: no second account, so no second ranked seat
            again = await http.post("/api/accounts", json={"name": "lost", "password": PASSWORD})
            assert (again.status_code, again.json()["code"]) == (409, "name_taken")
            login = await http.post("/api/session", json={"name": "lost", "password": PASSWORD})
            assert login.status_code == 401
        for _ in range(200):  # the seat's token grants nothing from the sweep on
            if hub.rooms.seat_of(grants["lost"]["token"]) is None:
                break
            await asyncio.sleep(0.02)
        assert hub.rooms.seat_of(grants["lost"]["token"]) is None, "the token still plays"
        lost_at = store.query("SELECT count(*) FROM decisions WHERE game = ?", (game,))[0][0]
        await asyncio.wait_for(asyncio.gather(*(plays[n] for n in "abc")), 240)
        with pytest.raises(Exception):  # noqa: B017 - the socket was closed under it (4001)
            await plays["lost"]
        rows = store.query(
            "SELECT n, timeout FROM decisions WHERE game = ? AND seat = ? AND n >= ?",
            (game, seat, lost_at),
        )
        assert rows and all(r[1] for r in rows)  # the default from then on
        record = (await http.get(f"/api/games/{game}/record")).json()
        assert record["result"]["counted"] is True  # for the others
        for name in "abc":
            profile = (await http.get(f"/api/players/{name}")).json()
            assert profile["lobbies"][0]["games"] == 1
            assert profile["history"][0]["counted"] is True
        got = store.query(
            "SELECT counted, reason FROM ranked_seats WHERE game = ? AND seat = ?", (game, seat)
        )
        assert tuple(got[0]) == (0, how)
        if how == "banned":
            profile = (await http.get("/api/players/lost")).json()
            assert profile["lobbies"] == []  # no standing moved
            assert (profile["history"][0]["counted"], profile["history"][0]["reason"]) == (
                False,
                "banned",
            )
        else:  # gone once the game counted: the name is free, a new account holds no seat
            assert (await http.get("/api/players/lost")).status_code == 404
            made = await http.post("/api/accounts", json={"name": "lost", "password": PASSWORD})
            assert made.status_code == 201
            login = await http.post("/api/session", json={"name": "lost", "password": PASSWORD})
            fresh = {"Authorization": f"Bearer {login.json()['token']}"}
            assert (await http.get("/api/queue", headers=fresh)).json()["state"] == "idle"
