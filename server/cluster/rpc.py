"""Requests from one node to another over Redis: a PUBLISH to the owner's channel, the reply
pushed to a one-off list the asker pops with a deadline.

Pub/sub reaches only nodes listening now, so ``PUBLISH`` itself says whether the owner is up
(it returns the number of receivers). Replies go through a list so none is lost between the
publish and the asker's pop. Nothing secret travels: a seat reservation carries the token's
hash, never the token (server/cluster/node.py).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import TimeoutError as RedisTimeout

from server.cluster.directory import PREFIX

log = logging.getLogger("server.cluster")
#: how long an asker waits for the owner's reply
TIMEOUT_S = 5.0
Handler = Callable[[dict[str, Any]], dict[str, Any]]


def channel(node: str) -> str:
    return f"{PREFIX}:rpc:{node}"


async def call(redis: Redis, node: str, request: dict[str, Any]) -> dict[str, Any] | None:
    """The owner's reply to ``request``, or None when it is down or too slow."""
    reply_to = f"{PREFIX}:reply:{secrets.token_hex(12)}"
    payload = msgspec.json.encode({**request, "reply_to": reply_to})
    if await redis.publish(channel(node), payload) == 0:
        return None
    try:
        popped = await redis.blpop([reply_to], timeout=TIMEOUT_S)
    except RedisTimeout:  # redis-py 8 may give up reading just as Redis answers nil
        return None
    if popped is None:
        return None
    reply: dict[str, Any] = msgspec.json.decode(popped[1])
    return reply


async def serve(redis: Redis, node: str, handle: Handler) -> None:
    """Answer requests to ``node`` until cancelled; ``handle`` runs in the event loop."""
    pubsub = redis.pubsub()
    await pubsub.subscribe(channel(node))
    try:
        async for message in pubsub.listen():
            if message["type"] != "message":
                continue
            request: dict[str, Any] = msgspec.json.decode(message["data"])
            try:
                reply = handle(request)
            except Exception:  # one bad request must not stop the node answering
                log.exception("request %s failed", request.get("op"))
                reply = {"error": "failed", "message": "the room's node could not answer"}
            reply_to = str(request["reply_to"])
            pipe = redis.pipeline(transaction=True)
            pipe.rpush(reply_to, msgspec.json.encode(reply))
            pipe.expire(reply_to, int(TIMEOUT_S) + 5)
            await pipe.execute()
    finally:
        await pubsub.aclose()
