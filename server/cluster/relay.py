"""Spectator fan-out: a table's spectator stream, relayed over Redis pub/sub to watchers on
other nodes.

The owner publishes exactly the texts its own spectators get, after ``Spectators`` applied
the table's policy (public view while humans play, the hand's tiles once it ended, delayed god
view for broadcast tables): a relayed watcher can learn nothing a local one could not.
A watcher on another node subscribes first, then asks the owner for the greeting (welcome and
snapshot), and skips relayed events the snapshot already holds.
"""

from __future__ import annotations

from typing import Protocol

import anyio
import msgspec
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

import server.cluster.directory as directory
from server.edge.close_codes import CLOSE_MARK, RESTART_REASON, CloseCode
from server.edge.messaging import WireError, encode

#: a relayed watcher checks this often that the owner's heartbeat is still there
ALIVE_CHECK_S = 2.0


class Sink(Protocol):
    """Where a relayed watcher's texts go: its connection's send queue (server/session's
    ``Outbox``, which the cluster never imports)."""

    @property
    def closed(self) -> bool: ...

    def push(self, text: str) -> object: ...

    def shut(self, code: int = ..., reason: str = ...) -> None: ...


def channel(game: str) -> str:
    return f"{directory.PREFIX}:watch:{game}"


class _Head(msgspec.Struct):
    """What the relay reads of a server message: its type and sequence number."""

    type: str
    seq: int = -1


class _Stream:
    """One relayed watcher's place in the stream: the next sequence number it lacks.

    Texts at an earlier number are dropped: those the greeting's snapshot already held,
    and any the owner sends again (a restored table replays its game before it goes on)."""

    def __init__(self, outbox: Sink, first: int) -> None:
        self.outbox = outbox
        self.next = first

    def forward(self, text: str) -> bool:
        """Pass one relayed text on; False when the stream is over (the outbox is shut)."""
        if text.startswith(CLOSE_MARK):
            self.outbox.shut(int(text[len(CLOSE_MARK) :]), RESTART_REASON)
            return False
        head = msgspec.json.decode(text, type=_Head)
        if head.type == "event":
            if head.seq < self.next:
                return True
            self.next = head.seq + 1
        elif head.type == "snapshot" and head.seq < self.next:
            return True
        self.outbox.push(text)
        if head.type == "end":
            self.outbox.shut()
            return False
        return True


async def forward(
    redis: Redis, pubsub: PubSub, node: str, boot: str, outbox: Sink, first: int
) -> None:
    """Relayed texts into ``outbox`` until the game ends or the node that greeted the watcher
    goes away or restarts (its ``boot`` id changed). Then the watcher is told to reconnect,
    as when a server restarts (close 1012), and greets the game afresh."""
    stream = _Stream(outbox, first)
    checked = anyio.current_time()
    while not outbox.closed:
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        if message is not None and not stream.forward(message["data"]):
            return
        if anyio.current_time() - checked >= ALIVE_CHECK_S:
            checked = anyio.current_time()
            if await redis.get(directory.boot_key(node)) != boot:
                outbox.push(encode(WireError("restarting", RESTART_REASON)))
                outbox.shut(CloseCode.RESTARTING, RESTART_REASON)
                return
