"""The replay endpoints against a real uvicorn: a stored game's god view once it is over
(never while it is played), and an uploaded log's, both as the live table encodes events."""

from __future__ import annotations

import asyncio
import copy
import json
import socket
from pathlib import Path
from typing import Any

import httpx

from tests.corpus import files, load
from tests.server.live import WireBot, live_server

TENHOU_4P = {"players": 4, "red": [16, 52, 88], "wall": 70}


async def _replay_while_played(http: httpx.AsyncClient, hub: Any, game: str) -> list[int]:
    """Every status ``GET /api/games/{game}/replay`` answered while the game ran."""
    statuses: list[int] = []
    while hub.tables.get(game) is None:
        await asyncio.sleep(0.01)
    table = hub.tables[game]
    while not table.finished.is_set():
        response = await http.get(f"/api/games/{game}/replay")
        if not table.finished.is_set():
            assert response.status_code in (404, 409), response.text
            assert "events" not in response.json()
            statuses.append(response.status_code)
        await asyncio.sleep(0.05)
    return statuses


async def test_a_stored_game_replays_once_over_and_never_while_played(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=60) as http,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 3}
        grant = (await http.post("/api/rooms", json=body)).json()
        game = grant["room"]["game"]
        player = WireBot(host, grant["token"], 3)
        async with asyncio.timeout(180):
            statuses, _ = await asyncio.gather(_replay_while_played(http, hub, game), player.play())
        assert 409 in statuses  # it was asked while in play, and refused
        record = (await http.get(f"/api/games/{game}/record")).json()
        response = await http.get(f"/api/games/{game}/replay")
        assert response.status_code == 200, response.text
        replay = response.json()
        assert replay["rules"] == TENHOU_4P
        assert replay["names"] == record["seats"] and replay["game"] == game
        events = replay["events"]
        assert events[0]["type"] == "BeginGame" and events[-1]["type"] == "GameEnded"
        assert events[-1]["scores"] == record["result"]["scores"]
        ends = [e for e in events if e["type"] in ("Agari", "Ryuukyoku")]
        assert len(ends) == len(record["rounds"])
        # the god view: every seat's haipai is in it
        assert sum(1 for e in events if e["type"] == "Haipai" and e["tiles"]) == 4 * len(ends)
        assert (await http.get("/api/games/nosuchgame/replay")).status_code == 404


def _corpus(folder: str) -> dict[str, Any]:
    return load(files(folder)[0])


async def test_an_uploaded_log_replays_or_names_its_round(tmp_path: Path) -> None:
    doc = _corpus("tenhou")
    sanma = _corpus("tenhou-sanma")
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=60) as http,
    ):
        response = await http.post("/api/replay", content=json.dumps(doc), headers=_json)
        assert response.status_code == 200, response.text
        replay = response.json()
        assert replay["rules"] == TENHOU_4P and replay["game"] is None
        assert replay["events"][-1]["scores"] == doc["sc"][0:8:2]
        response = await http.post("/api/replay", content=json.dumps(sanma), headers=_json)
        assert response.status_code == 200, response.text
        assert response.json()["rules"]["players"] == 3
        assert response.json()["events"][-1]["scores"] == sanma["sc"][0:6:2]
        # a log whose third hand paid differently: the round is named
        bad = copy.deepcopy(doc)
        third = bad["log"][2]
        third[16][1][0] += 1000
        label = f"{'ESWN'[third[0][0] // 4]}{third[0][0] % 4 + 1}-{third[0][1]}"
        response = await http.post("/api/replay", content=json.dumps(bad), headers=_json)
        assert response.status_code == 422
        assert response.json()["message"].startswith(f"round {label} does not replay")
        # not a log; too large; not JSON
        garbage = await http.post("/api/replay", content=b'{"x": 1}', headers=_json)
        assert garbage.status_code == 422
        huge = b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        answer = await asyncio.to_thread(_refusal, host, huge + b"Content-Length: 2097152\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 413")
        form = await http.post(
            "/api/replay", content=b"log=1", headers={"Content-Type": "text/plain"}
        )
        assert form.status_code == 415


_json = {"Content-Type": "application/json"}


def _refusal(host: str, request: bytes) -> bytes:
    """What the server answers a raw request before hanging up (no body sent)."""
    name, port = host.split(":")
    data = b""
    with socket.create_connection((name, int(port)), timeout=5.0) as sock:
        sock.sendall(request)
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except OSError:
            pass
    return data
