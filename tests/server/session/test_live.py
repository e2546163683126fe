"""End to end: a real uvicorn on loopback, real websockets clients, the real engine."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import httpx
import msgspec
import websockets

from server.edge.messaging import Answered, End, EventMsg, InquiryMsg, Snapshot, decode_server
from server.storage import records
from server.storage.sqlite import StoredGame
from server.version import VERSION
from tests.server.live import WireBot, live_server


def _events(frames: list[str]) -> list[dict[str, object]]:
    out = []
    for text in frames:
        msg = decode_server(text)
        if isinstance(msg, EventMsg):
            out.append(msgspec.json.decode(bytes(msg.event)))
    return out


async def _watch(host: str, game: str, frames: list[tuple[float, str]]) -> None:
    loop = asyncio.get_running_loop()
    async with websockets.connect(f"ws://{host}/ws/watch/{game}") as ws:
        async for text in ws:
            assert isinstance(text, str)
            frames.append((loop.time(), text))
            if isinstance(decode_server(text), End):
                return


def assert_public_while_in_play(frames: list[str], hands: int) -> None:
    """Concealed tiles reach a watcher only in a snapshot after the hand's end, and each
    ended hand's snapshot holds all four starting hands."""
    in_play = False
    reveals = 0
    for n, text in enumerate(frames):
        msg = decode_server(text)
        if isinstance(msg, Snapshot) and n <= 1:  # the state at attach: the public view
            for raw in msg.events:
                event = msgspec.json.decode(bytes(raw))
                assert event.get("tiles") is None and event.get("tile") is None, event
                in_play = in_play or event["type"] == "RoundStarted"
        elif isinstance(msg, EventMsg):
            event = msgspec.json.decode(bytes(msg.event))
            kind = event["type"]
            in_play = kind not in ("Agari", "Ryuukyoku", "GameEnded") and (
                in_play or kind == "RoundStarted"
            )
            if kind == "Haipai":
                assert event["tiles"] is None, event
            if kind == "Draw":
                assert event["tile"] is None, event
        elif isinstance(msg, Snapshot) and msg.events:
            assert not in_play, "a god-view snapshot while a hand is in play"
            god = [msgspec.json.decode(bytes(e)) for e in msg.events]
            assert sum(1 for e in god if e["type"] == "Haipai" and e["tiles"]) == 4
            reveals += 1
    assert reveals == hands


async def test_four_clients_play_a_tonpuusen_through_a_blip_time_outs_and_a_spectator(
    tmp_path: Path,
) -> None:
    async with (
        live_server(tmp_path, next_round_s=1.0) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as http,
    ):
        assert (await http.get("/healthz")).json() == {"ok": True, "version": VERSION}
        body = {"name": "A", "preset": "tenhou-tonpuu", "bots": 0, "base_s": 0.3, "bank_s": 0.5}
        grants = [(await http.post("/api/rooms", json=body)).json()]
        code = grants[0]["room"]["code"]
        listed = (await http.get("/api/rooms")).json()["rooms"]
        assert [r["code"] for r in listed] == [code]
        for name in "BCD":
            grants.append((await http.post(f"/api/rooms/{code}/join", json={"name": name})).json())
        # before the start a seat is its place; the join that fills the room starts it, and
        # its answer already names the seat the seed drew for the last place
        draw = (await http.get(f"/api/rooms/{code}")).json()["draw"]
        assert [g["seat"] for g in grants] == [0, 1, 2, draw[3]]
        game = grants[0]["room"]["game"]
        bots = [
            WireBot(host, grants[0]["token"], 0),
            WireBot(host, grants[1]["token"], 1, drop_after=40),
            WireBot(host, grants[2]["token"], 2, silent=3),
            WireBot(host, grants[3]["token"], 3),
        ]
        watched: list[tuple[float, str]] = []
        async with asyncio.timeout(120):
            await asyncio.gather(*(b.play() for b in bots), _watch(host, game, watched))
        response = await http.get(f"/api/games/{game}/record", params={"format": "json"})
        assert response.status_code == 200
        record = msgspec.json.decode(response.content, type=StoredGame)
        logs = tmp_path / "logs"
        logs.mkdir()
        for fmt, name in (("tenhou", "game.json"), ("mjai", "game.jsonl")):
            exported = await http.get(f"/api/games/{game}/record", params={"format": fmt})
            assert exported.status_code == 200, exported.text
            (logs / name).write_bytes(exported.content)

    assert all(b.ended for b in bots)
    # the blip: the reconnect brought a snapshot of the round so far
    assert bots[1].reconnected_snapshot is not None
    assert bots[1].reconnected_snapshot.events
    # the silent seat's first inquiries timed out to exactly their defaults
    inquiries = {m.id: m for m in bots[2].received if isinstance(m, InquiryMsg)}
    timed_out = [m for m in bots[2].received if isinstance(m, Answered) and m.timeout]
    assert len(timed_out) >= 3
    for answered in timed_out[:3]:
        default = inquiries[answered.inquiry].default
        assert (answered.action, answered.option) == (default.action, default.option)
    # the spectator of a table with humans saw no concealed tile of a hand in play, and
    # every hand's tiles once it had ended (a snapshot of its god view)
    assert_public_while_in_play([text for _, text in watched], len(record.rounds))
    public = _events([text for _, text in watched])
    ended = [e for e in public if e["type"] == "GameEnded"]
    assert len(ended) == 1
    # every seat saw the same final scores, and the record replays to them
    for bot in bots:
        assert [e for e in _events(bot.frames) if e["type"] == "GameEnded"] == ended
    assert record.status == "finished" and record.decisions
    assert list(records.replay(record).scores) == ended[0]["scores"]
    assert isinstance(bots[0].received[-1], End)
    # both exports replay through the engine's own checker, every round matching
    check = subprocess.run(
        [sys.executable, "-m", "engine.replay", "check", str(logs)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    last = check.stdout.strip().splitlines()[-1]
    matched, total = last.split()[1].split("/")
    assert matched == total and int(total) == 2 * len(record.rounds) and last.endswith("2 games")
    assert any(isinstance(m, Snapshot) for m in bots[0].received)


async def test_the_sse_stream_carries_a_whole_bot_game_to_its_end(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, bot_pace_s=0.002) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=30) as http,
    ):
        room = (await http.post("/api/rooms", json={"bots": 4, "preset": "tenhou-tonpuu"})).json()
        messages = []
        async with (
            asyncio.timeout(60),
            http.stream("GET", f"/api/games/{room['game']}/events") as response,
        ):
            assert response.headers["content-type"].startswith("text/event-stream")
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    messages.append(decode_server(line[6:]))
                    if isinstance(messages[-1], End):
                        break
    # an all-bot table is watched in the god view, live: a snapshot, then every event
    snapshot = next(m for m in messages if isinstance(m, Snapshot))
    live = [m for m in messages if isinstance(m, EventMsg)]
    events = [msgspec.json.decode(bytes(e)) for e in snapshot.events]
    events += [msgspec.json.decode(bytes(m.event)) for m in live]
    assert events[-1]["type"] == "GameEnded"
    assert any(e["type"] == "Haipai" and e["tiles"] for e in events)
    assert [m.seq for m in live] == list(range(snapshot.seq, snapshot.seq + len(live)))
