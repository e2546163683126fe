"""A node's directory entries over a real Redis: written whole when its rooms changed or
Redis lost them, and otherwise only renewed (a beat that rewrote every room every second was
work on the core Redis shares with the nodes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest

import server.cluster.directory as directory
from server.cluster.node import Cluster
from server.edge.messaging import RoomInfo, WireError
from server.settings import Settings
from tests import system
from tests.services import redis_server


@pytest.fixture
def redis_url() -> Iterator[str]:
    system.redis()
    with redis_server() as url:
        yield url


def room(code: str, status: Any = "playing") -> RoomInfo:
    return RoomInfo(code, f"game-{code}", "tenhou-tonpuu", True, 5.0, 10.0, [], status)


class Rooms:
    """What the cluster asks of a hub (``Host``): here only the rooms it lists now."""

    def __init__(self, rooms: list[RoomInfo]) -> None:
        self.rooms = rooms

    def listed(self) -> list[RoomInfo]:
        return list(self.rooms)

    def reserve(
        self, code: str, name: str, invite: str | None, token_hash: str
    ) -> tuple[RoomInfo, int] | WireError:
        return WireError("no_room", "nobody joins here")

    def greeting(self, game: str) -> tuple[list[str], int, bool] | None:
        return None


async def _written(cluster: Cluster) -> int:
    """HSETs Redis ran so far (a whole write is two: the rooms and the games)."""
    stats: dict[str, Any] = await cluster.redis.info("commandstats")
    return int(stats.get("cmdstat_hset", {"calls": 0})["calls"])


async def _until_written(cluster: Cluster, calls: int) -> None:
    """Beat until Redis has run ``calls`` HSETs (a loaded machine may take many beats), then
    a few more: the count must then stay, or the loop wrote more than once."""
    with anyio.fail_after(20):
        while await _written(cluster) < calls:
            await _beat(cluster, 1)
    await _beat(cluster, 3)
    assert await _written(cluster) == calls


async def _beat(cluster: Cluster, beats: int) -> None:
    """``beats`` more turns of the publish loop (a touch wakes it at once)."""
    for _ in range(beats):
        cluster.touch()
        await anyio.sleep(0.05)


async def test_unchanged_rooms_are_renewed_not_rewritten_and_rewritten_once_lost(
    redis_url: str,
) -> None:
    cluster = Cluster(Settings(redis_url=redis_url, node_id="n"))
    host = Rooms([room("AAAA"), room("BBBB")])
    try:
        async with cluster.redis, anyio.create_task_group() as tg:
            tg.start_soon(cluster._publish_loop, host)
            await _until_written(cluster, 2)
            await _beat(cluster, 5)
            assert await _written(cluster) == 2  # the same rooms: only their expiry renewed
            assert await cluster.redis.ttl(directory.rooms_key("n")) > 0
            assert {r.code for r in await directory.lobby(cluster.redis)} == {"AAAA", "BBBB"}
            host.rooms = [room("AAAA"), room("BBBB", "finished"), room("CCCC")]
            await _until_written(cluster, 4)
            assert {r.code for r in await directory.lobby(cluster.redis)} == {"AAAA", "CCCC"}
            await cluster.redis.delete(directory.rooms_key("n"))  # as if Redis had lost it
            await _until_written(cluster, 6)  # written whole again, once
            assert await directory.find_game(cluster.redis, "game-CCCC") == "n"
            tg.cancel_scope.cancel()
    finally:
        cluster._relay_in.close()
        cluster._relay_out.close()
