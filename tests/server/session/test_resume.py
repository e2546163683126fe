"""Restarts in-process (real uvicorn, real sockets, one data directory): waiting rooms and
seats come back with the same tokens, a stopped game's record says it is unfinished, a game
the engine no longer replays exactly is aborted, and nothing new starts while stopping."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import anyio
import httpx
import msgspec
import pytest
import websockets

from engine.replay import check, tenhou_read
from server.app import create_app
from server.edge.codec import encode
from server.edge.messaging import End, InquiryMsg, Snapshot, Welcome, WireError, decode_server
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.session.resume import Resumed
from server.settings import Settings
from server.storage import records
from server.storage.sqlite import Storage, StoredGame
from tests.server.http import TestClient
from tests.server.live import WireBot, live_server, open_seat, pick


async def test_a_waiting_room_and_its_seat_token_survive_a_restart(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 2}
        grant = (await h.post("/api/rooms", json=body)).json()
    code, token = grant["room"]["code"], grant["token"]
    assert token.encode() not in (tmp_path / "records.sqlite3").read_bytes()
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert hub.resumed.waiting == 1
        room = (await h.get(f"/api/rooms/{code}")).json()
        assert room["status"] == "waiting" and room["seats"][0]["name"] == "Ann"
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            welcome = decode_server(await ws.recv())
            assert isinstance(welcome, Welcome) and welcome.seat == 0
            joined = await h.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
            # the room fills and starts as before: Bob's place 1 goes to its drawn seat
            draw = hub.rooms.by_code[code].draw
            assert draw is not None and joined.json()["seat"] == draw[1]
            moved = decode_server(await ws.recv())
            while not isinstance(moved, Welcome):  # room updates, then her drawn seat
                moved = decode_server(await ws.recv())
            assert moved.seat == draw[0]


async def _play_one_hand(tmp_path: Path) -> str:
    """One human seat and three bots; the server stops once a hand has been played."""
    rng = random.Random(7)
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 3}
        grant = (await h.post("/api/rooms", json=body)).json()
        game: str = grant["room"]["game"]
        async with open_seat(f"ws://{host}/ws/play", grant["token"]) as ws:
            while not hub.tables[game].recording.rounds_at:
                msg = decode_server(await ws.recv())
                inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
                if isinstance(inquiry, InquiryMsg):
                    await ws.send(encode(pick(inquiry, rng)))
    return game


async def test_a_stopped_game_is_suspended_and_its_record_says_so(tmp_path: Path) -> None:
    game = await _play_one_hand(tmp_path)
    storage = Storage(tmp_path / "records.sqlite3")
    record = storage.load(game)
    storage.close()
    assert record is not None and record.status == "suspended" and len(record.rounds) >= 1
    body, _ = records.export(record, "json")
    labelled = msgspec.json.decode(body, type=StoredGame)
    assert labelled.seed is None and "suspended" in labelled.note
    assert labelled.decisions == record.decisions
    tenhou, _ = records.export(record, "tenhou")
    verdicts = check.check_game(tenhou_read.read_game(msgspec.json.decode(tenhou)))
    assert len(verdicts) == len(record.rounds) and all(v.matched for v in verdicts)


async def test_a_game_the_engine_replays_differently_is_aborted(tmp_path: Path) -> None:
    game = await _play_one_hand(tmp_path)
    with sqlite3.connect(tmp_path / "records.sqlite3") as db:
        db.execute(
            "UPDATE decisions SET hash = '0123456789abcdef' WHERE game = ? AND n = 5", (game,)
        )
    db.close()
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert (hub.resumed.games, hub.resumed.aborted) == (0, 1)
        assert game not in hub.tables
        record = msgspec.json.decode(
            (await h.get(f"/api/games/{game}/record")).content, type=StoredGame
        )
        assert record.status == "aborted" and "aborted" in record.note and record.seed is not None
        tenhou = await h.get(f"/api/games/{game}/record", params={"format": "tenhou"})
        assert tenhou.status_code == 409
        listed = (await h.get("/api/games", params={"status": "aborted"})).json()["games"]
        assert [g["id"] for g in listed] == [game]


def test_nothing_new_starts_while_the_server_stops(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path), bot_think_s=0, bot_pace_s=0.05)
    hub = Hub(settings, Storage(settings.db_path), RealEngine())
    with TestClient(create_app(settings, hub)) as client:
        assert client.post("/api/rooms", json={"bots": 4}).status_code == 200
        assert client.portal is not None
        client.portal.call(hub.stop)  # in the server's event loop, as a signal handler runs
        refused = client.post("/api/rooms", json={"bots": 4})
        assert refused.status_code == 503 and refused.json()["code"] == "restarting"
        assert client.get("/healthz").status_code == 200


class WriteAhead(Storage):
    """Storage that checks, at each decision's write, that the engine has not taken it yet."""

    hub: Hub | None = None
    checked = 0

    def add_decision(
        self,
        game: str,
        inquiry: int,
        seat: int,
        action: int,
        option: int,
        timeout: bool,
        trail: str | None = None,
    ) -> None:
        assert self.hub is not None
        open_inquiry = self.hub.tables[game].answers.inquiry
        assert open_inquiry is not None and open_inquiry.id == inquiry and not open_inquiry.done
        assert open_inquiry.players[seat].answer is None  # validated, not yet responded
        self.checked += 1
        super().add_decision(game, inquiry, seat, action, option, timeout, trail)


async def test_every_decision_is_stored_before_the_engine_takes_it(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path), bot_think_s=0, bot_pace_s=0)
    storage = WriteAhead(settings.db_path)
    hub = Hub(settings, storage, RealEngine())
    storage.hub = hub
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        room = hub.create(preset="tenhou-tonpuu", bots=4, base_s=1, bank_s=1)
        table = hub.start(room)
        with anyio.fail_after(60):
            await table.finished.wait()
        tg.cancel_scope.cancel()
    record = storage.load(room.game)
    assert record is not None and record.status == "finished"
    assert storage.checked == len(record.decisions) > 100


async def test_a_socket_opened_while_stopping_is_told_to_reconnect(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 2}
        token = (await h.post("/api/rooms", json=body)).json()["token"]
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            assert isinstance(decode_server(await ws.recv()), Welcome)
            hub.stop()
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await ws.recv()
            assert ws.close_code == 1012 and "reconnect" in ws.close_reason
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
                await ws.recv()
            assert ws.close_code == 1012 and "reconnect" in ws.close_reason


async def _finish_a_game(tmp_path: Path) -> tuple[str, str, str]:
    """(game, room code, seat token) of a tonpuusen played to its end by one seat and bots."""
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 3}
        grant = (await h.post("/api/rooms", json=body)).json()
        seat = WireBot(host, grant["token"], seed=5)
        with anyio.fail_after(60):
            await seat.play()
        assert seat.ended
    return grant["room"]["game"], grant["room"]["code"], grant["token"]


def _ended_at(tmp_path: Path, game: str) -> float:
    with sqlite3.connect(tmp_path / "records.sqlite3") as db:
        at: float = db.execute("SELECT at FROM endings WHERE game = ?", (game,)).fetchone()[0]
    db.close()
    return at


async def test_a_game_that_ended_just_before_a_restart_still_ends_for_its_late_clients(
    tmp_path: Path,
) -> None:
    """A restart cut the seat and the spectator before the end reached them: on their
    return the restarted server gives them what it would have without the restart (the end,
    the seed, the final snapshot), and the room says finished, not unknown."""
    game, code, token = await _finish_a_game(tmp_path)
    ended = _ended_at(tmp_path, game)
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert (hub.resumed.ended, hub.resumed.games, hub.resumed.aborted) == (1, 0, 0)
        assert (await h.get(f"/api/rooms/{code}")).json()["status"] == "finished"
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            got = [decode_server(await ws.recv()) for _ in range(3)]
        assert [type(m) for m in got] == [Welcome, Snapshot, End]
        snapshot, end = got[1], got[2]
        assert isinstance(snapshot, Snapshot) and isinstance(end, End)
        assert b"GameEnded" in b"".join(bytes(e) for e in snapshot.events)
        assert end.seed is not None and end.game == game
        async with websockets.connect(f"ws://{host}/ws/watch/{game}") as ws:
            watched = [decode_server(text) async for text in ws]
        assert isinstance(watched[-1], End) and watched[-1].seed == end.seed
        record = msgspec.json.decode((await h.get(f"/api/games/{game}/record")).content)
        assert record["status"] == "finished"
    assert _ended_at(tmp_path, game) == ended  # the end is not written again


async def test_a_game_that_ended_longer_ago_than_the_room_ttl_is_not_held_again(
    tmp_path: Path,
) -> None:
    game, code, token = await _finish_a_game(tmp_path)
    await anyio.sleep(1.1)
    async with (
        live_server(tmp_path, room_ttl_s=1) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert hub.resumed == Resumed() and game not in hub.tables
        assert (await h.get(f"/api/rooms/{code}")).status_code == 404
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            refused = decode_server(await ws.recv())
        assert isinstance(refused, WireError), refused
        record = msgspec.json.decode((await h.get(f"/api/games/{game}/record")).content)
        assert record["status"] == "finished"
