"""Tournaments from outside, on a real ``python -m server``: accounts through the API, the
organiser made admin by the operator's command line, every seat its own WebSocket client.

16 players, 4 rounds, balanced seating, duplicate walls, on SQLite and PostgreSQL; the
server is killed (kill -9) in the middle of round 2, just after one of its games ended, and
between rounds 3 and 4. Afterwards no pair met twice, every table of a round played the
round's revealed seed, and every standing equals an independent computation from the
games' records (tests/server/tournament/expected.py)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.edge.messaging import End, EventMsg, ServerMessage
from tests.server.procs import Player, ServerProcess
from tests.server.tournament import expected
from tests.server.tournament.event import (
    ENV,
    ORGANIZER,
    Ends,
    bearer,
    create,
    enter_all,
    fetch,
    get,
    make_admin,
    play,
    register,
    seats,
)

PRESET = "tenhou-tonpuu"


class Killer:
    """kill -9 when ``mid``'s client has seen 40 events, and when ``end``'s client saw its
    game's end."""

    def __init__(self, server: ServerProcess, ends: Ends, mid: str, end: str) -> None:
        self.server, self.ends, self.mid, self.end = server, ends, mid, end
        self.kills: list[str] = []
        self.fired = asyncio.Event()

    def hook(self, player: Player, msg: ServerMessage) -> bool:
        self.ends.hook(player, msg)
        mine = player.token == self.mid and "mid" not in self.kills
        if mine and isinstance(msg, EventMsg) and player.events == 40:
            return self._kill("mid")
        if player.token == self.end and isinstance(msg, End) and "end" not in self.kills:
            self._kill("end")
        return False

    def _kill(self, when: str) -> bool:
        self.server.kill()
        self.kills.append(when)
        self.fired.set()
        return when == "mid"


async def _records(http: httpx.AsyncClient, games: list[str]) -> dict[str, dict[str, Any]]:
    out = {}
    for game in games:
        got = await fetch(http, f"/api/games/{game}/record")
        assert got.status_code == 200, got.text
        out[game] = got.json()
    return out


def _compare(found: dict[str, Any], records: dict[str, dict[str, Any]]) -> None:
    """The served standings against the independent computation from the records."""
    games = [
        (r["seats"], r["result"]["scores"], r["rules"])
        for r in records.values()
        if r["status"] == "finished"
    ]
    want = expected.standings(games, set(found["bots"]))
    got = [
        {k: s[k] for k in ("rank", "name", "total", "games", "placements")}
        for s in found["standings"]
    ]
    assert got == want
    for t in found["tables"]:  # each table's points: the preset's result of its scores
        r = records[t["game"]]
        assert t["points"] == [
            float(p) for p in expected.match_points(r["result"]["scores"], r["rules"])
        ]
        assert t["seats"] == r["seats"]


@pytest.mark.timeout(900)
async def test_sixteen_players_balanced_duplicate_with_kill_9(
    tmp_path: Path, database: dict[str, str]
) -> None:
    server = ServerProcess(tmp_path, **ENV, **database)
    await server.start()
    names = [f"player{i:02d}" for i in range(16)]
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=60) as http:
            org = (await register(http, [ORGANIZER]))[ORGANIZER]
            tokens = await register(http, names)
            options = {
                "name": "Club championship",
                "preset": PRESET,
                "rounds": 4,
                "seating": "balanced",
                "duplicate": True,
                "fill": "none",
                "base_s": 3,
                "bank_s": 5,
            }
            refused = await http.post("/api/tournaments", json=options, headers=bearer(org))
            assert refused.status_code == 403 and refused.json()["code"] == "not_organizer"
            make_admin(server, ORGANIZER)
            tid = (await create(http, org, **options))["id"]
            await enter_all(http, tid, tokens)
            ends = Ends()
            for round_ in range(1, 5):
                if round_ == 4:  # between two rounds
                    server.kill()
                    await server.start()
                started = await http.post(
                    f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org)
                )
                assert started.status_code == 201, started.text
                assert started.json()["round"] == round_
                grants = await seats(http, tid, tokens, round_)
                if round_ == 1:
                    late = await http.post(
                        f"/api/tournaments/{tid}/entries", json={}, headers=bearer(tokens[names[0]])
                    )
                    assert late.status_code == 409 and late.json()["code"] == "closed"
                    again = await http.post(
                        f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org)
                    )
                    assert again.status_code == 409 and again.json()["code"] == "round_running"
                if round_ == 2:
                    by_game: dict[str, list[str]] = {}
                    for name, g in grants.items():
                        by_game.setdefault(g["game"], []).append(name)
                    first, second = list(by_game)[:2]
                    killer = Killer(
                        server,
                        ends,
                        grants[by_game[first][0]]["token"],
                        grants[by_game[second][0]]["token"],
                    )
                    await play(server, grants, killer.hook, fired=killer.fired)
                    assert sorted(killer.kills) == ["end", "mid"]
                else:
                    await play(server, grants, ends.hook)
            found = await get(http, tid)
            assert found["state"] == "finished" and found["round"] == 4
            assert all(t["status"] == "finished" for t in found["tables"])
            records = await _records(http, [t["game"] for t in found["tables"]])
            verdicts = {}
            for t in found["tables"]:
                verdict = await fetch(http, f"/api/games/{t['game']}/verify")
                assert verdict.status_code == 200, verdict.text
                verdicts[t["game"]] = verdict.json()
            for name in names:  # a tournament game moves no dan or R
                assert (await http.get(f"/api/players/{name}")).status_code == 404
        met: dict[frozenset[str], int] = {}
        for t in found["tables"]:
            for pair in itertools.combinations(t["seats"], 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
        assert max(met.values()) == 1 and len(met) == 4 * 4 * 6
        for round_ in range(1, 5):
            tables = [t for t in found["tables"] if t["round"] == round_]
            assert len(tables) == 4
            seed = found["seeds"][str(round_)]
            assert {records[t["game"]]["seed"] for t in tables} == {int(seed)}
            assert len({t["commitment"] for t in tables}) == 1
            for t in tables:
                assert verdicts[t["game"]]["commitment_ok"] and verdicts[t["game"]]["replay_ok"]
                assert records[t["game"]]["draw"] is None  # balanced: the winds are the plan's
        sealed = [e for e in ends.first.values() if e.seed is None]
        assert sealed, "no table ended while its round was still played"
        _compare(found, records)
    finally:
        server.stop()
