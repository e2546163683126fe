"""Cluster: this node's part in the scale-out (the package docstring says what Redis holds).

It lives in a module of its own, not in the package ``__init__``: the helpers beside it
(directory, relay, rpc, limits) import each other by module path, so importing one of them
never runs this module, and this module importing them is no cycle.

The cluster and the sessions never import each other (docs/architecture.md): ``Cluster`` fits
server/session/peers.py's ``Peers``, which the hub calls, and asks the hub only what ``Host``
below names; server/app.py joins the two.
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

import anyio
import msgspec
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from redis.asyncio import Redis
from redis.exceptions import RedisError

import server.cluster.directory as directory
import server.cluster.relay as relay
import server.cluster.rpc as rpc
from server.cluster.limits import SharedLimiter
from server.cluster.queue import RedisWaiting
from server.edge.close_codes import CLOSE_MARK, RESTART_REASON, CloseCode
from server.edge.codec import encode
from server.edge.messaging import RoomInfo, WireError
from server.settings import Settings

log = logging.getLogger("server.cluster")
#: what a Redis that went away raises (redis-py's errors are not OSErrors)
REDIS_DOWN = (OSError, RedisError)
#: a cluster task that lost Redis tries again after this
RETRY_S = 1.0


class Host(Protocol):
    """What the cluster asks of this node's hub (server/session/hub.py's ``Hub``)."""

    def listed(self) -> list[RoomInfo]: ...

    def reserve(
        self, code: str, name: str, invite: str | None, token_hash: str
    ) -> tuple[RoomInfo, int] | WireError: ...

    def greeting(self, game: str) -> tuple[list[str], int, bool] | None: ...


class Relay:
    """A game another node runs, greeted: what ``Peers.watched`` yields."""

    def __init__(self, sub: relay.Subscription, reply: dict[str, Any]) -> None:
        self.sub = sub
        self.texts: list[str] = list(reply["texts"])
        self.ended = bool(reply["ended"])
        self.boot, self.first = str(reply["boot"]), int(reply["seq"])

    async def forward(self, outbox: relay.Sink) -> None:
        """Relayed texts into ``outbox`` until the game ends or the node that greeted the
        watcher goes away or restarts; then it is told to reconnect (close 1012)."""
        await self.sub.follow(outbox, self.first, self.boot)


class Cluster:
    """This node's part in the cluster: its directory entries, its answers to other nodes'
    requests, the relay of its tables' spectator streams, and the shared limits."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.node = settings.node
        self.url = settings.public_url
        self.boot = secrets.token_hex(8)
        # bench.cluster's 5,000 clients make many requests at once (relayed spectators
        # share one connection since 2026-12-07; a pool of redis-py's 100 once failed)
        self.redis: Redis = Redis.from_url(
            settings.redis_url, decode_responses=True, max_connections=settings.max_connections
        )
        self._wake = anyio.Event()
        self._host: Host | None = None
        #: every spectator here of a game another node runs, on one pub/sub connection
        self.watching = relay.Watching(self.redis)
        sent: tuple[MemoryObjectSendStream[tuple[str, str]], Any]
        sent = anyio.create_memory_object_stream[tuple[str, str]](math.inf)
        self._relay_in: MemoryObjectSendStream[tuple[str, str]] = sent[0]
        self._relay_out: MemoryObjectReceiveStream[tuple[str, str]] = sent[1]

    def limiter(self, name: str, per_min: float, burst: float) -> SharedLimiter:
        return SharedLimiter(self.redis, name, per_min, burst)

    def ranked_queue(self) -> RedisWaiting:
        """The ranked queue every node shares (server/cluster/queue.py)."""
        return RedisWaiting(self.redis)

    async def live_nodes(self) -> int:
        """How many nodes' heartbeats are live (at least this one): a tournament round's
        tables are shared out among them (server/tournament/service.py)."""
        try:
            return max(1, len(await directory.live_nodes(self.redis)))
        except REDIS_DOWN:
            return 1

    def attach(self, host: Host) -> None:
        """Serve ``host``'s rooms to the cluster (before the hub is bound)."""
        self._host = host

    def touch(self) -> None:
        """A room changed: rewrite this node's directory entries now, not in a second."""
        self._wake.set()

    async def run(self, host: Host) -> None:
        """The node's cluster tasks, until cancelled."""
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._publish_loop, host)
            tg.start_soon(self._serve_rpc)
            tg.start_soon(self._relay_loop)
            tg.start_soon(self.watching.run)

    async def _serve_rpc(self) -> None:
        """Answer other nodes; a Redis that went away is waited for, never fatal: the node's
        own tables play on without it (docs/scaling.md)."""
        while True:
            try:
                await rpc.serve(self.redis, self.node, self._handle)
            except REDIS_DOWN as exc:
                log.warning("rpc listener lost Redis: %s", exc)
            await anyio.sleep(RETRY_S)

    async def close(self) -> None:
        """A clean stop: leave the directory (its rooms come back with the node)."""
        shielded = anyio.CancelScope(shield=True)
        with anyio.move_on_after(2), shielded, contextlib.suppress(*REDIS_DOWN):
            await directory.withdraw(self.redis, self.node)
        with contextlib.suppress(*REDIS_DOWN):
            await self.watching.pubsub.aclose()
        await self.redis.aclose()

    async def _publish_loop(self, host: Host) -> None:
        """The directory's entries, written whole when the rooms changed (or Redis lost
        them), else only renewed, every beat and at once after a ``touch``."""
        written: list[RoomInfo] | None = None
        while True:
            rooms = host.listed()
            try:
                if not (rooms and rooms == written and await self._refresh()):
                    written = None
                    await directory.publish(self.redis, self.node, self.url, self.boot, rooms)
                    written = rooms
            except REDIS_DOWN as exc:  # Redis away for a moment: the next beat retries
                log.warning("directory write failed: %s", exc)
            with anyio.move_on_after(directory.HEARTBEAT_S):
                await self._wake.wait()
            self._wake = anyio.Event()

    async def _refresh(self) -> bool:
        return await directory.refresh(self.redis, self.node, self.url, self.boot)

    # ------------------------------------------------------------ requests from other nodes

    def _handle(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._host is not None
        if request.get("op") == "join":
            return self._reserve(self._host, request)
        if request.get("op") == "watch":
            return self._greeting(self._host, str(request["game"]))
        return {"error": "bad_request", "message": "unknown request"}

    def _reserve(self, host: Host, request: dict[str, Any]) -> dict[str, Any]:
        """Sit a player who joined through another node (that node holds the token)."""
        code, name, invite = str(request["code"]), str(request["name"]), request.get("invite")
        found = host.reserve(code, name, invite, str(request["token_hash"]))
        if isinstance(found, WireError):
            return {"error": found.code, "message": found.message}
        self.touch()
        room, seat = found
        return {"room": msgspec.to_builtins(room), "seat": seat}

    def _greeting(self, host: Host, game: str) -> dict[str, Any]:
        found = host.greeting(game)
        if found is None:
            return {"error": "no_game", "message": f"no running game {game!r}"}
        texts, seq, ended = found
        return {"texts": texts, "seq": seq, "ended": ended, "boot": self.boot}

    # ------------------------------------------------------------ asking other nodes

    async def lobby(self) -> list[RoomInfo]:
        return await directory.lobby(self.redis)

    async def find_room(self, code: str) -> RoomInfo | None:
        found = await directory.find_room(self.redis, code.strip().upper())
        return None if found is None else found[1]

    async def join(
        self, code: str, name: str, invite: str | None, token_hash: str
    ) -> tuple[RoomInfo, int] | WireError:
        """Reserve a seat in a room of another node for the token hashed ``token_hash``."""
        found = await directory.find_room(self.redis, code.strip().upper())
        if found is None:
            return WireError("no_room", f"no room with code {code!r}")
        request = {"op": "join", "code": code, "name": name, "invite": invite}
        reply = await rpc.call(self.redis, found[0], {**request, "token_hash": token_hash})
        if reply is None:
            return WireError("node_down", "the room's server does not answer; try again soon")
        if "error" in reply:
            return WireError(str(reply["error"]), str(reply["message"]))
        return msgspec.convert(reply["room"], RoomInfo), int(reply["seat"])

    @contextlib.asynccontextmanager
    async def watched(self, game: str) -> AsyncIterator[Relay | None]:
        """A game another node runs, for as long as a watcher here stays (None when no
        node runs it). The relay is subscribed before the greeting is asked for, so no
        text falls between them (the watcher skips what the greeting already held)."""
        node = await directory.find_game(self.redis, game)
        if node is None or node == self.node:
            yield None
            return
        sub = await self.watching.subscribe(game, node)
        try:
            reply = await rpc.call(self.redis, node, {"op": "watch", "game": game})
            yield None if reply is None or "error" in reply else Relay(sub, reply)
        finally:
            with anyio.CancelScope(shield=True), contextlib.suppress(*REDIS_DOWN):
                await self.watching.leave(sub)

    # ------------------------------------------------------------ this node's spectator streams

    def relay(self, game: str, restored: bool) -> Callable[[str], None]:
        """Where a table of ``game`` publishes its spectator stream. A table ``restored``
        after a crash first lets go of watchers relayed before it (they reconnect): it
        replays its game from the start, and the stream they held may have run past what
        storage kept."""
        name = relay.channel(game)
        send = self._relay_in.send_nowait
        if restored:
            send((name, encode(WireError("restarting", RESTART_REASON))))
            send((name, f"{CLOSE_MARK}{CloseCode.RESTARTING}"))
        return lambda text: send((name, text))

    async def _relay_loop(self) -> None:
        """Publish relayed texts in the order the tables released them: everything queued
        while the last batch was written goes in one pipeline (one write, one round trip),
        not a ``PUBLISH`` awaited each (which cost a round trip per text on the loop)."""
        async for first in self._relay_out:
            batch = [first]
            with contextlib.suppress(anyio.WouldBlock):
                while len(batch) < relay.BATCH:
                    batch.append(self._relay_out.receive_nowait())
            try:
                await relay.publish(self.redis, batch)
            except REDIS_DOWN as exc:  # spectators elsewhere miss it; the table goes on
                log.warning("relay of %d texts failed: %s", len(batch), exc)
