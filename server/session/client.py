"""One client connection: read, check, answer; the same code behind WebSocket, SSE and tests.

Input is bounded three ways: frames over ``max_frame`` bytes and undecodable frames are
refused with an error (and count as strikes: ``max_strikes`` of them close this socket only),
and a token bucket limits messages per second.
"""

from __future__ import annotations

import contextlib

import anyio

from server.messaging import Answer, Ping, Pong, WireError, decode_client, encode
from server.session.hub import Hub
from server.session.outbox import Outbox
from server.transport import Connection, Disconnected

CLOSE_BAD_TOKEN = 4001
CLOSE_GARBAGE = 4002
CLOSE_REFUSED = 4005


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


async def serve_seat(hub: Hub, conn: Connection, token: str) -> None:
    """A seat's connection from welcome to disconnect; the seat survives it."""
    entry = hub.rooms.by_token.get(token)
    if entry is None:
        await refuse(conn, CLOSE_BAD_TOKEN, WireError("bad_token", "unknown seat token"))
        return
    room, seat = entry
    settings = hub.settings
    outbox = Outbox(conn, settings.send_queue)
    hub.attach(room, seat, outbox)
    limit = RateLimit(settings.rate_per_s, hub.now())
    strikes = 0

    async with anyio.create_task_group() as tg:
        tg.start_soon(outbox.pump)
        try:
            while not outbox.closed:
                text = await conn.receive_text()
                if not limit.take(hub.now()):
                    outbox.push(encode(WireError("rate_limited", "too many messages")))
                    continue
                msg = decode_client(text, settings.max_frame)
                if isinstance(msg, WireError):
                    strikes += 1
                    outbox.push(encode(msg))
                    if strikes >= settings.max_strikes:
                        outbox.shut(CLOSE_GARBAGE)
                    continue
                if isinstance(msg, Ping):
                    outbox.push(encode(Pong()))
                    continue
                error = answer(hub, room.game, seat.index, msg)
                if error is None:
                    limit.refund()  # one taken answer per inquiry: play itself is never limited
                else:
                    outbox.push(encode(error))
        except Disconnected:
            pass
        finally:
            hub.detach(room, seat, outbox)
            outbox.shut(outbox.close_code)


def answer(hub: Hub, game: str, seat: int, msg: Answer) -> WireError | None:
    table = hub.tables.get(game)
    if table is None:
        return WireError("stale_inquiry", "the game has not started")
    return table.answer(seat, msg)


async def serve_watcher(hub: Hub, conn: Connection, game: str, token: str | None) -> None:
    """A spectator: the delayed god view; never to a seat of this game."""
    table = hub.tables.get(game)
    if table is None:
        await refuse(conn, CLOSE_REFUSED, WireError("no_game", f"no running game {game!r}"))
        return
    if token is not None and token in {s.token for s in table.room.seats}:
        error = WireError("refused", "a seated player cannot watch their own game")
        await refuse(conn, CLOSE_REFUSED, error)
        return
    outbox = Outbox(conn, hub.settings.send_queue)
    table.spectators.attach(outbox, table.room.info())

    async with anyio.create_task_group() as tg:
        tg.start_soon(outbox.pump)
        try:
            while not outbox.closed:
                text = await conn.receive_text()
                if isinstance(decode_client(text, hub.settings.max_frame), Ping):
                    outbox.push(encode(Pong()))
        except Disconnected:
            pass
        finally:
            table.spectators.detach(outbox)
            outbox.shut(outbox.close_code)
