"""Privacy on the wire: over 200 complete games, no seat's frames show another seat's
concealed tiles before they are revealed.

Each game has one audited client seat (rotating, so every seat position is audited in 50
games) beside three server bots: the audit checks everything the seat learns about all three
others, at a quarter of the cost of four clients. In-memory transport here (the same session
code as behind a socket); real sockets carry the same frames in test_live and test_fuzz."""

from __future__ import annotations

import random
import time

import anyio

from engine.rules.bagime import bagime
from server.edge.codec import encode
from server.edge.messaging import End, InquiryMsg, Snapshot
from server.edge.transport import Disconnected
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from tests.server.harness import Client, connect_seat, running_hub
from tests.server.leaks import SeatAudit
from tests.server.live import pick

GAMES = 200


async def _play_seat(client: Client, audit: SeatAudit, seed: int) -> None:
    rng = random.Random(seed)
    try:
        while True:
            text = await client.conn.receive_text()
            msg = audit.frame(text)
            inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
            if isinstance(inquiry, InquiryMsg):
                await client.send(encode(pick(inquiry, rng)))
            elif isinstance(msg, End):
                return
    except Disconnected:
        raise AssertionError(f"seat {audit.seat} was dropped") from None


async def _one_game(hub: Hub, tg: anyio.abc.TaskGroup, seed: int) -> SeatAudit:
    hub.rooms.new_seed = lambda: seed  # the server's draw, pinned: reproducible games
    room = hub.rooms.create(preset="tenhou-tonpuu", bots=0, base_s=5, bank_s=5)
    audited = seed % 4
    place = bagime(seed, 4).index(audited)  # the place the start's draw seats at ``audited``
    for seat in room.seats:
        if seat.index != place:
            seat.seat_bot("easy")
    room, seat = hub.join(room.code, "Audited")
    assert seat.token is not None and seat.index == audited
    audit = SeatAudit(seat.index)
    await _play_seat(connect_seat(hub, tg, seat.token), audit, seed)
    return audit


async def test_no_seat_sees_concealed_tiles_across_200_games() -> None:
    started = time.perf_counter()
    events = 0
    async with running_hub(RealEngine(), room_ttl_s=0) as (hub, tg):
        for seed in range(GAMES):
            with anyio.fail_after(30):
                events += (await _one_game(hub, tg, seed)).events
    elapsed = time.perf_counter() - started
    print(f"leak check: {GAMES} games, {events} seat events in {elapsed:.1f} s")
    assert hub.finished == GAMES
    assert events > GAMES * 100
