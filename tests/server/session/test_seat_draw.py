"""Seats drawn at the start from the committed seed (issue 36, 6), over a real server.

Players sit down in places (join order, the creator's first); the start moves each place to
the seat ``engine.rules.bagime`` draws from the room's seed, humans and bots alike. The
creator is not always East; a connected player is told its new seat and plays it; the record,
the Tenhou export and mjai name everyone in their drawn seats and the verifier checks the
draw; a restart keeps the seats."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from engine.rules.bagime import bagime
from server.edge.codec import encode as encode_msg
from server.edge.messaging import End, InquiryMsg, Snapshot, Welcome, WireError, decode_server
from tests.server.live import WireBot, live_server, open_seat, pick

ROOMS = 8
CHOSEN = 424242


async def _welcome(host: str, token: str) -> Welcome:
    async with open_seat(f"ws://{host}/ws/play", token) as ws:
        welcome = decode_server(await ws.recv())
    assert isinstance(welcome, Welcome)
    return welcome


async def test_the_creator_is_not_always_east_and_every_place_gets_its_drawn_seat(
    tmp_path: Path,
) -> None:
    """Four humans per room (the table waits for them to connect, so no game runs): every
    player's welcome names the seat the seed draws for their place."""
    creators = []
    async with (
        live_server(tmp_path, start_grace_s=600) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        for n in range(ROOMS):
            names = [f"P{n}-{k}" for k in range(4)]
            body = {"name": names[0], "preset": "tenhou-tonpuu", "bots": 0}
            grants = [(await http.post("/api/rooms", json=body)).json()]
            code = grants[0]["room"]["code"]
            assert grants[0]["seat"] == 0  # before the start a seat is a place
            for name in names[1:]:
                joined = await http.post(f"/api/rooms/{code}/join", json={"name": name})
                grants.append(joined.json())
            room = hub.rooms.by_code[code]
            draw = bagime(room.seed, 4)
            assert room.draw == list(draw) and room.status == "playing"
            assert grants[-1]["seat"] == draw[3]  # the last join started the room
            for place, grant in enumerate(grants):
                welcome = await _welcome(host, grant["token"])
                assert welcome.seat == draw[place], (place, draw)
                assert welcome.room.seats[draw[place]].name == names[place]
                assert welcome.room.owner == draw[0]  # the owner moved with the creator
            creators.append(draw[0])
        # bots are drawn too, and so is a practice room (its one player chose the seed)
        body = {"name": "Two", "preset": "tenhou-tonpuu", "bots": 2}
        grant = (await http.post("/api/rooms", json=body)).json()
        code = grant["room"]["code"]
        await http.post(f"/api/rooms/{code}/join", json={"name": "Other"})
        room = hub.rooms.by_code[code]
        draw = bagime(room.seed, 4)
        assert [room.seats[draw[p]].bot for p in range(4)] == [False, False, True, True]
        body = {"name": "Solo", "preset": "tenhou-tonpuu", "bots": 3, "seed": CHOSEN}
        grant = (await http.post("/api/rooms", json=body)).json()
        assert grant["room"]["practice"] is True
        assert grant["seat"] == bagime(CHOSEN, 4)[0]
        assert (await _welcome(host, grant["token"])).seat == bagime(CHOSEN, 4)[0]
    assert set(creators) != {0}, f"the creator was East in all {ROOMS} rooms: {creators}"


def _verify(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.replay", "verify", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_a_connected_player_is_moved_plays_its_drawn_seat_and_the_exports_agree(
    tmp_path: Path,
) -> None:
    async with (
        live_server(tmp_path, spectator_delay_s=0.2, next_round_s=1.0) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=60) as http,
    ):
        body = {"name": "A", "preset": "tenhou-tonpuu", "bots": 0, "base_s": 5, "bank_s": 5}
        grants = [(await http.post("/api/rooms", json=body)).json()]
        code, game = grants[0]["room"]["code"], grants[0]["room"]["game"]
        creator = WireBot(host, grants[0]["token"], 0)
        playing = asyncio.create_task(creator.play())
        while not creator.received:  # connected at place 0 before anyone else sat down
            await asyncio.sleep(0.01)
        for name in "BCD":
            grants.append((await http.post(f"/api/rooms/{code}/join", json={"name": name})).json())
        seed = hub.rooms.by_code[code].seed
        draw = bagime(seed, 4)
        others = [WireBot(host, g["token"], i + 1) for i, g in enumerate(grants[1:])]
        async with asyncio.timeout(240):
            await asyncio.gather(playing, *(b.play() for b in others))
        record = (await http.get(f"/api/games/{game}/record")).json()
        tenhou = (await http.get(f"/api/games/{game}/record", params={"format": "tenhou"})).json()
        mjai = (await http.get(f"/api/games/{game}/record", params={"format": "mjai"})).text
        verified = (await http.get(f"/api/games/{game}/verify")).json()
    welcomes = [m for m in creator.received if isinstance(m, Welcome)]
    assert welcomes[0].seat == 0 and welcomes[-1].seat == draw[0]
    assert isinstance(creator.received[-1], End) and creator.ended
    # its answers were taken for its drawn seat: none refused as another seat's (stale),
    # some stored as its own; ``already_answered`` is a claim offer the table settled
    # before the answer arrived (another seat's call, or the clock on a loaded machine)
    refused = [m for m in creator.received if isinstance(m, WireError)]
    assert not [m for m in refused if m.code != "already_answered"], refused
    own = [d for d in record["decisions"] if d[1] == draw[0] and not d[4]]
    assert len(own) > 5
    names = ["A", "B", "C", "D"]
    by_seat = [names[draw.index(s)] for s in range(4)]
    assert record["draw"] == list(draw) and record["seats"] == by_seat
    assert tenhou["draw"] == list(draw) and tenhou["name"] == by_seat
    start = json.loads(mjai.splitlines()[0])
    assert start["type"] == "start_game" and start["names"] == by_seat
    assert verified["drawn"] is True and verified["draw_ok"] is True
    assert verified["commitment_ok"] and verified["replay_ok"] and verified["failures"] == []
    files = {name: tmp_path / f"{name}.json" for name in ("record", "tenhou", "bad")}
    files["record"].write_text(json.dumps(record))
    files["tenhou"].write_text(json.dumps(tenhou))
    record["draw"] = [draw[1], draw[0], draw[2], draw[3]]  # two players swap seats
    files["bad"].write_text(json.dumps(record))
    good = _verify(files["record"], files["tenhou"])
    assert good.returncode == 0 and good.stdout.count("seat draw") == 2, good.stdout
    bad = _verify(files["bad"])
    assert bad.returncode == 1 and "bad.json: the seat draw" in bad.stdout, bad.stdout


async def test_a_restart_keeps_the_drawn_seats(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        # a room drawn with its creator away from seat 0 (seeds are secret: try a few); the
        # rooms tried before it play on with bots, and are resumed too
        made = 0
        for _ in range(20):
            made += 1
            body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 3}
            grant = (await h.post("/api/rooms", json=body)).json()
            if grant["seat"] != 0:
                break
        game, token = grant["room"]["game"], grant["token"]
        seat = grant["seat"]
        assert seat != 0, "the creator drew East 20 times"
        before = [s["name"] for s in grant["room"]["seats"]]
        draw = hub.rooms.by_game[game].draw
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            while not hub.tables[game].recording.rounds_at:  # one hand, then the stop
                msg = decode_server(await ws.recv())
                if isinstance(msg, Welcome):
                    assert msg.seat == seat
                inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
                if isinstance(inquiry, InquiryMsg):
                    await ws.send(encode_msg(pick(inquiry, rng)))
    async with (
        live_server(tmp_path, next_round_s=1.0) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=60) as h,
    ):
        assert hub.resumed.games == made
        room = hub.rooms.by_game[game]
        assert room.draw == draw and [s.name for s in room.seats] == before
        assert room.seats[seat].name == "Ann" and not room.seats[seat].bot
        welcome = await _welcome(host, token)
        assert welcome.seat == seat and [s.name for s in welcome.room.seats] == before
        player = WireBot(host, token, 9)
        async with asyncio.timeout(240):
            await player.play()
        record: dict[str, Any] = (await h.get(f"/api/games/{game}/record")).json()
        verified = (await h.get(f"/api/games/{game}/verify")).json()
    assert record["status"] == "finished" and record["draw"] == draw
    assert record["seats"] == before
    assert verified["drawn"] is True and verified["failures"] == []
