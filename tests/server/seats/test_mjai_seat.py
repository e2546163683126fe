"""An external mjai AI in a seat over ``/ws/mjai`` (real uvicorn, real websockets).

The AI is our own ``python -m engine.bot.mjai`` process, bridged line by line to the socket
as a bot author's script would: it plays a full tonpuusen against built-in bots, its stream
shows only its own tiles, and the record replays. A client whose reactions are nonsense
gets the default for each and the table still ends; wrong tokens and full seats are refused.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.server.live import live_server

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "bot-token-for-tests"
#: the server's seed for the full game: the AI declares riichi in it (the two-step question)
SEED = 5
Event = dict[str, Any]


class Bridge:
    """A bot author's loop: each array from the socket to the mjai process, its line back."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.batches: list[list[Event]] = []

    async def __aenter__(self) -> Bridge:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "engine.bot.mjai",
            "--bot",
            "strong",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.close()
        assert await self.proc.wait() == 0

    async def react(self, line: str) -> str:
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()
        return (await self.proc.stdout.readline()).decode()

    async def play(self, host: str, room: str) -> int:
        """Play the seat to the end; the close code."""
        async with websockets.connect(f"ws://{host}/ws/mjai") as ws:
            await ws.send(json.dumps({"type": "hello", "token": TOKEN, "room": room}))
            try:
                while True:
                    text = await ws.recv()
                    batch = json.loads(text)
                    assert isinstance(batch, list), batch
                    self.batches.append(batch)
                    reaction = await self.react(str(text))
                    if batch[-1]["type"] != "end_game":
                        await ws.send(reaction)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None
                return closed.rcvd.code


async def _room(h: httpx.AsyncClient, names: list[str]) -> Event:
    body = {"preset": "tenhou-tonpuu", "bots": 4, "bot_names": names}
    created = await h.post("/api/rooms", json=body)
    assert created.status_code == 200, created.text
    room: Event = created.json()
    return room


async def test_our_mjai_process_plays_a_full_tonpuusen_over_the_socket(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "server")
    async with (
        live_server(tmp_path, mjai_token=TOKEN) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert "mjai" in {b["name"] for b in (await h.get("/api/bots")).json()["bots"]}
        hub.rooms.new_seed = lambda: SEED  # the server's own draw, pinned
        room = await _room(h, ["strong", "easy", "mjai", "easy"])
        assert room["draw"][2] == 2  # SEED draws the mjai bot's place 2 to seat 2
        assert room["seats"][2]["bot_name"] == "mjai" and room["seats"][2]["connected"] is False
        table = hub.tables[room["game"]]
        async with Bridge() as bridge:
            with anyio.fail_after(120):
                code = await bridge.play(host, room["code"])
        assert code == 1000 and table.finished.is_set() and table.error is None
        events = [e for batch in bridge.batches for e in batch]
        assert events[0] == {"type": "start_game", "id": 2, "names": events[0]["names"]}
        assert events[-1]["type"] == "end_game"
        kyoku = [e for e in events if e["type"] == "start_kyoku"]
        assert len(kyoku) >= 4
        for e in kyoku:  # its own view only: others' haipai and draws are hidden
            assert all(t == ["?"] * 13 for s, t in enumerate(e["tehais"]) if s != 2)
            assert "?" not in e["tehais"][2]
        draws = [e for e in events if e["type"] == "tsumo"]
        assert all((e["pai"] == "?") == (e["actor"] != 2) for e in draws)
        assert sum(e["type"] == "dahai" and e["actor"] == 2 for e in events) > 20
        # riichi: after its "reach" the AI is sent its own reach event and names the discard
        assert [{"type": "reach", "actor": 2}] in bridge.batches
        assert any(b[-1]["type"] == "dahai" and b[-1]["actor"] != 2 for b in bridge.batches)
        assert not [r for r in caplog.records if "no legal choice" in r.getMessage()]
        verified = (await h.get(f"/api/games/{room['game']}/verify")).json()
        assert verified["replay_ok"] and verified["commitment_ok"], verified
        record = (await h.get(f"/api/games/{room['game']}/record")).json()
        seat_decisions = [d for d in record["decisions"] if d[1] == 2]
        assert len(seat_decisions) > 20 and not any(d[4] for d in seat_decisions)  # no time-outs


async def test_nonsense_reactions_get_the_default_and_the_table_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "server")
    async with (
        live_server(tmp_path, mjai_token=TOKEN) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        room = await _room(h, ["easy", "mjai", "easy", "easy"])
        table = hub.tables[room["game"]]
        replies = [{"type": "dahai", "actor": 1, "pai": "9z"}, {"type": "pon"}, "not json"]
        asked = 0
        async with websockets.connect(f"ws://{host}/ws/mjai") as ws:
            await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
            with anyio.fail_after(60):
                while asked < 12:
                    batch = json.loads(await ws.recv())
                    reply = replies[asked % 3]
                    await ws.send(reply if isinstance(reply, str) else json.dumps(reply))
                    asked += 1
        illegal = [r for r in caplog.records if "no legal choice" in r.getMessage()]
        assert len(illegal) >= 8, [r.getMessage() for r in caplog.records]  # "none" may be legal
        assert TOKEN not in caplog.text
        assert batch  # the last array it was sent
        # the AI left: its seat plays on the clock's defaults until it comes back
        with anyio.fail_after(5):
            while room["status"] != "playing" or table.room.seats[1].connected:
                room = (await h.get(f"/api/rooms/{room['code']}")).json()
                await anyio.sleep(0.05)
        assert table.error is None


async def test_wrong_tokens_and_missing_seats_are_refused(tmp_path: Path) -> None:
    async with live_server(tmp_path, mjai_token=TOKEN) as (host, _):
        for hello in ({"type": "hello", "token": "guess"}, {"token": TOKEN}, {"type": "hello"}):
            async with websockets.connect(f"ws://{host}/ws/mjai") as ws:
                await ws.send(json.dumps(hello))
                error = json.loads(await ws.recv())
                assert error["type"] == "error"
                with pytest.raises(ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
        async with websockets.connect(f"ws://{host}/ws/mjai") as ws:  # no room has one
            await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
            assert json.loads(await ws.recv())["code"] == "no_seat"
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4005
    async with (
        live_server(tmp_path / "off") as (host, _),
        websockets.connect(f"ws://{host}/ws/mjai") as ws,
    ):  # no token set: nobody is let in, not even with an empty one
        await ws.send(json.dumps({"type": "hello", "token": ""}))
        assert json.loads(await ws.recv())["code"] == "bad_token"
