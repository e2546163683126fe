"""The ladder from outside, on SQLite and on a real PostgreSQL: a real ``python -m server``,
8 accounts registered and logged in through the API, queued, seated at two ranked tables by
the queue, and played to the end by WebSocket clients, twice; during the second pair of
games the server is killed (kill -9) once in the middle of a game and once just after a game
ended. Every dan, point and R then equals an independent computation from the games' final
scores (tests/server/ladder/expected.py, the documented formulas), and each profile's stats
equal a recomputation from the games' records (our JSON record's round results, the Tenhou
export's riichi and calls)."""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.edge.codec import encode
from server.edge.messaging import Answer, End, EventMsg, InquiryMsg, ServerMessage
from tests.server.ladder.expected import dan_after, place_of, r_delta
from tests.server.procs import Player, ServerProcess

LOBBY = json.dumps([{"name": "tonpuu", "preset": "tenhou-tonpuu", "base_s": 5, "bank_s": 10}])
ENV = {
    "RIICHI_RANKED_LOBBIES": LOBBY,
    "RIICHI_LOGIN_ADDRESS_BURST": "100",
    "RIICHI_LOGIN_ADDRESS_PER_MIN": "600",
    "RIICHI_RANKED_DRAW_S": "0.2",
}
NAMES = [f"player{i}" for i in range(8)]
PASSWORD = "correct horse battery"


async def _accounts(http: httpx.AsyncClient) -> dict[str, str]:
    """Each name's bearer token, registered and logged in through the API."""
    tokens = {}
    for name in NAMES:
        made = await http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        login = await http.post("/api/session", json={"name": name, "password": PASSWORD})
        assert login.status_code == 200, login.text
        tokens[name] = login.json()["token"]
        http.cookies.clear()  # each account is its own client: bearer tokens only
    return tokens


async def _queue_all(http: httpx.AsyncClient, tokens: dict[str, str]) -> dict[str, Any]:
    """Every account queued; each one's grant once seated."""
    for token in tokens.values():
        got = await http.post("/api/queue", json={"lobby": "tonpuu"}, headers=_bearer(token))
        assert got.status_code == 200, got.text
    grants: dict[str, Any] = {}
    for _ in range(200):  # the lobby's draw seats them (each poll is a heartbeat too)
        for name, token in tokens.items():
            grants[name] = (await http.get("/api/queue", headers=_bearer(token))).json()
        if all(g["state"] == "seated" for g in grants.values()):
            return grants
        await asyncio.sleep(0.1)
    raise AssertionError(f"not all seated: {grants}")


def steer(inquiry: InquiryMsg, rng: random.Random) -> Answer:
    """A player that wins: a win or riichi when offered, a discard that keeps tenpai (the
    options' tenpai hints) or else the most isolated tile, a call now and then."""
    kinds = [a.type for a in inquiry.actions]
    for wanted in ("tsumo", "ron", "riichi"):
        if wanted in kinds:
            return Answer(inquiry.id, kinds.index(wanted), 0)
    calls = [i for i, k in enumerate(kinds) if k in ("pon", "chii")]
    if calls and rng.random() < 0.3:
        return Answer(inquiry.id, calls[0], 0)
    if "discard" in kinds:
        i = kinds.index("discard")
        options = inquiry.actions[i].options
        ready = [n for n, o in enumerate(options) if o.tenpai]
        if ready:
            return Answer(inquiry.id, i, ready[0])
        kinds_held = [o.tiles[0] // 4 for o in options]
        return Answer(inquiry.id, i, min(range(len(options)), key=lambda n: _linked(n, kinds_held)))
    for fallback in ("skip", "next_round"):
        if fallback in kinds:
            return Answer(inquiry.id, kinds.index(fallback), 0)
    return Answer(inquiry.id, inquiry.default.action, inquiry.default.option)


def _linked(n: int, held: list[int]) -> int:
    """How many other tiles of the hand work with tile ``n`` (same kind, or a suit neighbour)."""
    kind = held[n]
    near = {kind} if kind >= 27 else {k for k in range(kind - 2, kind + 3) if k // 9 == kind // 9}
    return sum(1 for m, k in enumerate(held) if m != n and k in near) * 2 - (kind >= 27)


class Steered(Player):
    async def _answer(self, ws: Any, inquiry: InquiryMsg | None) -> None:
        if inquiry is None:
            return
        answer = steer(inquiry, self.rng)
        self.sent.append((answer.inquiry, answer.action, answer.option))
        await ws.send(encode(answer))


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _tables(grants: dict[str, Any]) -> dict[str, list[str]]:
    """game -> names in seat order"""
    tables: dict[str, list[str]] = defaultdict(lambda: [""] * 4)
    for name, grant in grants.items():
        tables[grant["game"]][grant["seat"]] = name
    return dict(tables)


class Killer:
    """kill -9 once when ``seat_token``'s client has seen ``events`` events, and once right
    after ``end_token``'s client saw its game's end."""

    def __init__(self, server: ServerProcess, mid_token: str, end_token: str) -> None:
        self.server = server
        self.mid_token = mid_token
        self.end_token = end_token
        self.kills: list[str] = []
        self.fired = asyncio.Event()

    def hook(self, player: Player, msg: ServerMessage) -> bool:
        mine = player.token == self.mid_token and "mid" not in self.kills
        if mine and isinstance(msg, EventMsg) and player.events == 40:
            return self._kill("mid")
        if player.token == self.end_token and isinstance(msg, End) and "end" not in self.kills:
            self._kill("end")
        return False

    def _kill(self, when: str) -> bool:
        self.server.kill()
        self.kills.append(when)
        self.fired.set()
        return when == "mid"


async def _play(server: ServerProcess, grants: dict[str, Any], killer: Killer | None) -> None:
    hook = killer.hook if killer is not None else None
    players = [Steered(server.host, g["token"], i, hook) for i, g in enumerate(grants.values())]
    playing: asyncio.Future[Any] = asyncio.ensure_future(
        asyncio.gather(*(p.play() for p in players))
    )
    while killer is not None and len(killer.kills) < 2:
        fired: asyncio.Future[Any] = asyncio.ensure_future(killer.fired.wait())
        await asyncio.wait([fired, playing], return_when=asyncio.FIRST_COMPLETED)
        if not killer.fired.is_set():
            fired.cancel()
            break
        killer.fired.clear()
        await server.start()
    await playing
    assert all(p.ended for p in players)
    if killer is not None:
        assert not killer.fired.is_set()
        if len(killer.kills) < 2:  # the last kill landed after every client saw its end
            await server.start()


def _expected(games: list[tuple[list[str], list[int]]]) -> dict[str, list[tuple[Any, ...]]]:
    """name -> (dan, points, R, place, ΔR) after each game, from the final scores alone."""
    now: dict[str, tuple[int, int, float, int]] = defaultdict(lambda: (0, 0, 1500.0, 0))
    out: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for names, scores in games:
        places = place_of(scores)
        table = [now[n][2] for n in names]
        for seat, name in enumerate(names):
            dan, points, rating, played = now[name]
            dan, points = dan_after(dan, points, places[seat], winds=1)
            delta = r_delta(rating, played, places[seat], table)
            now[name] = (dan, points, rating + delta, played + 1)
            out[name].append((dan, points, rating + delta, places[seat], delta))
    return out


def _stats_from(record: dict[str, Any], tenhou: dict[str, Any], seat: int) -> dict[str, int]:
    """One seat's counters from the records, as docs/protocol.md defines them."""
    n = 4
    got: dict[str, int] = defaultdict(int)
    got["games"] = 1
    for result, log in zip(record["rounds"], tenhou["log"], strict=True):
        got["rounds"] += 1
        wins = [w for w in result["wins"] if w["seat"] == seat]
        dealt = [w for w in result["wins"] if w["from_seat"] == seat and w["seat"] != seat]
        dealer = result["kyoku"] % n
        got["wins"] += len(wins)
        got["tsumo"] += sum(w["from_seat"] == w["seat"] for w in wins)
        got["deal_ins"] += 1 if dealt else 0
        got["win_points"] += sum(_value(w, dealer, n) for w in wins)
        got["deal_in_points"] += sum(_value(w, dealer, n) for w in dealt)
        drawn = result["kind"] == "exhaustive"
        got["draws"] += drawn
        got["draw_tenpai"] += drawn and seat in result["tenpai"]
        takes, discards = log[5 + 3 * seat], log[6 + 3 * seat]
        got["riichi"] += any(isinstance(d, str) and d.startswith("r") for d in discards)
        got["calls"] += any(isinstance(t, str) for t in takes)
    return got


def _value(win: dict[str, Any], dealer: int, n: int) -> int:
    """A hand's points without honba or sticks (a tsumo: what every payer pays)."""
    r = win["result"]
    if win["seat"] != win["from_seat"]:
        return int(r["ron"])
    if win["seat"] == dealer:
        return int(r["tsumo_other"]) * (n - 1)
    return int(r["tsumo_dealer"]) + int(r["tsumo_other"]) * (n - 2)


async def _wait_for_stats(http: httpx.AsyncClient, games: int) -> dict[str, Any]:
    """Every profile, once its stats hold ``games`` games (added just after each end)."""
    for _ in range(600):
        profiles = {n: (await http.get(f"/api/players/{n}")).json() for n in NAMES}
        if all(
            p["lobbies"] and p["lobbies"][0]["stats"]["games"] == games for p in profiles.values()
        ):
            return profiles
        await asyncio.sleep(0.2)
    raise TimeoutError(f"stats never reached {games} games: {profiles}")


@pytest.mark.timeout(600)
async def test_eight_accounts_two_tables_twice_with_kill_9(
    tmp_path: Path, database: dict[str, str]
) -> None:
    server = ServerProcess(tmp_path, **ENV, **database)
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=60) as http:
            tokens = await _accounts(http)
            played: list[tuple[list[str], str]] = []
            for round_ in range(2):
                grants = await _queue_all(http, tokens)
                tables = _tables(grants)
                assert len(tables) == 2 and all("" not in t for t in tables.values())
                killer = None
                if round_ == 1:
                    first, second = list(tables)
                    mid = grants[tables[first][0]]["token"]
                    killer = Killer(server, mid, grants[tables[second][1]]["token"])
                await _play(server, grants, killer)
                played += [(names, game) for game, names in tables.items()]
                if killer is not None:
                    assert killer.kills == ["mid", "end"] or killer.kills == ["end", "mid"]
            profiles = await _wait_for_stats(http, 2)
            records = {}
            for _, game in played:
                record = (await http.get(f"/api/games/{game}/record")).json()
                tenhou = await http.get(f"/api/games/{game}/record", params={"format": "tenhou"})
                assert record["status"] == "finished"
                records[game] = (record, tenhou.json())
        finals = [(names, records[g][0]["result"]["scores"]) for names, g in played]
        everyone: dict[str, int] = defaultdict(int)
        expected = _expected(finals)
        for name in NAMES:
            standing = profiles[name]["lobbies"][0]
            dan, points, rating, _, _ = expected[name][-1]
            assert (standing["dan"], standing["points"], standing["games"]) == (dan, points, 2)
            assert standing["rating"] == pytest.approx(rating, abs=1e-9)
            history = list(reversed(profiles[name]["history"]))
            assert [h["place"] for h in history] == [e[3] for e in expected[name]]
            assert [h["rating_delta"] for h in history] == pytest.approx(
                [e[4] for e in expected[name]], abs=1e-9
            )
            places = [0] * 4
            for e in expected[name]:
                places[e[3] - 1] += 1
            assert standing["placements"] == places
            total: dict[str, int] = defaultdict(int)
            for names, game in played:
                if name in names:
                    record, tenhou = records[game]
                    for key, value in _stats_from(record, tenhou, names.index(name)).items():
                        total[key] += value
                        everyone[key] += value
            stats = standing["stats"]
            assert {k: stats[k] for k in total} == dict(total), name
            assert stats["first"] + stats["second"] + stats["third"] + stats["fourth"] == 2
        # the recomputation compared something: the four games had wins, riichi and calls
        assert min(everyone["wins"], everyone["riichi"], everyone["calls"]) > 0, everyone
    finally:
        server.stop()
