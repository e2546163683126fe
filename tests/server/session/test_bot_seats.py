"""Bots chosen by name per seat (server/session/bots.py), over a real uvicorn: the list, the
refusals, the names on the seats, a game of named bots to its end, and the same bots after a
restart."""

from __future__ import annotations

import random
from pathlib import Path

import anyio
import httpx

from engine.bot import EasyBot, StrongBot
from server.edge.codec import encode
from server.edge.messaging import InquiryMsg, Snapshot, decode_server
from tests.server.live import by_place, live_server, open_seat, pick


async def test_the_bot_list_and_clear_refusals_of_unknown_names(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        listed = (await h.get("/api/bots")).json()
        names = {b["name"]: b["description"] for b in listed["bots"]}
        assert set(names) == {"easy", "strong"} and all(names.values())
        assert listed["default"] == "strong"
        body = {"name": "Ann", "bots": 3, "bot_names": ["easy", "nope"]}
        bad = await h.post("/api/rooms", json=body)
        assert bad.status_code == 400 and bad.json()["code"] == "bad_bot"
        assert "'nope'" in bad.json()["message"] and "strong" in bad.json()["message"]
        # the external seat is not offered by a server without a bot token
        mjai = await h.post("/api/rooms", json={"bots": 1, "bot_names": ["mjai"]})
        assert mjai.status_code == 400 and mjai.json()["code"] == "bad_bot"
        many = await h.post("/api/rooms", json={"bots": 1, "bot_names": ["easy", "easy"]})
        assert many.status_code == 400 and many.json()["code"] == "bad_bots"
        assert (await h.get("/api/rooms")).json()["rooms"] == []  # nothing was made
        grant = (
            await h.post("/api/rooms", json={"name": "Ann", "bots": 2, "bot_names": ["easy"]})
        ).json()
        seats = grant["room"]["seats"]
        assert [s["bot_name"] for s in seats] == [None, None, "easy", "strong"]
        assert [s["bot"] for s in seats] == [False, False, True, True]


async def test_an_all_bot_game_of_named_bots_plays_to_its_end(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        body = {"preset": "tenhou-tonpuu", "bots": 4, "bot_names": ["easy", "strong", "easy"]}
        room = (await h.post("/api/rooms", json=body)).json()
        placed = by_place(room["seats"], room["draw"])  # the names follow the bots' places
        assert [s["bot_name"] for s in placed] == ["easy", "strong", "easy", "strong"]
        table = hub.tables[room["game"]]
        players = table.answers.bots
        kinds = [type(players[seat]) for seat in room["draw"]]
        assert kinds == [EasyBot, StrongBot, EasyBot, StrongBot]
        with anyio.fail_after(60):
            await table.finished.wait()
        assert table.error is None
        record = (await h.get(f"/api/games/{room['game']}/record")).json()
        assert record["status"] == "finished" and len(record["decisions"]) > 100


async def test_a_resumed_game_keeps_each_seats_bot(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 3, "bot_names": ["easy"]}
        grant = (await h.post("/api/rooms", json=body)).json()
        game = grant["room"]["game"]
        async with open_seat(f"ws://{host}/ws/play", grant["token"]) as ws:
            while not hub.tables[game].recording.rounds_at:
                msg = decode_server(await ws.recv())
                inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
                if isinstance(inquiry, InquiryMsg):
                    await ws.send(encode(pick(inquiry, rng)))
    async with live_server(tmp_path, start_grace_s=60) as (host, hub):
        assert hub.resumed.games == 1
        table = hub.tables[game]
        draw = table.room.draw
        placed = by_place(table.room.seats, draw)  # the places drawn before the restart
        assert [s.bot_name for s in placed] == [None, "easy", "strong", "strong"]
        players = table.answers.bots
        assert draw is not None and sorted(players) == sorted(draw[1:])
        assert [type(players[i]) for i in draw[1:]] == [EasyBot, StrongBot, StrongBot]
