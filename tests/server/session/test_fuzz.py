"""Fuzz: thousands of malformed, illegal and stale messages over real sockets against live
tables. Every one gets an error, none changes the game, no table hangs, every game ends."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx

from engine.game import Game
from server.edge.codec import encode
from server.edge.messaging import End, InquiryMsg, Snapshot, WireError, decode_server
from server.session.hub import Hub
from tests.server.live import live_server, open_seat, pick

GAMES = 1


def garbage(rng: random.Random, inquiry: InquiryMsg) -> str:
    """One message the server must refuse."""
    n_actions = len(inquiry.actions)
    kind = rng.randrange(9)
    if kind == 0:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 40)))
    if kind == 1:
        return json.dumps(rng.choice([None, 1, [], "answer", 1.5, {"type": None}]))
    if kind == 2:
        return json.dumps({"type": rng.choice(["Answer", "discard", "", "ans wer", "riichi"])})
    if kind == 3:
        stale = inquiry.id + rng.choice([-3, -1, 1, 7, 10**6])
        return json.dumps({"type": "answer", "inquiry": stale, "action": 0})
    if kind == 4:
        return json.dumps({"type": "answer", "inquiry": inquiry.id, "action": n_actions})
    if kind == 5:
        options = len(inquiry.actions[0].options)
        return json.dumps({"type": "answer", "inquiry": inquiry.id, "action": 0, "option": options})
    if kind == 6:
        bad = rng.choice([-1, 2**70, "0", 0.5, True, None])
        return json.dumps({"type": "answer", "inquiry": inquiry.id, "action": bad})
    if kind == 7:
        return json.dumps({"type": "answer", "inquiry": inquiry.id, "action": 0, "x": 1})
    return "[" * 3000 + "]" * 3000  # over max_frame


def game_state(hub: Hub, game: str) -> tuple[Any, ...]:
    table = hub.tables[game]
    inquiry = table.inquiry
    assert inquiry is not None
    answers = tuple((s, p.answer) for s, p in sorted(inquiry.players.items()))
    assert isinstance(table.game, Game)
    return inquiry.id, inquiry.done, answers, len(table.game.decisions), table.game.scores


async def fuzz_seat(host: str, hub: Hub, game: str, token: str, seed: int) -> int:
    """Play one seat, flooding each own-turn inquiry with garbage first; the count sent."""
    rng = random.Random(seed)
    sent = 0
    async with open_seat(f"ws://{host}/ws/play", token) as ws:
        async for text in ws:
            assert isinstance(text, str)
            msg = decode_server(text)
            inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
            if isinstance(msg, End):
                return sent
            if not isinstance(inquiry, InquiryMsg):
                continue
            alone = len(hub.tables[game].inquiry.players) == 1  # type: ignore[union-attr]
            burst = rng.randrange(10, 25) if alone else 0
            before = game_state(hub, game) if alone else None
            for _ in range(burst):
                await ws.send(garbage(rng, inquiry))
            sent += burst
            errors = 0
            while errors < burst:
                reply = decode_server(await ws.recv())
                assert isinstance(reply, WireError), reply
                errors += 1
            if before is not None:
                assert game_state(hub, game) == before
            await ws.send(encode(pick(inquiry, rng)))
    raise AssertionError("the socket closed before the game ended")


async def test_thousands_of_bad_messages_change_nothing_and_games_complete(
    tmp_path: Path,
) -> None:
    total = 0
    async with (
        live_server(tmp_path, max_strikes=10**9, rate_per_s=10**6) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as http,
    ):
        for g in range(GAMES):

            def pinned(seed: int = g) -> int:
                return seed

            hub.rooms.new_seed = pinned  # the server's draw, pinned: a long game
            body = {"name": "F0", "preset": "tenhou-tonpuu", "bots": 2}
            first = (await http.post("/api/rooms", json=body)).json()
            code, game = first["room"]["code"], first["room"]["game"]
            second = (await http.post(f"/api/rooms/{code}/join", json={"name": "F1"})).json()
            async with asyncio.timeout(120):
                counts = await asyncio.gather(
                    fuzz_seat(host, hub, game, first["token"], g * 2),
                    fuzz_seat(host, hub, game, second["token"], g * 2 + 1),
                )
            total += sum(counts)
            record = (await http.get(f"/api/games/{game}/record")).json()
            assert record["status"] == "finished"
    print(f"fuzz: {total} bad messages over {GAMES} games")
    assert total >= 2000
