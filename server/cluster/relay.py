"""Spectator fan-out: a table's spectator stream, relayed over Redis pub/sub to watchers on
other nodes.

The owner publishes exactly the texts its own spectators get, after ``Spectators`` applied
the table's policy (public view while humans play, the hand's tiles once it ended, delayed god
view for broadcast tables): a relayed watcher can learn nothing a local one could not.
A watcher on another node subscribes first, then asks the owner for the greeting (welcome and
snapshot), and skips relayed events the snapshot already holds.
"""

from __future__ import annotations

import logging
from typing import Protocol

import anyio
import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

import server.cluster.directory as directory
from server.edge.close_codes import CLOSE_MARK, RESTART_REASON, CloseCode
from server.edge.codec import encode
from server.edge.messaging import WireError

log = logging.getLogger("server.cluster")
#: how often the relay checks that the nodes whose games it relays have not restarted
ALIVE_CHECK_S = 2.0


class Sink(Protocol):
    """Where a relayed watcher's texts go: its connection's send queue (server/session's
    ``Outbox``, which the cluster never imports)."""

    @property
    def closed(self) -> bool: ...

    def push(self, text: str) -> object: ...

    def shut(self, code: int = ..., reason: str = ...) -> None: ...


#: at most this many texts go in one pipeline (a bound on one write's size)
BATCH = 1024


def channel(game: str) -> str:
    return f"{directory.PREFIX}:watch:{game}"


async def publish(redis: Redis, texts: list[tuple[str, str]]) -> None:
    """``(channel, text)`` pairs published in their order in one pipeline: one write and
    one round trip for all. Redis runs a connection's commands in the order they came, so
    each stream keeps its order."""
    pipe = redis.pipeline(transaction=False)
    for name, text in texts:
        pipe.publish(name, text)
    await pipe.execute()


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


class Subscription:
    """One relayed watcher's part of the node's subscription to a game's channel: texts
    that come before its greeting is in are kept (``backlog``) and passed on, skipped where
    the greeting held them, once the watcher follows."""

    def __init__(self, name: str, node: str) -> None:
        self.name, self.node = name, node
        self.backlog: list[str] = []
        self.stream: _Stream | None = None
        self.boot = ""
        self.restarted = False
        self.over = anyio.Event()

    def deliver(self, text: str) -> None:
        if self.over.is_set():
            return
        if self.stream is None:
            self.backlog.append(text)
        elif self.stream.outbox.closed or not self.stream.forward(text):
            self.over.set()

    async def follow(self, outbox: Sink, first: int, boot: str) -> None:
        """Texts into ``outbox`` (from ``first``, the greeting's next) until the stream is
        over: the game ended, the watcher left, or its node went away."""
        self.stream, self.boot = _Stream(outbox, first), boot
        if self.restarted:
            self._tell_restarting(outbox)
            return
        backlog, self.backlog = self.backlog, []
        for text in backlog:
            self.deliver(text)
        await self.over.wait()

    def restart(self) -> None:
        """The node that greeted this watcher went away or restarted, or the relay lost
        Redis: it reconnects (close 1012) and greets the game afresh."""
        if self.over.is_set():
            return
        self.restarted = True
        if self.stream is not None:
            self._tell_restarting(self.stream.outbox)
        self.over.set()

    @staticmethod
    def _tell_restarting(outbox: Sink) -> None:
        outbox.push(encode(WireError("restarting", RESTART_REASON)))
        outbox.shut(CloseCode.RESTARTING, RESTART_REASON)


class Watching:
    """Every watcher this node relays, on one pub/sub connection and one reader task.

    A connection and a reading task per relayed watcher (as before 2026-12-07) cost the
    node a socket read, a wake and a parse per text per watcher, a Redis connection each
    (made and torn down on every reconnect), and a boot check each every ``ALIVE_CHECK_S``;
    when a node restarted, every one of its watchers here ended in the same second. Here a
    game's channel is subscribed once, whoever watches it; one ``MGET`` a check covers every
    node; and watchers are let go ``PACE`` at a time, ``GAP_S`` apart."""

    #: watchers told to reconnect (or texts read) before the reader lets the loop run
    PACE = 32
    #: the rest between two slices of watchers told to reconnect: each one's socket closes
    #: and its task ends on this loop, and a node's every watcher is told in the same check
    GAP_S = 0.01

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.pubsub = redis.pubsub()
        self.subs: dict[str, set[Subscription]] = {}
        self._any = anyio.Event()
        #: SUBSCRIBE and UNSUBSCRIBE one at a time (redis-py's PubSub takes its connection
        #: on the first, and tracks its channels across both)
        self._lock = anyio.Lock()
        #: channels whose SUBSCRIBE is being sent: a second watcher waits for it
        self._sending: dict[str, anyio.Event] = {}

    async def subscribe(self, game: str, node: str) -> Subscription:
        """A watcher's subscription to ``game`` (run by ``node``), before it asks for the
        greeting, so that no text falls between them."""
        sub = Subscription(channel(game), node)
        held = self.subs.setdefault(sub.name, set())
        held.add(sub)
        sent = self._sending.get(sub.name)
        if sent is not None:  # another watcher's SUBSCRIBE of it is on its way
            await sent.wait()
        elif len(held) == 1:
            sent = self._sending[sub.name] = anyio.Event()
            try:
                async with self._lock:
                    await self.pubsub.subscribe(sub.name)
            except BaseException:
                self._drop(sub)
                raise
            finally:
                del self._sending[sub.name]
                sent.set()
        self._any.set()
        return sub

    async def leave(self, sub: Subscription) -> None:
        sub.over.set()
        if self._drop(sub):
            async with self._lock:
                if sub.name not in self.subs:  # nobody subscribed again meanwhile
                    await self.pubsub.unsubscribe(sub.name)

    def _drop(self, sub: Subscription) -> bool:
        """Forget ``sub``; True when it was its channel's last."""
        held = self.subs.get(sub.name)
        if held is None:
            return False
        held.discard(sub)
        if held:
            return False
        del self.subs[sub.name]
        return True

    async def run(self) -> None:
        """Read and hand out texts, and check the greeting nodes' boots, until cancelled.
        A Redis that went away is waited for; every watcher is told to reconnect, since
        texts published meanwhile are lost to them."""
        await self._any.wait()
        checked = anyio.current_time()
        while True:
            try:
                await self._read(1.0)
                if anyio.current_time() - checked >= ALIVE_CHECK_S:
                    checked = anyio.current_time()
                    await self._check_boots()
            except (OSError, RedisError) as exc:
                log.warning("relayed watchers lost Redis: %s", exc)
                await self._restart([s for held in self.subs.values() for s in held])
                await anyio.sleep(1.0)

    async def _read(self, timeout: float) -> None:
        """Texts until none came for ``timeout`` s or ``ALIVE_CHECK_S`` passed, the loop let
        run every ``PACE`` texts (what is buffered is read without giving it up)."""
        until = anyio.current_time() + ALIVE_CHECK_S
        read = 0
        while anyio.current_time() < until:
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
            if message is None:
                return
            for sub in list(self.subs.get(message["channel"], ())):
                sub.deliver(message["data"])
            read += 1
            if read % self.PACE == 0:
                await anyio.sleep(0)

    async def _check_boots(self) -> None:
        """One ``MGET`` for every node greeting watchers here: those of a node gone or
        restarted (its boot id changed) are told to reconnect."""
        following = [s for held in self.subs.values() for s in held if s.stream is not None]
        nodes = sorted({s.node for s in following})
        if not nodes:
            return
        found: list[str | None] = await self.redis.mget([directory.boot_key(n) for n in nodes])  # type: ignore[assignment]
        boots = dict(zip(nodes, found, strict=True))
        await self._restart([s for s in following if boots[s.node] != s.boot])

    async def _restart(self, subs: list[Subscription]) -> None:
        for i, sub in enumerate(subs):
            sub.restart()
            if i % self.PACE == self.PACE - 1:
                await anyio.sleep(self.GAP_S)
