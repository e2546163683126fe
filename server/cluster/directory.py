"""The shared room directory in Redis: which node runs which room, and every node's lobby.

Each node owns two hashes it rewrites whole about once a second (and at once after a change):
``riichi:rooms:<node>`` (room code -> RoomInfo JSON, with ``node`` set to the node's URL) and
``riichi:games:<node>`` (game id -> room code), both expiring a few seconds after the node's
last write, beside ``riichi:node:<node>`` (its URL; the node's heartbeat). Rewriting the whole
hash, rather than patching entries, is what repairs the directory after a node was killed:
its first write after the restart holds exactly the rooms it restored, and a node that never
comes back drops out when its keys expire. A beat whose rooms are the ones last written only
renews the keys' expiry (``refresh``): encoding and storing a thousand rooms a second was
work on the core Redis shares with the nodes.
"""

from __future__ import annotations

import msgspec
from redis.asyncio import Redis

from server.edge.messaging import RoomInfo

PREFIX = "riichi"
NODES = f"{PREFIX}:nodes"
#: seconds a node's entries outlive its last write (it writes every HEARTBEAT_S)
TTL_S = 5
HEARTBEAT_S = 1.0


def node_key(node: str) -> str:
    return f"{PREFIX}:node:{node}"


def boot_key(node: str) -> str:
    """The node's boot id: a new one each start, so a relay can tell a restarted node from
    the one it greeted (a restart may have dropped what the first published last)."""
    return f"{PREFIX}:boot:{node}"


def rooms_key(node: str) -> str:
    return f"{PREFIX}:rooms:{node}"


def games_key(node: str) -> str:
    return f"{PREFIX}:games:{node}"


async def publish(redis: Redis, node: str, url: str, boot: str, rooms: list[RoomInfo]) -> None:
    """Replace this node's entries with ``rooms`` in one transaction."""
    pipe = redis.pipeline(transaction=True)
    pipe.set(node_key(node), url, ex=TTL_S)
    pipe.set(boot_key(node), boot, ex=TTL_S)
    pipe.sadd(NODES, node)
    pipe.delete(rooms_key(node), games_key(node))
    if rooms:
        pipe.hset(rooms_key(node), mapping={r.code: msgspec.json.encode(r) for r in rooms})
        pipe.hset(games_key(node), mapping={r.game: r.code for r in rooms})
        pipe.expire(rooms_key(node), TTL_S)
        pipe.expire(games_key(node), TTL_S)
    await pipe.execute()


async def refresh(redis: Redis, node: str, url: str, boot: str) -> bool:
    """Renew this node's entries for another ``TTL_S`` without rewriting them (its rooms
    did not change since its last write); False when they were gone (Redis lost them, or
    was away past ``TTL_S``), so ``publish`` must write them whole."""
    pipe = redis.pipeline(transaction=True)
    pipe.set(node_key(node), url, ex=TTL_S)
    pipe.set(boot_key(node), boot, ex=TTL_S)
    pipe.sadd(NODES, node)
    pipe.expire(rooms_key(node), TTL_S)
    pipe.expire(games_key(node), TTL_S)
    *_, rooms, games = await pipe.execute()
    return bool(rooms and games)


async def withdraw(redis: Redis, node: str) -> None:
    """A node that stops cleanly leaves the directory at once."""
    await redis.delete(node_key(node), boot_key(node), rooms_key(node), games_key(node))


async def live_nodes(redis: Redis) -> dict[str, str]:
    """node id -> URL of every node whose heartbeat has not expired."""
    nodes: list[str] = sorted(await redis.smembers(NODES))  # type: ignore[arg-type]
    if not nodes:
        return {}
    urls: list[str | None] = await redis.mget([node_key(n) for n in nodes])  # type: ignore[assignment]
    return {n: u for n, u in zip(nodes, urls, strict=True) if u is not None}


async def find_room(redis: Redis, code: str) -> tuple[str, RoomInfo] | None:
    """(node, room) of the room with join code ``code`` on any live node, or None."""
    nodes = list(await live_nodes(redis))
    pipe = redis.pipeline(transaction=False)
    for node in nodes:
        pipe.hget(rooms_key(node), code)
    for node, raw in zip(nodes, await pipe.execute(), strict=True):
        if raw is not None:
            return node, msgspec.json.decode(raw, type=RoomInfo)
    return None


async def find_game(redis: Redis, game: str) -> str | None:
    """The node that runs game ``game``, or None."""
    nodes = list(await live_nodes(redis))
    pipe = redis.pipeline(transaction=False)
    for node in nodes:
        pipe.hexists(games_key(node), game)
    for node, held in zip(nodes, await pipe.execute(), strict=True):
        if held:
            return node
    return None


async def lobby(redis: Redis) -> list[RoomInfo]:
    """The public, unfinished rooms of every live node, by code (a stable order to page)."""
    nodes = list(await live_nodes(redis))
    pipe = redis.pipeline(transaction=False)
    for node in nodes:
        pipe.hvals(rooms_key(node))
    rooms = [
        msgspec.json.decode(raw, type=RoomInfo) for values in await pipe.execute() for raw in values
    ]
    return sorted((r for r in rooms if r.public and r.status != "finished"), key=lambda r: r.code)
