"""A sanma preset at the real server: three seats (bots included), kita on the wire and in
the per-seat views, a spectator's three-seat table, and a resume after a restart.

Real uvicorn and real websockets clients on 127.0.0.1 (tests/server/live.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import anyio
import httpx
import msgspec
import websockets

from engine.rules.bagime import bagime
from server.edge.codec import encode
from server.edge.messaging import (
    Answer as AnswerMsg,
)
from server.edge.messaging import End, EventMsg, InquiryMsg, Snapshot, decode_server
from tests.server.leaks import SeatAudit
from tests.server.live import by_place, live_server, open_seat, pick

SANMA = "tenhou-sanma-tonpuu"


def kita_first(inquiry: InquiryMsg, rng: random.Random) -> AnswerMsg:
    """A random legal answer, but a North is always set aside when offered (and wins taken)."""
    for i, action in enumerate(inquiry.actions):
        if action.type in ("tsumo", "ron", "kita"):
            return AnswerMsg(inquiry.id, i, 0)
    return pick(inquiry, rng)


class SanmaSeat:
    """One human seat over a real socket: audits every frame for leaks, answers kita-first."""

    def __init__(self, seat: int, seed: int) -> None:
        self.audit = SeatAudit(seat)
        self.rng = random.Random(seed)
        self.events: list[dict[str, Any]] = []
        self.snapshots: list[dict[str, Any]] = []
        self.offered_kita = 0

    def _note(self, msg: Any) -> InquiryMsg | None:
        if isinstance(msg, EventMsg):
            self.events.append(msgspec.json.decode(bytes(msg.event)))
        if isinstance(msg, Snapshot):
            self.snapshots.append(msgspec.json.decode(bytes(msg.state)))
            return msg.inquiry
        return msg if isinstance(msg, InquiryMsg) else None

    async def play(self, host: str, token: str, stop_after_rounds: int | None = None) -> bool:
        """Play until End (True) or until ``stop_after_rounds`` hands ended (False)."""
        ended = 0
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            async for text in ws:
                assert isinstance(text, str)
                msg = self.audit.frame(text)
                if isinstance(msg, End):
                    return True
                inquiry = self._note(msg)
                if self.events and self.events[-1]["type"] in ("Agari", "Ryuukyoku"):
                    ended += 1
                    self.events.append({"type": "seen"})
                    if stop_after_rounds is not None and ended >= stop_after_rounds:
                        return False
                if inquiry is not None:
                    self.offered_kita += any(a.type == "kita" for a in inquiry.actions)
                    await ws.send(encode(kita_first(inquiry, self.rng)))
        return False


async def _sanma_room(h: httpx.AsyncClient, bots: int = 2) -> dict[str, Any]:
    grant: dict[str, Any] = (
        await h.post("/api/rooms", json={"name": "Ann", "preset": SANMA, "bots": bots})
    ).json()
    return grant


async def test_presets_are_listed_with_their_labels_and_seat_counts(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        listed = {p["name"]: p for p in (await h.get("/api/presets")).json()["presets"]}
    assert listed[SANMA]["players"] == 3 and listed["tenhou-tonpuu"]["players"] == 4
    assert listed[SANMA]["winds"] == 1 and listed["tenhou-sanma-hanchan"]["winds"] == 2
    assert all(p["label"] and p["label"] != name for name, p in listed.items())


async def test_a_sanma_room_seats_three_and_refuses_a_fourth_bot(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        refused = await h.post("/api/rooms", json={"preset": SANMA, "bots": 4})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_bots"
        grant = await _sanma_room(h, bots=1)
        room = grant["room"]
        assert len(room["seats"]) == 3 and room["status"] == "waiting"
        assert [s["bot"] for s in room["seats"]] == [False, False, True]
        joined = (await h.post(f"/api/rooms/{room['code']}/join", json={"name": "Bob"})).json()
        draw = joined["room"]["draw"]  # three places drawn to three seats
        assert sorted(draw) == [0, 1, 2] and joined["seat"] == draw[1]
        placed = by_place(joined["room"]["seats"], draw)
        assert [s["name"] for s in placed[:2]] == ["Ann", "Bob"] and placed[2]["bot"]
        assert joined["room"]["status"] == "playing"
        third = await h.post(f"/api/rooms/{room['code']}/join", json={"name": "Cy"})
        assert third.status_code == 409


async def test_a_sanma_tonpuusen_is_played_to_its_end_with_kita_and_no_leak(
    tmp_path: Path,
) -> None:
    seat = SanmaSeat(bagime(11, 3)[0], seed=3)  # the creator's drawn seat
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        hub.rooms.new_seed = lambda: 11  # a game where a North comes (pinned, reproducible)
        grant = await _sanma_room(h)
        assert grant["seat"] == bagime(11, 3)[0]
        with anyio.fail_after(90):
            assert await seat.play(host, grant["token"])
        record = (await h.get(f"/api/games/{grant['room']['game']}/record")).json()
    kinds = [e["type"] for e in seat.events]
    begin = seat.events[kinds.index("BeginGame")]
    assert begin["players"] == 3 and len(begin["scores"]) == 3
    kitas = [e for e in seat.events if e["type"] == "Kita"]
    assert seat.offered_kita and kitas, "no North was set aside in this game"
    assert all(k["meld"][0] == 5 and k["meld"][1][0] >> 2 == 30 for k in kitas)
    assert not any(e["type"] == "Call" and e["meld"][0] == 0 for e in seat.events), "a chii"
    assert len(record["result"]["scores"]) == 3 and sum(record["result"]["scores"]) == 105000
    assert seat.audit.events > 100


async def test_a_spectator_sees_three_seats_and_the_kita(tmp_path: Path) -> None:
    """An all-bot sanma table, paced so it is watched live (god view: nobody to hide from)."""
    async with live_server(tmp_path, bot_pace_s=0.01) as (host, hub):
        hub.rooms.new_seed = lambda: 11
        room = hub.create(preset=SANMA, bots=3, base_s=1, bank_s=1)
        hub.start(room)
        events: list[dict[str, Any]] = []
        states: list[dict[str, Any]] = []
        async with websockets.connect(f"ws://{host}/ws/watch/{room.game}") as ws:
            with anyio.fail_after(60):
                async for text in ws:
                    msg = decode_server(text)
                    raws = [msg.event] if isinstance(msg, EventMsg) else []
                    if isinstance(msg, Snapshot):
                        raws = list(msg.events)
                        states.append(msgspec.json.decode(bytes(msg.state)))
                    events += [msgspec.json.decode(bytes(r)) for r in raws]
                    if isinstance(msg, End):
                        break
    assert states and all(s is None or len(s["players"]) == 3 for s in states)
    assert any(e["type"] == "Kita" for e in events)
    ended = [e for e in events if e["type"] == "GameEnded"]
    assert len(ended) == 1 and len(ended[0]["scores"]) == 3


async def test_a_sanma_game_resumes_after_a_restart(tmp_path: Path) -> None:
    first = SanmaSeat(bagime(11, 3)[0], seed=5)
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        hub.rooms.new_seed = lambda: 11
        grant = await _sanma_room(h)
        with anyio.fail_after(60):
            assert not await first.play(host, grant["token"], stop_after_rounds=1)
    game = grant["room"]["game"]
    second = SanmaSeat(bagime(11, 3)[0], seed=6)
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert (hub.resumed.games, hub.resumed.aborted) == (1, 0)
        assert len(hub.tables[game].room.seats) == 3
        assert hub.tables[game].room.rules.players == 3
        with anyio.fail_after(90):
            assert await second.play(host, grant["token"])
        record = (await h.get(f"/api/games/{game}/record")).json()
    assert record["status"] == "finished" and len(record["result"]["scores"]) == 3
    assert isinstance(second.snapshots[0], dict) and len(second.snapshots[0]["players"]) == 3
