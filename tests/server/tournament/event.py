"""A tournament run from outside: accounts registered and logged in through the API, the
organiser made admin by the operator's command line, entries, rounds started by the
organiser, and every seat played by its own WebSocket client over /ws/play (the seat's
token from ``GET /api/tournaments/{id}/seat``), reconnecting through restarts."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import httpx

from server.edge.messaging import End, ServerMessage
from tests.server.ladder.test_ranked_live import Steered
from tests.server.procs import ROOT, Player, ServerProcess

PASSWORD = "correct horse battery"
ORGANIZER = "organiser"
#: short clocks: a seat nobody plays times out quickly; bots answer at once
ENV = {
    "RIICHI_LOGIN_ADDRESS_BURST": "200",
    "RIICHI_LOGIN_ADDRESS_PER_MIN": "6000",
    "RIICHI_START_GRACE_S": "5",
    "RIICHI_BOT_THINK_S": "0",
    "RIICHI_REPLAY_PER_MIN": "6000",
}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def register(http: httpx.AsyncClient, names: list[str]) -> dict[str, str]:
    """Each name's bearer token (registered, logged in; no cookies kept)."""
    tokens = {}
    for name in names:
        made = await http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        login = await http.post("/api/session", json={"name": name, "password": PASSWORD})
        assert login.status_code == 200, login.text
        tokens[name] = login.json()["token"]
        http.cookies.clear()
    return tokens


def make_admin(server: ServerProcess, name: str) -> None:
    """``python -m server accounts admin NAME`` on the server's store, beside it."""
    args = [sys.executable, "-m", "server", "accounts", "admin", name]
    if not server.env.get("RIICHI_DATABASE_URL"):
        args += ["--data-dir", str(server.data_dir)]
    env = {**os.environ, **server.env}
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"{name}: admin" in done.stdout


async def create(http: httpx.AsyncClient, organizer: str, **options: Any) -> dict[str, Any]:
    got = await http.post("/api/tournaments", json=options, headers=bearer(organizer))
    assert got.status_code == 201, got.text
    return dict(got.json())


async def enter_all(http: httpx.AsyncClient, tid: str, tokens: dict[str, str]) -> None:
    for name, token in tokens.items():
        got = await http.post(f"/api/tournaments/{tid}/entries", json={}, headers=bearer(token))
        assert got.status_code == 201, got.text
        assert got.json()["name"] == name


async def seats(
    http: httpx.AsyncClient, tid: str, tokens: dict[str, str], round_: int
) -> dict[str, dict[str, Any]]:
    """Every entrant's seat in ``round_`` (polled until its table is seated)."""
    out: dict[str, dict[str, Any]] = {}
    for _ in range(600):
        for name, token in tokens.items():
            if name in out:
                continue
            got = await http.get(f"/api/tournaments/{tid}/seat", headers=bearer(token))
            assert got.status_code == 200, got.text
            seat = got.json()
            if seat["state"] == "seated":
                assert seat["round"] == round_, seat
                out[name] = seat
        if len(out) == len(tokens):
            return out
        await asyncio.sleep(0.1)
    raise TimeoutError(f"seated only {sorted(out)}")


async def fetch(http: httpx.AsyncClient, url: str, **params: str) -> httpx.Response:
    """``GET url``, waiting out the replay budget (``429`` and ``Retry-After``): records,
    verifications and replays replay the game with the engine, and a client has a budget."""
    for _ in range(100):
        got = await http.get(url, params=params)
        if got.status_code != 429:
            return got
        await asyncio.sleep(float(got.headers.get("Retry-After", "1")))
    raise AssertionError(f"{url} stayed rate limited")


async def get(http: httpx.AsyncClient, tid: str) -> dict[str, Any]:
    got = await http.get(f"/api/tournaments/{tid}")
    assert got.status_code == 200, got.text
    return dict(got.json())


Hook = Callable[[Player, ServerMessage], bool]


class Ends:
    """Every End each client saw first (the seed it carried: None while the round runs)."""

    def __init__(self) -> None:
        self.first: dict[str, End] = {}

    def hook(self, player: Player, msg: ServerMessage) -> bool:
        if isinstance(msg, End) and player.token not in self.first:
            self.first[player.token] = msg
        return False


async def play(
    server: ServerProcess,
    grants: dict[str, dict[str, Any]],
    hook: Hook | None = None,
    restarts: Callable[[], int] | None = None,
    fired: asyncio.Event | None = None,
) -> list[Player]:
    """Every seat played to its game's end; each time ``fired`` is set (a kill), the
    server is started again and the clients reconnect."""
    players: list[Player] = [
        Steered(server.host, g["token"], i, hook) for i, g in enumerate(grants.values())
    ]
    playing: asyncio.Future[Any] = asyncio.ensure_future(
        asyncio.gather(*(p.play() for p in players))
    )
    while fired is not None:
        waiting = asyncio.ensure_future(fired.wait())
        await asyncio.wait([waiting, playing], return_when=asyncio.FIRST_COMPLETED)
        if not fired.is_set():
            waiting.cancel()
            break
        fired.clear()
        await server.start()
    await playing
    assert all(p.ended for p in players)
    return players
