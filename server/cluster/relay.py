"""Spectator fan-out: a table's spectator stream, relayed over Redis pub/sub to watchers on
other nodes.

The owner publishes exactly the texts its own spectators get, after ``Spectators`` applied
the table's policy (public view while humans play, the hand's tiles once it ended, delayed god
view for broadcast tables): a relayed watcher can learn nothing a local one could not.
A watcher on another node subscribes first, then asks the owner for the greeting (welcome and
snapshot), and skips relayed events the snapshot already holds.
"""

from __future__ import annotations

import anyio
import msgspec
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

import server.cluster.directory as directory
from server.close_codes import CloseCode
from server.messaging import WireError, encode
from server.session.outbox import Outbox
from server.session.resume import RESTART_REASON
from server.session.spectators import CLOSE_MARK

#: a relayed watcher checks this often that the owner's heartbeat is still there
ALIVE_CHECK_S = 2.0


def channel(game: str) -> str:
    return f"{directory.PREFIX}:watch:{game}"


class _Head(msgspec.Struct):
    """What the relay reads of a server message: its type and sequence number."""

    type: str
    seq: int = -1


def _forward(text: str, outbox: Outbox, first: int) -> bool:
    """Pass one relayed text on; False when the stream is over (the outbox is shut)."""
    if text.startswith(CLOSE_MARK):
        outbox.shut(int(text[len(CLOSE_MARK) :]), RESTART_REASON)
        return False
    head = msgspec.json.decode(text, type=_Head)
    if head.type in ("event", "snapshot") and head.seq < first:
        return True  # from before the greeting's snapshot (which holds its events)
    outbox.push(text)
    if head.type == "end":
        outbox.shut()
        return False
    return True


async def forward(redis: Redis, pubsub: PubSub, node: str, outbox: Outbox, first: int) -> None:
    """Relayed texts into ``outbox`` until the game ends or its node goes away (then the
    watcher is told to reconnect, as when a server restarts: close 1012)."""
    checked = anyio.current_time()
    while not outbox.closed:
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        if message is not None and not _forward(message["data"], outbox, first):
            return
        if anyio.current_time() - checked >= ALIVE_CHECK_S:
            checked = anyio.current_time()
            if not await redis.exists(directory.node_key(node)):
                outbox.push(encode(WireError("restarting", RESTART_REASON)))
                outbox.shut(CloseCode.RESTARTING, RESTART_REASON)
                return
