"""The two ``Waiting`` stores of the ranked queue behave alike: in memory (a server alone) and
in a real redis-server (a cluster). One queue entry per account, groups popped oldest first
and marked seated, a group put back in front, markers released at the end."""

from __future__ import annotations

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


async def test_one_entry_per_account_and_groups_oldest_first(waiting: Waiting) -> None:
    assert await waiting.join(1, "one", "hanchan", 4) == WAITING
    assert await waiting.join(1, "one", "tonpuu", 4) == QUEUED
    assert await waiting.join(2, "two", "hanchan", 4) == WAITING
    assert await waiting.join(3, "three", "tonpuu", 4) == WAITING
    where = await waiting.where(2)
    assert where is not None and where[0] == "hanchan" and where[2] == 2
    assert await waiting.counts(["hanchan", "tonpuu", "sanma"]) == {
        "hanchan": 2,
        "tonpuu": 1,
        "sanma": 0,
    }
    assert await waiting.leave(2) and not await waiting.leave(2)
    for account in (4, 5):
        assert await waiting.join(account, f"p{account}", "hanchan", 4) == WAITING
    group = await waiting.join(6, "p6", "hanchan", 4)
    assert group == [(1, "one"), (4, "p4"), (5, "p5"), (6, "p6")]
    assert await waiting.where(1) is None and await waiting.grant(1) == b""
    assert await waiting.join(1, "one", "tonpuu", 4) == SEATED
    await waiting.put_grant(4, b'{"game": "g"}')
    assert await waiting.grant(4) == b'{"game": "g"}'
    assert await waiting.join(7, "p7", "hanchan", 4) == WAITING
    await waiting.release([1, 4, 5, 6])
    assert await waiting.grant(4) is None
    await waiting.requeue("hanchan", [(5, "p5"), (6, "p6")])
    assert await waiting.counts(["hanchan"]) == {"hanchan": 3}
    assert await waiting.join(8, "p8", "hanchan", 4) == [
        (5, "p5"),
        (6, "p6"),
        (7, "p7"),
        (8, "p8"),
    ]
