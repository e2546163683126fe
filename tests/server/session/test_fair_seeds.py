"""Issue 10, attack 1 (chosen seeds) against a real uvicorn with real httpx/websockets clients.

The invariants: nobody who can share a table with another human chooses or learns its
seed before the game ends; every seat holds a commitment to the seed before its first deal;
after the end the seed is told and ``python -m engine.replay verify`` accepts the game's
record and Tenhou export, and rejects tampered ones.
"""

from __future__ import annotations

import asyncio
import copy
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import msgspec

from engine.rules.wall import seed_commitment
from server.edge.messaging import (
    End,
    EventMsg,
    RoomMsg,
    ServerMessage,
    Snapshot,
    Welcome,
    decode_server,
)
from server.session.hub import Hub
from server.storage.sqlite import Storage
from tests.server.live import WireBot, live_server, open_seat, watch

CHOSEN = 424242


def _verify(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.replay", "verify", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _haipai_at(messages: list[ServerMessage]) -> int:
    """Index of the first message that deals this seat a hand."""
    for i, msg in enumerate(messages):
        raws = [msg.event] if isinstance(msg, EventMsg) else []
        raws += msg.events if isinstance(msg, Snapshot) else []
        if any(msgspec.json.decode(bytes(r))["type"] == "Haipai" for r in raws):
            return i
    raise AssertionError("no Haipai")


async def test_a_chosen_seed_is_only_for_a_practice_room_for_one(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        # the attack: a room another human can sit in, with walls its creator computed
        for extra in ({"bots": 0}, {"bots": 2}, {"bots": 0, "public": False}, {"bots": 4}):
            body = {"name": "Cheat", "preset": "tenhou-tonpuu", "seed": CHOSEN, **extra}
            refused = await http.post("/api/rooms", json=body)
            assert refused.status_code == 400, refused.text
            assert refused.json()["code"] == "seed_not_allowed"
            assert "practice" in refused.json()["message"]
        assert hub.rooms.by_code == {} and (await http.get("/api/rooms")).json()["rooms"] == []
        # without a seed: a fresh secret one each time, committed to, and the joiner sees
        # that the room is not a practice room
        body = {"name": "A", "preset": "tenhou-tonpuu", "bots": 2}
        first, second = [(await http.post("/api/rooms", json=body)).json() for _ in range(2)]
        assert first["room"]["commitment"] != second["room"]["commitment"]
        joined = await http.post(f"/api/rooms/{first['room']['code']}/join", json={"name": "B"})
        assert joined.json()["room"]["practice"] is False
        assert joined.json()["room"]["commitment"] == first["room"]["commitment"]
        # a practice room: labelled everywhere, and nobody else can ever sit
        body = {"name": "P", "preset": "tenhou-tonpuu", "bots": 3, "seed": CHOSEN}
        grant = (await http.post("/api/rooms", json=body)).json()
        code, game = grant["room"]["code"], grant["room"]["game"]
        assert grant["room"]["practice"] is True
        salt = hub.rooms.by_code[code].salt  # v2: salted, the salt told only at the end
        assert grant["room"]["commitment"] == seed_commitment(CHOSEN, salt)
        lobby = {r["code"]: r for r in (await http.get("/api/rooms")).json()["rooms"]}
        assert lobby[code]["practice"] is True
        assert lobby[first["room"]["code"]]["practice"] is False
        assert (await http.get(f"/api/rooms/{code}")).json()["practice"] is True
        for name in ("Joiner", ""):
            refused = await http.post(f"/api/rooms/{code}/join", json={"name": name})
            assert refused.status_code == 409 and refused.json()["code"] == "practice_room"
        assert len(hub.rooms.by_code[code].humans) == 1
        # at the table, then to the end, where the seed is told and the record says practice
        player = WireBot(host, grant["token"], 5)
        async with asyncio.timeout(120):
            await player.play()
        welcome = player.received[0]
        assert isinstance(welcome, Welcome) and welcome.room.practice is True
        end = player.received[-1]
        assert isinstance(end, End) and end.seed == CHOSEN
        record = (await http.get(f"/api/games/{game}/record")).json()
        assert record["practice"] is True and record["seed"] == CHOSEN
        tenhou = (await http.get(f"/api/games/{game}/record", params={"format": "tenhou"})).json()
        assert tenhou["practice"] is True and tenhou["seed"] == CHOSEN
        verified = (await http.get(f"/api/games/{game}/verify")).json()
        assert verified["practice"] is True
        assert verified["commitment_ok"] is True and verified["replay_ok"] is True


class Scan:
    """Every byte served while the game is in play, to be searched for the seed."""

    def __init__(self, hub: Hub, game: str) -> None:
        self.hub = hub
        self.game = game
        self.bodies: list[tuple[str, bytes]] = []

    def over(self) -> bool:
        table = self.hub.tables.get(self.game)
        return table is None or table.finished.is_set()

    async def get(self, http: httpx.AsyncClient, what: str, **kw: Any) -> None:
        """Keep the answer when it was made entirely during play."""
        method, _, url = what.partition(" ")
        response = await http.request(method, url, **kw)
        if not self.over():
            self.bodies.append((what, response.content))


async def _poll(http: httpx.AsyncClient, scan: Scan, code: str, tokens: list[str]) -> None:
    """Every HTTP endpoint, again and again, while the game runs (errors included)."""
    game = scan.game
    while scan.hub.tables.get(game) is None:
        await asyncio.sleep(0.01)
    while not scan.over():
        for token in ["", *tokens]:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            await scan.get(http, f"GET /api/games/{game}/state", headers=headers)
        for fmt in ("json", "tenhou", "mjai", "nope"):
            await scan.get(http, f"GET /api/games/{game}/record", params={"format": fmt})
        await scan.get(http, f"GET /api/games/{game}/verify")
        await scan.get(http, "GET /api/rooms")
        await scan.get(http, f"GET /api/rooms/{code}")
        await scan.get(http, "GET /api/games")
        await scan.get(http, f"POST /api/rooms/{code}/join", json={"name": "Late"})
        await scan.get(http, f"POST /api/rooms/{code}/start", json={"token": tokens[0]})
        bad = {"token": tokens[0], "inquiry": 10**6, "action": 0}
        await scan.get(http, f"POST /api/games/{game}/answer", json=bad)
        await scan.get(http, f"POST /api/games/{game}/answer", content=b"{nope")
        await asyncio.sleep(0.1)


async def _sse(http: httpx.AsyncClient, game: str) -> list[str]:
    """The spectator's event stream up to and including its ``end``."""
    frames: list[str] = []
    async with http.stream("GET", f"/api/games/{game}/events") as response:
        async for line in response.aiter_lines():
            if line.startswith("data: "):
                frames.append(line[6:])
                if isinstance(decode_server(frames[-1]), End):
                    return frames
    return frames


def _before_end(frames: list[str]) -> list[str]:
    *during, last = frames
    assert isinstance(decode_server(last), End)
    return during


async def test_every_seat_holds_the_commitment_first_and_the_seed_only_at_the_end(
    tmp_path: Path,
) -> None:
    async with (
        live_server(tmp_path, spectator_delay_s=0.2, next_round_s=1.0) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=60) as http,
    ):
        body = {"name": "A", "preset": "tenhou-tonpuu", "bots": 0, "base_s": 0.3, "bank_s": 0.5}
        grants = [(await http.post("/api/rooms", json=body)).json()]
        code, game = grants[0]["room"]["code"], grants[0]["room"]["game"]
        for name in "BCD":
            grants.append((await http.post(f"/api/rooms/{code}/join", json={"name": name})).json())
        commitment = grants[0]["room"]["commitment"]
        assert all(g["room"]["commitment"] == commitment for g in grants)
        seed = hub.rooms.by_code[code].seed  # the server's secret, to search the wire for
        salt = hub.rooms.by_code[code].salt  # secret as long as the seed is
        secret = str(seed).encode()
        assert len(secret) >= 12, "too short to search for safely"
        assert seed.bit_length() > 64  # 128-bit seeds (one in 2**64 is shorter)
        tokens = [g["token"] for g in grants]
        bots = [
            WireBot(host, t, i, drop_after=30 if i == 1 else None) for i, t in enumerate(tokens)
        ]
        scan = Scan(hub, game)
        async with asyncio.timeout(180):
            _, sse, watched, _ = await asyncio.gather(
                _poll(http, scan, code, tokens),
                _sse(http, game),
                watch(host, game),
                asyncio.gather(*(b.play() for b in bots)),
            )
        # nothing served during play holds the seed: HTTP, SSE, spectator and seat sockets
        assert len(scan.bodies) > 50, "the game ended before the scan saw it"
        assert {what for what, _ in scan.bodies} >= {"GET /api/rooms", "GET /api/games"}
        leaks = [
            what for what, content in scan.bodies if secret in content or salt.encode() in content
        ]
        assert leaks == []
        for frames in (sse, watched, *(b.frames for b in bots)):
            assert not [f for f in _before_end(frames) if str(seed) in f or salt in f]
        assert bots[1].reconnected_snapshot is not None or any(
            isinstance(m, Snapshot) and m.events for m in bots[1].received
        )
        # every seat had the commitment before its first deal, and the seed at the end
        for bot in bots:
            first = _haipai_at(bot.received)
            told = [
                m.room.commitment for m in bot.received[:first] if isinstance(m, (Welcome, RoomMsg))
            ]
            assert told and set(told) == {commitment}
            end = bot.received[-1]
            assert isinstance(end, End) and end.seed == seed and end.seed_text == str(seed)
            assert end.salt == salt and seed_commitment(end.seed, end.salt) == commitment
        for frames in (sse, watched):
            end = decode_server(frames[-1])
            assert isinstance(end, End) and end.seed == seed
        # the downloads verify; the server says so too
        record = (await http.get(f"/api/games/{game}/record")).content
        tenhou = (await http.get(f"/api/games/{game}/record", params={"format": "tenhou"})).content
        verified = (await http.get(f"/api/games/{game}/verify")).json()
    assert verified == {
        "commitment_ok": True,
        "replay_ok": True,
        "practice": False,
        "drawn": True,
        "draw_ok": True,
        "failures": [],
    }
    doc, log = json.loads(record), json.loads(tenhou)
    assert doc["seed"] == seed and doc["commitment"] == commitment and doc["practice"] is False
    assert log["seed"] == seed and log["commitment"] == commitment
    good = [tmp_path / "record.json", tmp_path / "tenhou.json"]
    good[0].write_bytes(record)
    good[1].write_bytes(tenhou)
    accepted = _verify(*good)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert accepted.stdout.count(": verified:") == 2
    _rejects_tampering(tmp_path, doc, log)


def _rejects_tampering(folder: Path, doc: dict[str, Any], log: dict[str, Any]) -> None:
    tampered: dict[str, Any] = {}
    tampered["seed.json"] = copy.deepcopy(doc)
    tampered["seed.json"]["seed"] += 1
    tampered["decision.json"] = copy.deepcopy(doc)
    middle = tampered["decision.json"]["decisions"][len(doc["decisions"]) // 2]
    middle[2] = 1 - middle[2] if middle[2] in (0, 1) else 0
    tampered["result.json"] = copy.deepcopy(doc)
    tampered["result.json"]["rounds"][0]["deltas"][0] += 1000
    tampered["tenhou-seed.json"] = copy.deepcopy(log)
    tampered["tenhou-seed.json"]["seed"] += 1
    for name, changed in tampered.items():
        (folder / name).write_text(json.dumps(changed))
    rejected = _verify(*(folder / name for name in tampered))
    assert rejected.returncode == 1, rejected.stdout
    lines = rejected.stdout.splitlines()
    assert not any(": verified" in line for line in lines), lines
    for name in tampered:  # each file: at least one line saying why
        assert any(line.startswith(f"{name}: ") for line in lines), (name, lines)
    assert all(line.split(": ")[0] in tampered for line in lines), lines


async def test_a_seat_at_a_practice_table_sees_practice_in_its_welcome(tmp_path: Path) -> None:
    """RoomInfo reaches the table: the welcome of a practice seat says so (and of no other)."""
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        practice = {"name": "P", "bots": 3, "seed": 9, "base_s": 60, "bank_s": 0}
        normal = {"name": "N", "bots": 0}
        for body, expected in ((practice, True), (normal, False)):
            grant = (await http.post("/api/rooms", json=body)).json()
            async with open_seat(f"ws://{host}/ws/play", grant["token"]) as ws:
                welcome = decode_server(await ws.recv())
            assert isinstance(welcome, Welcome) and welcome.room.practice is expected
            assert welcome.room.commitment == grant["room"]["commitment"]


def test_storage_keeps_commitment_and_practice_and_upgrades_an_older_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)  # the games table as it was before these two columns
    old.execute(
        "CREATE TABLE games (id TEXT PRIMARY KEY, room TEXT NOT NULL, preset TEXT NOT NULL, "
        "seed INTEGER NOT NULL, rules TEXT NOT NULL, seats TEXT NOT NULL, "
        "status TEXT NOT NULL, result TEXT)"
    )
    old.execute("INSERT INTO games VALUES ('g0', 'R', 'p', 5, '{}', '[]', 'finished', NULL)")
    old.commit()
    old.close()
    storage = Storage(path)
    try:
        legacy = storage.load("g0")
        assert legacy is not None and legacy.commitment == "" and legacy.practice is False
        assert legacy.draw is None  # seated as they joined: nothing to check
        storage.create_game(
            "g1",
            "R",
            "p",
            7,
            b"{}",
            ["A"],
            commitment=seed_commitment(7),
            practice=True,
            draw=[2, 0, 1, 3],
        )
        stored = storage.load("g1")
        assert stored is not None and stored.seed == 7 and stored.practice is True
        assert stored.draw == [2, 0, 1, 3]
        assert stored.commitment == seed_commitment(7)
    finally:
        storage.close()
