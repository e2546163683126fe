"""A real uvicorn on a random loopback port, and real ``websockets`` clients for it."""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
import websockets

from server.app import create_app
from server.edge.codec import encode
from server.edge.messaging import Answer as AnswerMsg
from server.edge.messaging import End, Hello, InquiryMsg, ServerMessage, Snapshot, decode_server
from server.edge.security import uvicorn_options
from server.runtime.shutdown import StoppingServer
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.settings import Settings
from server.storage.sqlite import Storage

WIN_TYPES = ("tsumo", "ron")
#: per-client limits for tests whose one loopback client plays the part of many players
#: (tests of the limits themselves pass their own)
GENEROUS: dict[str, Any] = {
    "create_per_min": 100_000.0,
    "join_per_min": 100_000.0,
    "lookup_per_min": 100_000.0,
    "replay_per_min": 100_000.0,
    "max_open_rooms": 100_000,
    "max_sockets_per_client": 100_000,
    "max_conns_per_client": 100_000,
}
#: the same as environment variables, for a ``python -m server`` subprocess
GENEROUS_ENV = {f"RIICHI_{name.upper()}": str(value) for name, value in GENEROUS.items()}


@contextlib.asynccontextmanager
async def live_server(data_dir: Path, **overrides: Any) -> AsyncIterator[tuple[str, Hub]]:
    """(``host:port``, hub) of a server running in this event loop."""
    values: dict[str, Any] = {
        "data_dir": str(data_dir),
        "bot_think_s": 0.0,
        "bot_pace_s": 0.0,
        **GENEROUS,
    }
    values.update(overrides)
    settings = Settings(**values)
    hub = Hub(settings, Storage(settings.db_path), RealEngine())
    config = uvicorn.Config(
        create_app(settings, hub),
        log_level="warning",
        lifespan="on",
        **uvicorn_options(settings),
    )
    server = StoppingServer(config, hub)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}", hub
    finally:
        server.should_exit = True
        await task
        hub.storage.close()
        sock.close()


async def two_seats(host: str) -> tuple[str, str]:
    """Seat tokens of the two humans of a new tonpuusen room with two bots (creator first)."""
    async with httpx.AsyncClient(base_url=f"http://{host}") as http:
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 2}
        made = (await http.post("/api/rooms", json=body)).json()
        code = made["room"]["code"]
        joined = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bob"})).json()
    return str(made["token"]), str(joined["token"])


@contextlib.asynccontextmanager
async def open_seat(url: str, token: str, batch: bool = False) -> AsyncIterator[Any]:
    """A ``websockets`` client on ``/ws/play`` that has said hello with ``token``."""
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(encode(Hello(token, batch=batch)))
        yield ws


async def watch(host: str, game: str) -> list[str]:
    """The frames a spectator on ``/ws/watch`` gets, up to and with the end."""
    frames: list[str] = []
    async with websockets.connect(f"ws://{host}/ws/watch/{game}") as ws:
        async for text in ws:
            assert isinstance(text, str)
            frames.append(text)
            if isinstance(decode_server(text), End):
                return frames
    return frames


T = TypeVar("T")


def by_place(seats: Sequence[T], draw: Sequence[int] | None) -> list[T]:
    """A started room's seats in the order its players sat down (the creator's first):
    ``draw[place]`` is the seat the start drew for that place (engine.rules.bagime)."""
    assert draw is not None, "the room has not started"
    return [seats[seat] for seat in draw]


def pick(inquiry: InquiryMsg, rng: random.Random) -> AnswerMsg:
    """A random legal answer that never passes up a win."""
    for i, action in enumerate(inquiry.actions):
        if action.type in WIN_TYPES:
            return AnswerMsg(inquiry.id, i, 0)
    i = rng.randrange(len(inquiry.actions))
    return AnswerMsg(inquiry.id, i, rng.randrange(len(inquiry.actions[i].options)))


class WireBot:
    """A seat played over a real WebSocket with random legal answers.

    ``silent`` inquiries are left to time out; ``drop_after`` events into the game the socket
    is closed and reopened once (a network blip); ``batch`` asks for several messages per
    frame (one per line)."""

    def __init__(
        self,
        host: str,
        token: str,
        seed: int,
        *,
        silent: int = 0,
        drop_after: int | None = None,
        chooser: Callable[[InquiryMsg, random.Random], AnswerMsg] = pick,
        batch: bool = False,
    ) -> None:
        self.url = f"ws://{host}/ws/play"
        self.token = token
        self.rng = random.Random(seed)
        self.silent = silent
        self.drop_after = drop_after
        self.chooser = chooser
        self.batch = batch
        self.received: list[ServerMessage] = []
        self.frames: list[str] = []
        self.reconnected_snapshot: Snapshot | None = None
        self.ended = False

    async def _answer(self, ws: Any, inquiry: InquiryMsg | None) -> None:
        if inquiry is None:
            return
        if self.silent > 0:
            self.silent -= 1
            return
        await ws.send(encode(self.chooser(inquiry, self.rng)))

    async def _session(self, events_before_drop: int | None) -> bool:
        """One connection; True when it ended with the game, False when it dropped itself."""
        events = 0
        async with open_seat(self.url, self.token, self.batch) as ws:
            async for frame in ws:
                assert isinstance(frame, str)
                self.frames.append(frame)
                for text in frame.split("\n") if self.batch else (frame,):
                    msg = decode_server(text)
                    self.received.append(msg)
                    if isinstance(msg, InquiryMsg):
                        await self._answer(ws, msg)
                    elif isinstance(msg, Snapshot):
                        if self.drop_after is None and events_before_drop is None and msg.events:
                            self.reconnected_snapshot = msg
                        await self._answer(ws, msg.inquiry)
                    elif isinstance(msg, End):
                        self.ended = True
                        return True
                    else:
                        events += 1
                        if events_before_drop is not None and events >= events_before_drop:
                            return False
        return self.ended

    async def play(self) -> None:
        drop, self.drop_after = self.drop_after, None
        if not await self._session(drop):
            await self._session(None)
