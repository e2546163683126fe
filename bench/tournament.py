"""A tournament of 256 bot entrants over 8 rounds on a real ``python -m server``.

    python -m bench.tournament [--entrants 256] [--rounds 8] [--seating swiss|balanced]
                               [--preset tenhou-tonpuu] [--duplicate]

The organiser is an account made admin by the operator's command line; the entrants are bot
entries written into the store before round 1 (what ``fill: bots`` writes), so every table
is an all-bot table playing at once (``RIICHI_BOT_PACE_S=0``). Each round is started by
``POST /api/tournaments/{id}/rounds`` and watched over the page's own stream
(``GET .../events``). Per round it prints:

- the seating: ``seating.swiss`` (or ``seating.balanced`` for round 1) on the standings and
  earlier tables the server had, timed here, and the ``POST .../rounds`` answer's time (the
  server's seating, its storing, and opening this node's rooms);
- the games' wall time;
- from the round's last game end (its table's ``ended``, stamped in the finishing
  transaction) to the ``standings`` event that carries it, and to a ``GET`` that shows it.

Before the run, ``seating.balanced`` alone on the sizes the search has to work on; after
it, the repeated meetings over the whole event. Exits non-zero when a round's standings do
not count every game, or a balanced event's meetings miss their lower bound.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.tournament import seating
from tests.server.procs import ServerProcess
from tests.server.tournament.event import (
    ENV,
    ORGANIZER,
    bearer,
    create,
    get,
    make_admin,
    register,
)

#: every decision at once: the bench measures the server's tournament work, not a pace
FAST = {**ENV, "RIICHI_BOT_PACE_S": "0", "RIICHI_BOT_THINK_S": "0", "RIICHI_MAX_ROOMS": "4000"}


def balanced_alone(rounds: int) -> None:
    """``seating.balanced`` on sizes with a design (256) and without (252, 248, 24)."""
    for n in (256, 252, 248, 24):
        names = [f"p{i}" for i in range(n)]
        started = time.perf_counter()
        plan = seating.balanced(names, rounds, 4)
        took = time.perf_counter() - started
        print(
            f"seating.balanced {n} x {rounds} rounds: {took * 1000:.1f} ms, "
            f"repeats {seating.repeats(plan)} (bound {seating.lower_bound(n, rounds, 4)})"
        )


def seed_entries(db: Path, tid: str, entrants: int) -> list[str]:
    """Bot entries, as ``fill: bots`` writes them, straight into the store."""
    names = [f"Bot {i + 1}" for i in range(entrants)]
    with sqlite3.connect(db, timeout=30) as conn:
        conn.executemany(
            "INSERT INTO tournament_entries (tournament, name, account, bot, n) "
            "VALUES (?, ?, NULL, 1, ?)",
            [(tid, name, float(i)) for i, name in enumerate(names)],
        )
    conn.close()
    return names


def ended(db: Path, tid: str, round_: int) -> dict[str, float]:
    """Each game of the round and when its finishing transaction stamped its end."""
    with sqlite3.connect(db, timeout=30) as conn:
        found = conn.execute(
            "SELECT game, ended FROM tournament_tables WHERE tournament = ? AND round = ?",
            (tid, round_),
        ).fetchall()
    conn.close()
    return {str(game): float(at) for game, at in found if at is not None}


class Stream:
    """The page's SSE stream: when each game's ``standings`` event arrived."""

    def __init__(self) -> None:
        self.arrived: dict[str, tuple[float, dict[str, Any]]] = {}
        self.changed = asyncio.Event()

    async def follow(self, http: httpx.AsyncClient, tid: str) -> None:
        name = ""
        async with http.stream("GET", f"/api/tournaments/{tid}/events", timeout=None) as got:
            async for line in got.aiter_lines():
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: ") and name == "standings":
                    data = json.loads(line[6:])
                    self.arrived[data["game"]] = (time.time(), data)
                    self.changed.set()

    async def wait_round(self, round_: int, tables: int) -> list[tuple[float, dict[str, Any]]]:
        while True:
            got = [a for a in self.arrived.values() if a[1]["round"] == round_]
            if len(got) == tables:
                return got
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), timeout=1800)


def plan_time(found: dict[str, Any], round_: int, seating_kind: str, rounds: int) -> float:
    """The seating the server computes for ``round_``, timed here on the same inputs."""
    started = time.perf_counter()
    if seating_kind == "balanced":
        if round_ == 1:
            seating.balanced(list(found["entries"]), rounds, 4)
    elif round_ > 1:
        order = [s["name"] for s in found["standings"]]
        ranks = [s["rank"] for s in found["standings"]]
        previous = [t["seats"] for t in found["tables"]]
        seating.swiss(order, previous, 4, ranks=ranks)
    return time.perf_counter() - started


async def run(args: argparse.Namespace) -> int:
    balanced_alone(args.rounds)
    data = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    server = ServerProcess(data, **FAST)
    await server.start()
    failed = 0
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=600) as http:
            tokens = await register(http, [ORGANIZER])
            make_admin(server, ORGANIZER)
            made = await create(
                http,
                tokens[ORGANIZER],
                name="bench",
                preset=args.preset,
                rounds=args.rounds,
                seating=args.seating,
                duplicate=args.duplicate,
                fill="none",
            )
            tid = made["id"]
            seed_entries(server.db, tid, args.entrants)
            stream = Stream()
            follower = asyncio.ensure_future(stream.follow(http, tid))
            tables = args.entrants // 4
            for round_ in range(1, args.rounds + 1):
                found = await get(http, tid)
                alone = plan_time(found, round_, args.seating, args.rounds)
                started = time.time()
                answer = await http.post(
                    f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(tokens[ORGANIZER])
                )
                posted = time.time() - started
                assert answer.status_code == 201, answer.text
                arrivals = await stream.wait_round(round_, tables)
                ends = ended(server.db, tid, round_)
                last_end = max(ends.values())
                last_event = max(t for t, _ in arrivals)
                after = await get(http, tid)
                got_at = time.time()
                counted = [s["games"] for s in after["standings"]]
                if counted != [round_] * args.entrants:
                    failed += 1
                lags = [t - ends[data["game"]] for t, data in arrivals]
                print(
                    f"round {round_}: seating {alone * 1000:.1f} ms ({args.seating}), "
                    f"POST rounds {posted * 1000:.0f} ms; {tables} games in "
                    f"{last_end - started:.1f} s; last game end -> standings event "
                    f"{(last_event - last_end) * 1000:.0f} ms (median over the round's games "
                    f"{statistics.median(lags) * 1000:.0f} ms), -> GET "
                    f"{(got_at - last_end) * 1000:.0f} ms; standings count every game: "
                    f"{counted == [round_] * args.entrants}",
                    flush=True,
                )
            follower.cancel()
            final = await get(http, tid)
            by_round = [
                [x["seats"] for x in final["tables"] if x["round"] == r]
                for r in range(1, args.rounds + 1)
            ]
            met = seating.repeats(by_round)
            bound = seating.lower_bound(args.entrants, args.rounds, 4)
            print(
                f"repeated meetings over the event: {met} (lower bound {bound}); {final['state']}"
            )
            if args.seating == "balanced" and met != bound:
                failed += 1
    finally:
        server.stop()
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seating", choices=("swiss", "balanced"), default="swiss")
    parser.add_argument("--preset", default="tenhou-tonpuu")
    parser.add_argument("--duplicate", action="store_true")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
