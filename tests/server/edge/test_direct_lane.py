"""The direct lane (server/edge/ws_direct.py): a real server's seat sockets write at once and take
frames as callbacks, and a seat played that way learns exactly what the awaited path gives:
every event once, in order, answers taken, the same end for every seat."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.edge.lean import LeanEvent, LeanQueue
from server.edge.messaging import Answered, End, EventMsg
from server.edge.transport import WebSocketConnection
from server.session.hub import Hub
from tests.server.live import WireBot, live_server, open_seat, two_seats


def lanes(hub: Hub) -> list[bool]:
    """Per seat of every room with a connected seat: does its outbox use the lane?"""
    return [
        s.outbox.direct
        for room in hub.rooms.by_code.values()
        for s in room.seats
        if s.outbox is not None and not s.outbox.closed
    ]


async def test_seats_of_a_real_server_play_a_whole_game_over_the_direct_lane(
    tmp_path: Path,
) -> None:
    async with live_server(tmp_path) as (host, hub):
        ann_token, bob_token = await two_seats(host)
        ann = WireBot(host, ann_token, seed=3, batch=True)
        bob = WireBot(host, bob_token, seed=4)
        seen: list[list[bool]] = []

        async def watch_lanes() -> None:
            while not (ann.ended and bob.ended):
                seen.append(lanes(hub))
                await asyncio.sleep(0.05)

        await asyncio.wait_for(asyncio.gather(ann.play(), bob.play(), watch_lanes()), 120)
    # both human seats were on the lane while they played
    assert any(len(s) == 2 for s in seen) and all(all(s) for s in seen)
    for bot in (ann, bob):
        seqs = [m.seq for m in bot.received if isinstance(m, EventMsg)]
        assert len(seqs) > 100 and seqs == sorted(set(seqs))
        # every answer the seat sent was taken (frames came in through the listener)
        assert sum(isinstance(m, Answered) and not m.timeout for m in bot.received) > 10
    ends = [m for bot in (ann, bob) for m in bot.received if isinstance(m, End)]
    assert len(ends) == 2 and ends[0] == ends[1]


async def test_a_seat_socket_lets_its_handshake_go_and_holds_no_asyncio_queue(
    tmp_path: Path,
) -> None:
    """What every socket holds for its life (bench/memory.py): once accepted, the parsed
    request, the response and the headers are let go, and its receive queue and writability
    flag are server/edge/lean.py's, not asyncio's (five empty deques) — while it still plays."""
    async with live_server(tmp_path) as (host, hub):
        ann_token, _ = await two_seats(host)
        async with open_seat(f"ws://{host}/ws/play", ann_token) as ws:
            welcome = await asyncio.wait_for(ws.recv(), 30)
            assert '"welcome"' in welcome
            protocols = [
                s.outbox.conn.lane
                for room in hub.rooms.by_code.values()
                for s in room.seats
                if s.outbox is not None and isinstance(s.outbox.conn, WebSocketConnection)
            ]
            assert len(protocols) == 1 and protocols[0] is not None
            lane = protocols[0]
            assert "request" not in vars(lane) and "response" not in vars(lane)
            assert lane.scope["headers"] == []
            queue: object = lane.queue  # uvicorn annotates asyncio's
            writable: object = lane.writable
            assert isinstance(queue, LeanQueue) and isinstance(writable, LeanEvent)
            assert writable.is_set()
            await ws.send('{"type":"ping"}')  # the socket still reads and writes
            for _ in range(20):
                if '"pong"' in await asyncio.wait_for(ws.recv(), 30):
                    break
            else:
                raise AssertionError("no pong")
