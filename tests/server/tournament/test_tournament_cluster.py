"""A tournament across two ``python -m server`` nodes on one real Redis and one real
PostgreSQL: each round's two tables are seated one on each node (their share of the round,
counted from the Redis directory), every seat is played on its table's node, and both nodes
serve the same standings (one truth in PostgreSQL), equal to an independent computation
from the records."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.cluster.test_cluster import nodes
from tests.server.tournament import expected
from tests.server.tournament.event import (
    ENV,
    ORGANIZER,
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
from tests.services import fresh_database, postgres_server, redis_server


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    with redis_server() as redis_url, postgres_server() as pg_url:
        yield redis_url, fresh_database(pg_url, "riichi")


@pytest.mark.timeout(600)
async def test_a_round_spreads_over_two_nodes_and_the_standings_are_one(
    tmp_path: Path, services: tuple[str, str]
) -> None:
    redis_url, pg_url = services
    names = [f"node{i}" for i in range(8)]
    async with nodes(tmp_path, redis_url, RIICHI_DATABASE_URL=pg_url, **ENV) as (a, b):
        by_url = {f"http://{n.host}": n for n in (a, b)}
        async with (
            httpx.AsyncClient(base_url=f"http://{a.host}", timeout=60) as on_a,
            httpx.AsyncClient(base_url=f"http://{b.host}", timeout=60) as on_b,
        ):
            org = (await register(on_a, [ORGANIZER]))[ORGANIZER]
            tokens = await register(on_b, names)
            make_admin(a, ORGANIZER)
            made = await create(
                on_b,
                org,
                name="Two nodes",
                preset="tenhou-tonpuu",
                rounds=2,
                seating="balanced",
                duplicate=True,
                fill="none",
                base_s=3,
                bank_s=5,
            )
            tid = made["id"]
            await enter_all(on_a, tid, tokens)
            for round_ in (1, 2):
                started = await on_a.post(
                    f"/api/tournaments/{tid}/rounds", json={}, headers=bearer(org)
                )
                assert started.status_code == 201, started.text
                grants = await seats(on_b, tid, tokens, round_)
                where = {g["game"]: g["node"] for g in grants.values()}
                assert len(where) == 2 and set(where.values()) == set(by_url), where
                for url in by_url:
                    mine = {n: g for n, g in grants.items() if g["node"] == url}
                    assert len(mine) == 4
                await asyncio.gather(
                    *(
                        play(by_url[url], {n: g for n, g in grants.items() if g["node"] == url})
                        for url in by_url
                    )
                )
            seen_a, seen_b = await get(on_a, tid), await get(on_b, tid)
            assert seen_a == seen_b and seen_a["state"] == "finished"
            records = {}
            for t in seen_a["tables"]:
                got = await fetch(on_b, f"/api/games/{t['game']}/record")
                assert got.status_code == 200, got.text
                records[t["game"]] = got.json()
    want = expected.standings(
        [(r["seats"], r["result"]["scores"], r["rules"]) for r in records.values()], set()
    )
    assert [{k: s[k] for k in want[0]} for s in seen_a["standings"]] == want
    for round_ in (1, 2):
        seeds = {records[t["game"]]["seed"] for t in seen_a["tables"] if t["round"] == round_}
        assert seeds == {int(seen_a["seeds"][str(round_)])}
