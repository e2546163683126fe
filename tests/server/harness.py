"""Running a hub in-process with in-memory connections (no sockets)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio.abc import TaskGroup

from engine.rules.bagime import bagime
from server.edge.codec import encode
from server.edge.messaging import Answer, InquiryMsg, ServerMessage, decode_server
from server.edge.transport import Disconnected, MemoryConnection, memory_pair
from server.session.client import serve_seat, serve_watcher
from server.session.engine_port import EnginePort
from server.session.hub import Hub
from server.session.rooms import Room, Rooms
from server.settings import Settings
from server.storage.sqlite import Storage


def undrawn_seed() -> int:
    """A fresh secret seed whose seat draw (engine.rules.bagime) leaves every place in its
    seat at three and four players (one seed in 144): the hub's tests of table mechanics
    name seats by join order; tests/server/session/test_seat_draw.py tests the draw."""
    while True:
        seed = secrets.randbits(63)
        if bagime(seed, 3) == (0, 1, 2) and bagime(seed, 4) == (0, 1, 2, 3):
            return seed


@contextlib.asynccontextmanager
async def running_hub(engine: EnginePort, **overrides: Any) -> AsyncIterator[tuple[Hub, TaskGroup]]:
    values: dict[str, Any] = {
        "spectator_delay_s": 0.2,
        "bot_think_s": 0.0,
        "bot_pace_s": 0.0,
        "room_ttl_s": 60,
    }
    values.update(overrides)
    hub = Hub(Settings(**values), Storage(":memory:"), engine, Rooms(undrawn_seed))
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        yield hub, tg
        tg.cancel_scope.cancel()


class Client:
    """The client end of an in-memory connection, with a log of what it received."""

    def __init__(self, conn: MemoryConnection) -> None:
        self.conn = conn
        self.received: list[ServerMessage] = []
        self.texts: list[str] = []

    async def send(self, text: str) -> None:
        await self.conn.send_text(text)

    async def recv(self, timeout: float = 5.0) -> ServerMessage:
        with anyio.fail_after(timeout):
            text = await self.conn.receive_text()
        self.texts.append(text)
        msg = decode_server(text)
        self.received.append(msg)
        return msg

    async def until(self, kind: type[Any], timeout: float = 5.0) -> Any:
        while True:
            msg = await self.recv(timeout)
            if isinstance(msg, kind):
                return msg

    async def drain(self) -> None:
        """Read until the server closes the connection."""
        with contextlib.suppress(Disconnected):
            while True:
                await self.recv(30.0)


def connect_seat(hub: Hub, tg: TaskGroup, token: str) -> Client:
    server_end, client_end = memory_pair()
    tg.start_soon(serve_seat, hub, server_end, token)
    return Client(client_end)


def connect_watcher(hub: Hub, tg: TaskGroup, game: str) -> Client:
    server_end, client_end = memory_pair()
    tg.start_soon(serve_watcher, hub, server_end, game)
    return Client(client_end)


def answer(inquiry: int, action: int, option: int = 0) -> str:
    return encode(Answer(inquiry, action, option))


async def seated_at_first_inquiry(
    hub: Hub, tg: TaskGroup, name: str, base_s: float, bank_s: float
) -> tuple[Room, str, Client, InquiryMsg]:
    """One human seat beside three bots in a started tonpuusen room: the room, the seat's
    token, its connected client and the first inquiry the table sent it."""
    room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=base_s, bank_s=bank_s)
    room, seat = hub.rooms.join(room.code, name)
    assert seat.token is not None
    client = connect_seat(hub, tg, seat.token)
    hub.start(room)
    return room, seat.token, client, await client.until(InquiryMsg)
