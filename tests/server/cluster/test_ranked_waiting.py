"""The two ``Waiting`` stores of the ranked queue behave alike: in memory (a server alone) and
in a real redis-server (a cluster). One queue entry per account, the pool in arrival order,
a drawn table taken only whole and marked seated, a group put back in front, markers
released at the end, entries without a heartbeat dropped."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from server.cluster.queue import RedisWaiting
from server.ladder.queue import QUEUED, SEATED, WAITING, LocalWaiting, Waiting
from tests.services import redis_server


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture(params=["memory", "redis"])
async def waiting(request: pytest.FixtureRequest) -> AsyncIterator[Waiting]:
    if request.param == "memory":
        yield LocalWaiting()
        return
    redis = Redis.from_url(request.getfixturevalue("redis_url"), decode_responses=True)
    await redis.flushall()
    yield RedisWaiting(redis)
    await redis.aclose()


async def test_one_entry_per_account_taken_by_table_and_put_back(waiting: Waiting) -> None:
    assert await waiting.join(1, "one", "hanchan", "10.0.0.1") == WAITING
    assert await waiting.join(1, "one", "tonpuu", "10.0.0.1") == QUEUED
    assert await waiting.join(2, "two", "hanchan", "10.0.0.2") == WAITING
    assert await waiting.join(3, "three", "tonpuu", "10.0.0.3") == WAITING
    where = await waiting.where(2)
    assert where is not None and where[0] == "hanchan" and where[2] == 2
    assert await waiting.counts(["hanchan", "tonpuu", "sanma"]) == {
        "hanchan": 2,
        "tonpuu": 1,
        "sanma": 0,
    }
    assert await waiting.leave(2) and not await waiting.leave(2)
    for account in (4, 5, 6):
        assert await waiting.join(account, f"p{account}", "hanchan", f"10.0.0.{account}") == WAITING
    pool, stale = await waiting.pool("hanchan", 30.0)
    assert stale == [] and [a for a, _, _ in pool] == [1, 4, 5, 6]  # arrival order
    assert pool[0] == (1, "one", "10.0.0.1")
    # a table is taken only whole: one with an account that left (2), or from another lobby
    # (3), or twice over, is refused; the others are popped and marked seated
    taken = await waiting.take("hanchan", [[6, 5, 2, 1], [3, 4, 5, 6], [6, 5, 4, 1], [1, 4]])
    assert taken == [
        [
            (6, "p6", "10.0.0.6"),
            (5, "p5", "10.0.0.5"),
            (4, "p4", "10.0.0.4"),
            (1, "one", "10.0.0.1"),
        ]
    ]
    assert await waiting.where(1) is None and await waiting.grant(1) == b""
    assert await waiting.join(1, "one", "tonpuu", "10.0.0.1") == SEATED
    await waiting.put_grant(4, b'{"game": "g"}')
    assert await waiting.grant(4) == b'{"game": "g"}'
    assert await waiting.join(7, "p7", "hanchan", "10.0.0.7") == WAITING
    await waiting.release([1, 4, 5, 6])
    assert await waiting.grant(4) is None
    await waiting.requeue("hanchan", [(5, "p5", "10.0.0.5"), (6, "p6", "10.0.0.6")])
    assert await waiting.counts(["hanchan"]) == {"hanchan": 3}
    pool, _ = await waiting.pool("hanchan", 30.0)
    assert pool == [(5, "p5", "10.0.0.5"), (6, "p6", "10.0.0.6"), (7, "p7", "10.0.0.7")]


async def test_an_entry_without_a_heartbeat_is_dropped_by_the_pool(waiting: Waiting) -> None:
    assert await waiting.join(1, "one", "hanchan", "a") == WAITING
    assert await waiting.join(2, "two", "hanchan", "b") == WAITING
    await asyncio.sleep(0.3)
    await waiting.beat(2)
    await waiting.beat(9)  # not queued: nothing happens
    pool, stale = await waiting.pool("hanchan", 0.2)
    assert stale == [1] and pool == [(2, "two", "b")]
    assert await waiting.where(1) is None and await waiting.where(9) is None
