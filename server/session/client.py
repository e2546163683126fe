"""One client connection: read, check, answer; the same code behind WebSocket, SSE and tests.

Input is bounded three ways: frames over ``max_frame`` bytes and undecodable frames are
refused with an error (and count as strikes: ``max_strikes`` of them close this socket only),
and a token bucket limits messages per second.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable

import anyio

from server.edge.close_codes import RESTART_REASON, CloseCode
from server.edge.codec import encode
from server.edge.messaging import (
    AdviceAsk,
    Answer,
    Hello,
    Ping,
    Pong,
    WireError,
    decode_client,
)
from server.edge.transport import Connection, Disconnected, direct_lane
from server.session.hub import Hub
from server.session.outbox import Outbox
from server.session.seat import Seat

#: a new socket must say hello (with its seat token) within this many seconds (the server
#: passes its ``header_timeout_s``)
HELLO_TIMEOUT_S = 10.0


class RateLimit:
    """A token bucket: ``rate`` messages per second, bursts up to ``rate``.

    A taken answer is refunded: a client can answer no faster than the table asks, so a fast
    (bot) client is never limited, while a flood of anything else is."""

    def __init__(self, rate: float, now: float) -> None:
        self.rate = rate
        self.tokens = rate
        self.at = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.rate, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refund(self) -> None:
        self.tokens = min(self.rate, self.tokens + 1)


async def refuse(conn: Connection, code: int, error: WireError) -> None:
    with contextlib.suppress(Disconnected):
        await conn.send_text(encode(error))
    await conn.close(code, error.message[:120])


async def read_hello(
    conn: Connection, max_frame: int, timeout: float = HELLO_TIMEOUT_S
) -> Hello | None:
    """The socket's first frame (the seat token), or None (the socket was refused)."""
    text: str | None = None
    with anyio.move_on_after(timeout):
        try:
            text = await conn.receive_text()
        except Disconnected:
            return None
    if text is None:
        await refuse(
            conn, CloseCode.BAD_TOKEN, WireError("no_hello", "say hello with a token first")
        )
        return None
    msg = decode_client(text, max_frame)
    if not isinstance(msg, Hello):
        error = WireError("no_hello", 'the first frame must be {"type":"hello","token":...}')
        await refuse(conn, CloseCode.BAD_TOKEN, error)
        return None
    return msg


async def serve_play(hub: Hub, conn: Connection) -> None:
    """``/ws/play``: a hello frame names the seat, then the seat's session."""
    # the hello is the end of the WebSocket's handshake: the same deadline as HTTP headers
    hello = await read_hello(conn, hub.settings.max_frame, hub.settings.header_timeout_s)
    if hello is not None:
        await serve_seat(hub, conn, hello.token, batch=hello.batch)


async def serve_seat(hub: Hub, conn: Connection, token: str, batch: bool = False) -> None:
    """A seat's connection from welcome to disconnect; the seat survives it."""
    if hub.stopping:
        await refuse(conn, CloseCode.RESTARTING, WireError("restarting", RESTART_REASON))
        return
    entry = hub.rooms.seat_of(token)
    if entry is None:
        await refuse(conn, CloseCode.BAD_TOKEN, WireError("bad_token", "unknown seat token"))
        return
    room, seat = entry
    outbox = Outbox(conn, hub.settings.send_queue)
    outbox.batch = batch
    hub.attach(room, seat, outbox)
    session = SeatFrames(hub, room.game, seat, outbox)
    lane = direct_lane(conn)
    # the pump is a bare task, not an anyio task group's child: a group, its scope, its
    # child's state and their events were ~3 KiB of every seat's socket (bench/memory.py)
    pump = asyncio.get_running_loop().create_task(outbox.pump())
    try:
        try:
            if lane is not None:  # frames come as callbacks now; the loop waits for the end
                lane.listen(session.on_text)
            while not outbox.closed and not pump.done():
                session.on_text(await conn.receive_text())
        except Disconnected:
            pass
        finally:
            if lane is not None:
                lane.listen(None)
            hub.detach(room, seat, outbox)
            outbox.shut(outbox.close_code)
        await pump  # it closes the socket after what is queued (and raises what it raised)
    finally:
        if not pump.done():  # cancelled meanwhile: the pump goes with this task
            pump.cancel()


class SeatFrames:
    """What a seat's frames do: pings, answers, and strikes for anything else."""

    def __init__(self, hub: Hub, game: str, seat: Seat, outbox: Outbox) -> None:
        self.hub = hub
        self.game = game
        #: the chair, not its index: the start's seat draw may move a connected player
        self.seat = seat
        self.outbox = outbox
        self.limit = RateLimit(hub.settings.rate_per_s, hub.now())
        self.strikes = 0

    def on_text(self, text: str) -> None:
        outbox, settings = self.outbox, self.hub.settings
        if outbox.closed:
            return
        if not self.limit.take(self.hub.now()):
            outbox.push(encode(WireError("rate_limited", "too many messages")))
            return
        msg = decode_client(text, settings.max_frame)
        # exact types (what the decoder makes): isinstance on a msgspec struct's class goes
        # through its metaclass, about 800 instructions a check from compiled code
        if type(msg) is Answer:
            error = answer(self.hub, self.game, self.seat.index, msg)
            if error is None:
                self.limit.refund()  # one taken answer per inquiry: play is never limited
            else:
                outbox.push(encode(error))
        elif type(msg) is WireError:
            self.strikes += 1
            outbox.push(encode(msg))
            if self.strikes >= settings.max_strikes:
                outbox.shut(CloseCode.GARBAGE)
        elif type(msg) is Ping:
            outbox.push(encode(Pong()))
        elif type(msg) is Hello:
            outbox.push(encode(WireError("bad_frame", "hello was already said")))
        elif type(msg) is AdviceAsk:  # counted by the rate limit: never refunded
            error = ask_advice(self.hub, self.game, self.seat.index, msg)
            if error is not None:
                outbox.push(encode(error))


def answer(hub: Hub, game: str, seat: int, msg: Answer) -> WireError | None:
    table = hub.tables.get(game)
    if table is None:
        return WireError("stale_inquiry", "the game has not started")
    return table.answer(seat, msg)


def ask_advice(hub: Hub, game: str, seat: int, msg: AdviceAsk) -> WireError | None:
    table = hub.tables.get(game)
    if table is None:
        return WireError("no_advice", f"inquiry {msg.inquiry} is not open")
    return table.advice(seat, msg)


async def serve_watcher(hub: Hub, conn: Connection, game: str) -> None:
    """A spectator: the view spectators of this table may have (see Spectators); a game
    another node runs is watched through the hub's peers (server/session/peers.py)."""
    if hub.stopping:
        await refuse(conn, CloseCode.RESTARTING, WireError("restarting", RESTART_REASON))
        return
    table = hub.tables.get(game)
    if table is None:
        if not await watch_elsewhere(hub, conn, game):
            await refuse(conn, CloseCode.REFUSED, WireError("no_game", f"no running game {game!r}"))
        return
    outbox = Outbox(conn, hub.settings.send_queue)
    table.spectators.attach(outbox, table.room.info())
    try:
        await spectate(hub, conn, outbox)
    finally:
        table.spectators.detach(outbox)


async def watch_elsewhere(hub: Hub, conn: Connection, game: str) -> bool:
    """Serve a spectator of a game another node runs (server/session/peers.py); False when
    this server is alone or no node runs it."""
    if hub.peers is None:
        return False
    async with hub.peers.watched(game) as relayed:
        if relayed is None:
            return False
        outbox = Outbox(conn, hub.settings.send_queue)
        for text in relayed.texts:
            outbox.push(text)
        if relayed.ended:
            outbox.shut()
        await spectate(hub, conn, outbox, functools.partial(relayed.forward, outbox))
        return True


async def spectate(
    hub: Hub, conn: Connection, outbox: Outbox, feed: Callable[[], Awaitable[None]] | None = None
) -> None:
    """A spectator's socket until it closes: ``outbox`` is filled by the table (or by
    ``feed``, a relay from another node, stopped when the socket closes)."""
    settings = hub.settings
    limit = RateLimit(settings.rate_per_s, hub.now())
    strikes = 0
    feeding = anyio.CancelScope()

    async def run_feed() -> None:
        with feeding:
            if feed is not None:
                await feed()

    async with anyio.create_task_group() as tg:
        tg.start_soon(outbox.pump)
        tg.start_soon(run_feed)
        try:
            while not outbox.closed:
                text = await conn.receive_text()
                # the same bounds as a seat: a spectator only ever pings, so anything else
                # (or anything too fast) is a strike, and enough strikes close the socket
                msg = decode_client(text, settings.max_frame)
                if not limit.take(hub.now()):
                    msg = WireError("rate_limited", "too many messages")
                elif isinstance(msg, Ping):
                    outbox.push(encode(Pong()))
                    continue
                elif not isinstance(msg, WireError):
                    msg = WireError("bad_frame", "spectators may only ping")
                strikes += 1
                outbox.push(encode(msg))
                if strikes >= settings.max_strikes:
                    outbox.shut(CloseCode.GARBAGE)
        except Disconnected:
            pass
        finally:
            feeding.cancel()
            outbox.shut(outbox.close_code)
