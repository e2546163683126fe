"""Durable tables end to end: real server processes killed (-9) or stopped (SIGTERM) at random
moments of real games, restarted on the same data, the same clients reconnecting with their
tokens until the game ends. The finished record must be the engine's own game: the Tenhou
export replays through ``engine.replay`` check, an uninterrupted replay of its decisions gives
the same rounds and the same stored hashes, what was stored before each kill is a prefix of
the final log, and no human seat's decision was made by anyone but its client."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from engine.actions.inquiry import MultiPlayerInquiry
from engine.actions.types import ActionType, Decision
from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.events import EventBase
from engine.game.setup import new_game
from engine.replay import check, tenhou_read
from engine.rules.config import RuleConfig
from server.edge.messaging import EventMsg, InquiryMsg, ServerMessage
from server.session.durable import verify
from server.storage import records
from server.storage.sqlite import StoredGame
from tests.server.procs import Player, ServerProcess, SparedServerProcess, Watcher

CLAIMS = {"chii", "pon", "daiminkan", "ron"}
KINDS = ("hand", "claim", "between")


class Killer:
    """One armed kill moment at a time; the players' hook fires it from inside the stream."""

    def __init__(self, server: ServerProcess, rng: random.Random) -> None:
        self.server = server
        self.rng = rng
        self.kind: str | None = None
        self.wait = 0
        self.fired = asyncio.Event()
        self.moments: list[str] = []

    def arm(self, kind: str) -> None:
        self.kind, self.wait = kind, self.rng.randint(2, 30)
        self.fired = asyncio.Event()

    def hook(self, player: Player, msg: ServerMessage) -> bool:
        if self.kind is None:
            return False
        if isinstance(msg, EventMsg):
            self.wait -= 1
        if self.wait > 0:
            return False
        types = {a.type for a in msg.actions} if isinstance(msg, InquiryMsg) else set()
        fire = {
            "hand": isinstance(msg, EventMsg),
            "claim": bool(types & CLAIMS),
            "between": "next_round" in types,
        }[self.kind]
        if not fire:
            return False
        self.server.kill()
        self.moments.append(self.kind)
        self.kind = None
        self.fired.set()
        return True


class Choices:
    """ReplayCenter that also notes where a seat had nothing but Skip (answered for it)."""

    wants_events = False

    def __init__(self, decisions: list[Decision]) -> None:
        self.center = ReplayCenter(decisions)
        self.forced: set[tuple[int, int]] = set()

    def on_event(self, seat: int | None, event: EventBase) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for seat, single in inquiry.players.items():
            if [a.type for a in single.actions] == [ActionType.SKIP]:
                self.forced.add((inquiry.id, seat))
        self.center.on_inquiry(inquiry)


def _subsequence(part: list[tuple[int, int]], whole: list[tuple[int, int]]) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


async def _seat_two_humans(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    body = {"name": "A", "preset": "tenhou-tonpuu", "bots": 2, "base_s": 5, "bank_s": 10}
    grant = (await http.post("/api/rooms", json=body)).json()
    code = grant["room"]["code"]
    other = (await http.post(f"/api/rooms/{code}/join", json={"name": "B"})).json()
    return grant["room"]["game"], [grant["token"], other["token"]]


async def _check_final(
    server: ServerProcess, game: str, before: list[list[tuple[int, ...]]], players: list[Player]
) -> StoredGame:
    async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=60) as http:
        got = await http.get(f"/api/games/{game}/record")
        tenhou = (await http.get(f"/api/games/{game}/record", params={"format": "tenhou"})).json()
    record = msgspec.json.decode(got.content, type=StoredGame)
    assert record.status == "finished" and record.seed is not None and not record.note
    final = [(d.inquiry, d.seat, d.action, d.option, int(d.timeout)) for d in record.decisions]
    for stored in before:  # nothing committed before a stop was lost or changed
        assert final[: len(stored)] == stored
    verdicts = check.check_game(tenhou_read.read_game(tenhou))
    assert len(verdicts) == len(record.rounds) and all(v.matched for v in verdicts)
    # an uninterrupted replay of the same decisions: same rounds, same event stream hashes
    decisions = [Decision(d.inquiry, d.seat, d.action, d.option) for d in record.decisions]
    rules = msgspec.json.decode(record.rules, type=RuleConfig)
    assert [msgspec.json.encode(r) for r in records.replay(record).rounds] == [
        bytes(r) for r in record.rounds
    ]
    with sqlite3.connect(server.db) as db:
        trails = [r[0] for r in db.execute("SELECT hash FROM decisions WHERE game = ?", (game,))]
    db.close()
    assert None not in trails and verify(rules, record.seed, decisions, trails) is None
    # no decision invented: a human seat's decisions are its client's own answers, in order
    choices = Choices(decisions)
    run_sync(new_game(rules, record.seed, choices))
    assert record.draw is not None
    for place, player in enumerate(players):  # players in join order: seats as drawn
        seat = record.draw[place]
        mine = [d for d in record.decisions if d.seat == seat]
        assert not any(d.timeout for d in mine)
        chosen = [(d.action, d.option) for d in mine if (d.inquiry, seat) not in choices.forced]
        assert chosen and _subsequence(chosen, [(a, o) for _, a, o in player.sent])
    return record


async def _kill_game(tmp_path: Path, seed: int, kills: int, watch: bool) -> None:
    """``kills`` kill -9 of one server, spread over as many games as they take."""
    server = SparedServerProcess(tmp_path)
    killer = Killer(server, random.Random(seed))
    try:
        await server.start()
        async with asyncio.timeout(270):
            games = 0
            while len(killer.moments) < kills:
                await _game_under_fire(server, killer, kills, seed + 10 * games, watch)
                games += 1
        assert server.starts == kills + 1
        assert set(killer.moments) == set(KINDS)
    finally:
        server.stop()


async def _game_under_fire(
    server: ServerProcess, killer: Killer, kills: int, seed: int, watch: bool
) -> None:
    """One game played to its end while the killer fires until ``kills`` in all."""
    async with httpx.AsyncClient(base_url=f"http://{server.host}") as http:
        game, tokens = await _seat_two_humans(http)
    players = [Player(server.host, t, seed + i, killer.hook) for i, t in enumerate(tokens)]
    watcher = Watcher(server.host, game) if watch else None
    clients = [p.play() for p in players] + ([watcher.play()] if watcher else [])
    playing: asyncio.Future[Any] = asyncio.ensure_future(asyncio.gather(*clients))
    before: list[list[tuple[int, ...]]] = []
    while len(killer.moments) < kills:
        killer.arm(KINDS[len(killer.moments) % len(KINDS)])
        fired: asyncio.Future[Any] = asyncio.ensure_future(killer.fired.wait())
        await asyncio.wait([fired, playing], return_when=asyncio.FIRST_COMPLETED)
        if playing.done():
            fired.cancel()
            break
        status, stored = server.stored(game)
        assert status == "playing"
        before.append(stored)
        await server.start()
    killer.kind = None
    await playing
    assert all(p.ended for p in players)
    assert watcher is None or (watcher.ended and watcher.sessions >= 1 + len(before) // 2)
    assert watcher is None or watcher.gaps == []
    await _check_final(server, game, before, players)


@pytest.mark.parametrize(("seed", "watch"), [(101, True), (202, False), (303, False)])
async def test_kill_9_at_random_moments_loses_nothing(
    tmp_path: Path, seed: int, watch: bool
) -> None:
    await _kill_game(tmp_path, seed, kills=10, watch=watch)


class Stopper:
    """Asks the controller for a SIGTERM at a random event of the stream, and holds the first
    inquiry after it unanswered, so the stop lands while the game waits on a human: in play,
    not over (a game of fast players and bots could otherwise end before the signal)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.wait: int | None = None
        self.due = asyncio.Event()

    def arm(self) -> None:
        # within 30 events: three stops come well before even a short game (a bust) ends
        self.wait = self.rng.randint(5, 30)
        self.due = asyncio.Event()

    def hook(self, player: Player, msg: ServerMessage) -> bool:
        if self.wait is None:
            return False
        if isinstance(msg, EventMsg):
            self.wait -= 1
        if self.wait <= 0 and isinstance(msg, InquiryMsg):
            self.wait = None
            self.due.set()
            return True
        return False


async def _listed(server: ServerProcess, status: str) -> list[str]:
    async with httpx.AsyncClient(base_url=f"http://{server.host}") as http:
        games = (await http.get("/api/games", params={"status": status})).json()["games"]
    return [g["id"] for g in games]


@pytest.mark.parametrize("seed", [404])
async def test_sigterm_suspends_every_game_and_a_restart_resumes_it(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    server = SparedServerProcess(tmp_path)
    stopper = Stopper(rng)
    before: list[list[tuple[int, ...]]] = []
    stops = 3
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=f"http://{server.host}") as http:
            game, tokens = await _seat_two_humans(http)
        players = [Player(server.host, t, seed + i, stopper.hook) for i, t in enumerate(tokens)]
        playing: asyncio.Future[Any] = asyncio.ensure_future(
            asyncio.gather(*(p.play() for p in players))
        )
        async with asyncio.timeout(150):
            for _ in range(stops):
                stopper.arm()
                due: asyncio.Future[Any] = asyncio.ensure_future(stopper.due.wait())
                await asyncio.wait([due, playing], return_when=asyncio.FIRST_COMPLETED)
                assert not playing.done(), "the game ended before every stop"
                code, took = await asyncio.to_thread(server.term)
                assert code == 0 and took < 10, (code, took)
                status, stored = server.stored(game)
                assert status == "suspended"
                before.append(stored)
                await server.start()
                assert game in await _listed(server, "playing")
            await playing
        for player in players:
            restarts = [r for c, r in zip(player.closes, player.reasons, strict=True) if c == 1012]
            assert len(restarts) == stops and all("reconnect" in r for r in restarts)
        assert game not in await _listed(server, "suspended")
        await _check_final(server, game, before, players)
    finally:
        server.stop()
