"""Furiten on the wire: a seat's own Draw and Discard frames say whether it is furiten (the
engine's flag, as the engine projected it); another seat's frames carry null."""

from __future__ import annotations

import msgspec

from server.edge.messaging import EventMsg, InquiryMsg, Welcome
from server.session.engine_port import RealEngine
from tests.server.harness import connect_seat, running_hub


async def test_only_the_own_draws_and_discards_carry_a_furiten_flag() -> None:
    async with running_hub(RealEngine(), next_round_s=0.05) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=0.01, bank_s=0.0, seed=7)
        room, seat = hub.rooms.join(room.code, "Human")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        await client.until(Welcome)
        hub.start(room)
        await client.until(InquiryMsg)
        own: list[object] = []
        other: list[object] = []
        while True:  # the first hand, to its end
            msg = await client.until(EventMsg)
            event = msgspec.json.decode(msg.event)
            if event["type"] in ("Agari", "Ryuukyoku"):
                break
            if event["type"] in ("Draw", "Discard"):
                (own if event["seat"] == seat.index else other).append(event["furiten"])
    assert len(own) >= 4 and all(isinstance(f, bool) for f in own)
    assert other and all(f is None for f in other)
