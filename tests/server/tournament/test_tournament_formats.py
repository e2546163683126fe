"""Swiss and sanma events from outside, and the secrecy of a duplicate round's walls.

- A swiss event of 8 over 3 rounds with duplicate walls (SQLite and PostgreSQL): one table
  of round 1 is held at its first decision while the other plays to its end. Until the held
  one ends, nothing of the round's walls leaves the finished table: its ``end`` has no seed,
  its record (every format), ``/verify``, ``/replay``, reviews and the export answer
  ``409 round_running``, and no spectator of either table ever gets a snapshot of concealed
  tiles. Once the round is over every answer is given, and both tables played the same
  revealed seed. Rounds 2 and 3 are seated by the standings; a ``standings`` server-sent
  event follows each game.
- A sanma event of 10: ``fill: none`` refuses to start (409 entries), ``fill: bots`` runs
  with two strong bots, never ranked."""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import websockets

from server.app import create_app
from server.edge.messaging import End, EventMsg, InquiryMsg, Snapshot, decode_server
from server.settings import Settings
from tests.server.ladder.test_ranked_live import Steered
from tests.server.procs import ServerProcess
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


class Held(Steered):
    """A seat that answers nothing until ``release`` is set."""

    def __init__(self, *args: Any, release: asyncio.Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.release = release

    async def _answer(self, ws: Any, inquiry: InquiryMsg | None) -> None:
        await self.release.wait()
        await super()._answer(ws, inquiry)


class Spectator:
    """A watcher of one game: every snapshot and event it got, until the end."""

    def __init__(self, host: str, game: str) -> None:
        self.url = f"ws://{host}/ws/watch/{game}"
        self.snapshots: list[Snapshot] = []
        self.events: list[dict[str, Any]] = []
        self.end: End | None = None

    async def watch(self) -> None:
        async with websockets.connect(self.url, max_size=2**22) as ws:
            async for text in ws:
                msg = decode_server(str(text))
                if isinstance(msg, Snapshot):
                    self.snapshots.append(msg)
                    self.events += [json.loads(bytes(e)) for e in msg.events]
                elif isinstance(msg, End):
                    self.end = msg
                    return
                elif isinstance(msg, EventMsg):
                    self.events.append(json.loads(bytes(msg.event)))

    def concealed(self) -> list[dict[str, Any]]:
        """Events that show a tile only its owner may see (a starting hand, a draw)."""
        return [
            e
            for e in self.events
            if (e.get("type") == "Haipai" and e.get("tiles") is not None)
            or (e.get("type") == "Draw" and e.get("tile") is not None)
        ]


async def _sse(http: httpx.AsyncClient, tid: str, out: list[tuple[str, Any]]) -> None:
    async with http.stream("GET", f"/api/tournaments/{tid}/events") as stream:
        name = ""
        async for line in stream.aiter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                out.append((name, json.loads(line[6:])))


#: every game route whose answer would tell a duplicate round's walls, asked by ``_gated``
GATED = (
    ("GET", "/api/games/{game}/record"),
    ("GET", "/api/games/{game}/verify"),
    ("GET", "/api/games/{game}/replay"),
    ("POST", "/api/games/{game}/review"),
    ("GET", "/api/games/{game}/review"),
)
#: the game routes that are not gated, and why they tell no wall
UNGATED = {
    ("GET", "/api/games/{game}/state"): "a seat's own view, or the spectators' sealed one",
    ("GET", "/api/games/{game}/events"): "a seat's own stream, by its token",
    ("POST", "/api/games/{game}/answer"): "a seat's answer, by its token",
    ("WS", "/ws/watch/{game}"): "the spectators' sealed stream (checked below)",
}


def test_every_game_route_is_gated_or_says_why_not(tmp_path: Path) -> None:
    """A new ``{game}`` route must join ``GATED`` (and so ``_gated``'s asks) or ``UNGATED``
    with its reason: a record route that forgot the round's gate would leak its walls."""
    app = create_app(Settings(data_dir=str(tmp_path)))
    found = set()
    for route in app.routes:
        path = getattr(route, "path", "")
        if "{game}" in path:
            methods = getattr(route, "methods", None) or {"WS"}
            found |= {(m, path) for m in methods if m != "HEAD"}
    assert found == set(GATED) | set(UNGATED)


async def _gated(http: httpx.AsyncClient, game: str, tid: str) -> list[int]:
    """The status of every answer that would tell the game's walls: each of ``GATED`` (the
    record in every format), and the tournament's export."""
    asks = []
    for method, path in GATED:
        url = path.replace("{game}", game)
        if method == "POST":
            asks.append(http.post(url, json={"seat": 0}))
        elif url.endswith("/review"):
            asks.append(http.get(url, params={"seat": 0}))
        elif url.endswith("/record"):
            asks += [fetch(http, url, format=f) for f in ("json", "tenhou", "mjai")]
        else:
            asks.append(fetch(http, url))
    asks.append(fetch(http, f"/api/tournaments/{tid}/export.zip"))
    answers = [await a for a in asks]
    for a in answers:
        if a.status_code == 409:
            assert a.json()["code"] == "round_running", a.text
    return [a.status_code for a in answers]


@pytest.mark.timeout(600)
async def test_swiss_eight_over_three_rounds_keeps_the_walls_secret(
    tmp_path: Path, database: dict[str, str]
) -> None:
    server = ServerProcess(tmp_path, **ENV, **database)
    await server.start()
    names = [f"swiss{i}" for i in range(8)]
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=60) as http:
            org = (await register(http, [ORGANIZER]))[ORGANIZER]
            tokens = await register(http, names)
            make_admin(server, ORGANIZER)
            made = await create(
                http,
                org,
                name="Swiss night",
                preset="tenhou-tonpuu",
                rounds=3,
                seating="swiss",
                duplicate=True,
                fill="none",
                base_s=30,
                bank_s=0,
            )
            tid = made["id"]
            assert made["state"] == "registering" and made["entries"] == []
            await enter_all(http, tid, tokens)
            events: list[tuple[str, Any]] = []
            sse = asyncio.ensure_future(_sse(http, tid, events))
            started = await http.post(
                f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org)
            )
            assert started.status_code == 201, started.text
            grants = await seats(http, tid, tokens, 1)
            games = sorted({g["game"] for g in grants.values()})
            free, held = games
            release = asyncio.Event()
            ends = Ends()
            players = [
                Held(server.host, g["token"], i, ends.hook, release=release)
                if g["game"] == held
                else Steered(server.host, g["token"], i, ends.hook)
                for i, g in enumerate(grants.values())
            ]
            watchers = [Spectator(server.host, free), Spectator(server.host, held)]
            watching = [asyncio.ensure_future(w.watch()) for w in watchers]
            playing = [asyncio.ensure_future(p.play()) for p in players]
            await asyncio.gather(
                *(t for t, g in zip(playing, grants.values(), strict=True) if g["game"] == free)
            )
            # the free table is over, the held one has not played a tile: the walls are secret
            first_ends = [ends.first[g["token"]] for g in grants.values() if g["game"] == free]
            assert all(e.seed is None and e.salt is None for e in first_ends)
            assert set(await _gated(http, free, tid)) == {409}
            late = Spectator(server.host, free)  # a spectator of the finished table
            await late.watch()
            assert late.end is not None and late.end.seed is None
            assert (await get(http, tid))["seeds"] == {}
            release.set()
            await asyncio.gather(*playing, *watching)
            for w in [*watchers, late]:
                assert w.concealed() == [], w.concealed()[:2]
                assert len(w.snapshots) == 1  # the greeting only: no hand's god view
            assert watchers[0].events and watchers[1].events
            statuses = await _gated(http, free, tid)
            assert statuses[:5] + statuses[7:] == [200] * 6  # between rounds: the zip too
            assert set(statuses[5:7]) <= {200, 202}  # the review: queued or done
            found = await get(http, tid)
            seed = int(found["seeds"]["1"])
            for game in games:
                record = (await fetch(http, f"/api/games/{game}/record")).json()
                assert record["seed"] == seed
                verdict = (await fetch(http, f"/api/games/{game}/verify")).json()
                assert verdict["commitment_ok"] and verdict["replay_ok"] and verdict["draw_ok"]
                assert record["draw"] is not None  # swiss: the seats drawn from the round's seed
            for round_ in (2, 3):
                before = await get(http, tid)
                started = await http.post(
                    f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org)
                )
                assert started.status_code == 201, started.text
                order = [s["name"] for s in before["standings"]]
                ranks = [s["rank"] for s in before["standings"]]
                top = set(started.json()["tables"][0]["seats"])
                if ranks[3] != ranks[4]:  # no tie across the boundary: the first four
                    assert top == set(order[:4])
                await play(server, await seats(http, tid, tokens, round_), None)
            done = await http.post(f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org))
            assert done.status_code == 409 and done.json()["code"] == "finished"
            found = await get(http, tid)
            assert found["state"] == "finished"
            records = {}
            for t in found["tables"]:
                records[t["game"]] = (await fetch(http, f"/api/games/{t['game']}/record")).json()
            exported = await fetch(http, f"/api/tournaments/{tid}/export.zip")
            assert exported.status_code == 200
            csv_text = (await http.get(f"/api/tournaments/{tid}/standings.csv")).text
            for _ in range(40):
                if sum(1 for n, _ in events if n == "standings") >= 6:
                    break
                await asyncio.sleep(0.25)
            sse.cancel()
        want = expected.standings(
            [(r["seats"], r["result"]["scores"], r["rules"]) for r in records.values()], set()
        )
        got = [{k: s[k] for k in want[0]} for s in found["standings"]]
        assert got == want
        standings_events = [d for n, d in events if n == "standings"]
        assert len(standings_events) == 6
        assert {d["game"] for d in standings_events} == set(records)
        last = [{k: s[k] for k in want[0]} for s in standings_events[-1]["standings"]]
        assert last == want
        lines = csv_text.strip().splitlines()
        assert lines[0].startswith("rank,name,total,games")
        assert [line.split(",")[1] for line in lines[1:]] == [s["name"] for s in want]
        with zipfile.ZipFile(io.BytesIO(exported.content)) as z:
            listed = z.namelist()
            assert sum(n.endswith(".tenhou.json") for n in listed) == 6
            assert sum(n.endswith(".mjai.jsonl") for n in listed) == 6
            assert "standings.csv" in listed
            one = next(n for n in listed if n.endswith(".tenhou.json"))
            assert "log" in msgspec.json.decode(z.read(one))
    finally:
        server.stop()


@pytest.mark.timeout(600)
async def test_sanma_of_ten_refused_without_bots_and_run_with_them(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, **ENV)
    await server.start()
    names = [f"sanma{i}" for i in range(10)]
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=60) as http:
            org = (await register(http, [ORGANIZER]))[ORGANIZER]
            tokens = await register(http, names)
            make_admin(server, ORGANIZER)
            options = {
                "preset": "tenhou-sanma-tonpuu",
                "rounds": 2,
                "seating": "balanced",
                "duplicate": False,
                "base_s": 3,
                "bank_s": 5,
            }
            bad = await http.post(
                "/api/tournaments",
                json={**options, "name": "x", "fill": "some"},
                headers=bearer(org),
            )
            assert bad.status_code == 400 and bad.json()["code"] == "bad_tournament"
            none = await create(http, org, name="Sanma, no bots", fill="none", **options)
            await enter_all(http, none["id"], tokens)
            refused = await http.post(
                f"/api/tournaments/{none['id']}/rounds", json={}, headers=bearer(org)
            )
            assert refused.status_code == 409 and refused.json()["code"] == "entries"
            assert (await get(http, none["id"]))["state"] == "registering"
            made = await create(http, org, name="Sanma with bots", fill="bots", **options)
            tid = made["id"]
            await enter_all(http, tid, tokens)
            gone = await http.request(
                "DELETE",
                f"/api/tournaments/{tid}/entries",
                json={},
                headers=bearer(tokens[names[9]]),
            )
            assert gone.status_code == 200
            await enter_all(http, tid, {names[9]: tokens[names[9]]})
            for round_ in (1, 2):
                started = await http.post(
                    f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org)
                )
                assert started.status_code == 201, started.text
                assert len(started.json()["tables"]) == 4
                ends = Ends()
                await play(server, await seats(http, tid, tokens, round_), ends.hook)
                # without duplicate walls a table's seed is its own: told at its end
                assert all(e.seed is not None for e in ends.first.values())
            found = await get(http, tid)
            records = {}
            for t in found["tables"]:
                records[t["game"]] = (await fetch(http, f"/api/games/{t['game']}/record")).json()
        assert found["state"] == "finished"
        assert sorted(found["bots"]) == ["Bot 1", "Bot 2"]
        bots = [s for s in found["standings"] if s["bot"]]
        assert [s["rank"] for s in bots] == [None, None] and all(s["games"] == 2 for s in bots)
        assert next(s["rank"] for s in found["standings"] if not s["bot"]) == 1
        want = expected.standings(
            [(r["seats"], r["result"]["scores"], r["rules"]) for r in records.values()],
            {"Bot 1", "Bot 2"},
        )
        assert [{k: s[k] for k in want[0]} for s in found["standings"]] == want
        assert all(len(t["points"]) == 3 for t in found["tables"])
    finally:
        server.stop()
