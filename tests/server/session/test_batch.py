"""Batched frames: a seat that says ``batch`` in its hello gets what one engine step makes for
it in one frame, one message per line, and learns exactly what a seat reading one message
per frame learns (the same events in the same order, the same end)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.edge.messaging import End, EventMsg
from tests.server.live import WireBot, live_server, two_seats


async def test_a_batched_seat_gets_every_message_an_unbatched_one_does(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, _):
        ann, bob = await two_seats(host)
        batched = WireBot(host, ann, seed=1, batch=True)
        single = WireBot(host, bob, seed=2)
        await asyncio.wait_for(asyncio.gather(batched.play(), single.play()), 120)
    assert batched.ended and single.ended
    # one engine step's messages leave together: fewer frames than messages
    lines = [f.count("\n") + 1 for f in batched.frames]
    assert max(lines) > 1 and len(batched.frames) < 0.8 * sum(lines)
    assert all(f.count("\n") == 0 for f in single.frames)

    def seqs(bot: WireBot) -> list[int]:
        return [m.seq for m in bot.received if isinstance(m, EventMsg)]

    assert seqs(batched) == seqs(single) and len(seqs(single)) > 100
    assert seqs(batched) == sorted(set(seqs(batched)))
    ends = [m for bot in (batched, single) for m in bot.received if isinstance(m, End)]
    assert len(ends) == 2 and ends[0] == ends[1]
