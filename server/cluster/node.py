"""Cluster: this node's part in the scale-out (the package docstring says what Redis holds).

It lives in a module of its own, not in the package ``__init__``: the helpers beside it
(directory, relay, rpc, limits) import each other by module path, so importing one of them
never runs this module, and this module importing them is no cycle.
"""

from __future__ import annotations

import contextlib
import logging
import math
import secrets
from typing import TYPE_CHECKING, Any

import anyio
import msgspec
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from redis.asyncio import Redis
from redis.exceptions import RedisError

import server.cluster.directory as directory
import server.cluster.relay as relay
import server.cluster.rpc as rpc
from server.close_codes import CloseCode
from server.cluster.limits import SharedLimiter
from server.messaging import RoomInfo, SeatGrant, WireError, encode
from server.session.outbox import Outbox
from server.session.resume import RESTART_REASON
from server.session.rooms import Room, RoomError, token_hash
from server.session.spectators import CLOSE_MARK
from server.session.table import Table
from server.settings import Settings
from server.transport import Connection

if TYPE_CHECKING:
    from server.session.hub import Hub

log = logging.getLogger("server.cluster")
#: what a Redis that went away raises (redis-py's errors are not OSErrors)
REDIS_DOWN = (OSError, RedisError)
#: a cluster task that lost Redis tries again after this
RETRY_S = 1.0


class Cluster:
    """This node's part in the cluster: its directory entries, its answers to other nodes'
    requests, the relay of its tables' spectator streams, and the shared limits."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.node = settings.node
        self.url = settings.public_url
        self.boot = secrets.token_hex(8)
        # every spectator relayed from another node holds a connection of its own (its
        # pubsub): a pool of redis-py's default 100 failed the 101st (bench.cluster)
        self.redis: Redis = Redis.from_url(
            settings.redis_url, decode_responses=True, max_connections=settings.max_connections
        )
        self._wake = anyio.Event()
        self._hub: Hub | None = None
        sent: tuple[MemoryObjectSendStream[tuple[str, str]], Any]
        sent = anyio.create_memory_object_stream[tuple[str, str]](math.inf)
        self._relay_in: MemoryObjectSendStream[tuple[str, str]] = sent[0]
        self._relay_out: MemoryObjectReceiveStream[tuple[str, str]] = sent[1]

    def limiter(self, name: str, per_min: float, burst: float) -> SharedLimiter:
        return SharedLimiter(self.redis, name, per_min, burst)

    def attach(self, hub: Hub) -> None:
        """Serve ``hub``'s rooms to the cluster (before the hub is bound)."""
        self._hub = hub
        hub.cluster = self
        hub.on_table.append(self._relay_table)

    def info(self, room: Room) -> RoomInfo:
        """A local room as the API and the directory show it: with this node's URL."""
        return msgspec.structs.replace(room.info(), node=self.url)

    def touch(self) -> None:
        """A room changed: rewrite this node's directory entries now, not in a second."""
        self._wake.set()

    async def run(self, hub: Hub) -> None:
        """The node's cluster tasks, until cancelled."""
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._publish_loop, hub)
            tg.start_soon(self._serve_rpc)
            tg.start_soon(self._relay_loop)

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
        await self.redis.aclose()

    async def _publish_loop(self, hub: Hub) -> None:
        while True:
            rooms = [self.info(r) for r in hub.rooms.by_code.values()]
            try:
                await directory.publish(self.redis, self.node, self.url, self.boot, rooms)
            except REDIS_DOWN as exc:  # Redis away for a moment: the next beat retries
                log.warning("directory write failed: %s", exc)
            with anyio.move_on_after(directory.HEARTBEAT_S):
                await self._wake.wait()
            self._wake = anyio.Event()

    # ------------------------------------------------------------ requests from other nodes

    def _handle(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._hub is not None
        if request.get("op") == "join":
            return self._reserve(self._hub, request)
        if request.get("op") == "watch":
            return self._greeting(self._hub, str(request["game"]))
        return {"error": "bad_request", "message": "unknown request"}

    def _reserve(self, hub: Hub, request: dict[str, Any]) -> dict[str, Any]:
        """Sit a player who joined through another node (that node holds the token)."""
        code, name, invite = str(request["code"]), str(request["name"]), request.get("invite")
        try:
            room, seat = hub.join(code, name, invite, reserved=str(request["token_hash"]))
        except RoomError as exc:
            return {"error": exc.code, "message": str(exc)}
        self.touch()
        return {"room": msgspec.to_builtins(self.info(room)), "seat": seat.index}

    def _greeting(self, hub: Hub, game: str) -> dict[str, Any]:
        table = hub.tables.get(game)
        if table is None:
            return {"error": "no_game", "message": f"no running game {game!r}"}
        spectators = table.spectators
        texts = spectators.greeting(self.info(table.room))
        seq = spectators.view()[0]
        return {"texts": texts, "seq": seq, "ended": spectators.ended, "boot": self.boot}

    # ------------------------------------------------------------ asking other nodes

    async def lobby(self) -> list[RoomInfo]:
        return await directory.lobby(self.redis)

    async def find_room(self, code: str) -> RoomInfo | None:
        found = await directory.find_room(self.redis, code.strip().upper())
        return None if found is None else found[1]

    async def join(self, code: str, name: str, invite: str | None) -> SeatGrant:
        """Reserve a seat in a room of another node (raises RoomError)."""
        found = await directory.find_room(self.redis, code.strip().upper())
        if found is None:
            raise RoomError("no_room", f"no room with code {code!r}")
        token = secrets.token_urlsafe(32)
        request = {"op": "join", "code": code, "name": name, "invite": invite}
        reply = await rpc.call(self.redis, found[0], {**request, "token_hash": token_hash(token)})
        if reply is None:
            raise RoomError("node_down", "the room's server does not answer; try again soon")
        if "error" in reply:
            raise RoomError(str(reply["error"]), str(reply["message"]))
        room = msgspec.convert(reply["room"], RoomInfo)
        return SeatGrant(room, int(reply["seat"]), token)

    async def watch(self, hub: Hub, conn: Connection, game: str) -> bool:
        """Serve a spectator of a game another node runs; False when no node runs it."""
        from server.session.client import spectate

        node = await directory.find_game(self.redis, game)
        if node is None or node == self.node:
            return False
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(relay.channel(game))
        try:
            reply = await rpc.call(self.redis, node, {"op": "watch", "game": game})
            if reply is None or "error" in reply:
                return False
            outbox = Outbox(conn, hub.settings.send_queue)
            for text in reply["texts"]:
                outbox.push(text)
            if reply["ended"]:
                outbox.shut()

            async def feed() -> None:
                boot, first = str(reply["boot"]), int(reply["seq"])
                await relay.forward(self.redis, pubsub, node, boot, outbox, first)

            await spectate(hub, conn, outbox, feed)
            return True
        finally:
            with anyio.CancelScope(shield=True):
                await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py's stub

    # ------------------------------------------------------------ this node's spectator streams

    def _relay_table(self, table: Table) -> None:
        """Publish ``table``'s spectator stream. A table restored after a crash first lets
        go of watchers relayed before it (they reconnect): it replays its game from the
        start, and the stream they held may have run past what storage kept."""
        name = relay.channel(table.room.game)
        send = self._relay_in.send_nowait
        if table.feed is not None:
            send((name, encode(WireError("restarting", RESTART_REASON))))
            send((name, f"{CLOSE_MARK}{CloseCode.RESTARTING}"))
        table.spectators.relay = lambda text: send((name, text))

    async def _relay_loop(self) -> None:
        """Publish relayed texts in the order the tables released them."""
        async for name, text in self._relay_out:
            try:
                await self.redis.publish(name, text)
            except REDIS_DOWN as exc:  # spectators elsewhere miss it; the table goes on
                log.warning("relay to %s failed: %s", name, exc)
