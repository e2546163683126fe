"""What a seat may not learn from timing, inquiry ids or error texts (docs/security.md).

Invariants, checked over whole games with the real engine:
- a bot's time over a decision depends only on whose turn it is: every own-turn decision
  waits exactly ``bot_think_s``, every claim, rob and acknowledgement is answered at once;
- the ids a seat sees are 1, 2, 3... with no gap, so they count none of the other seats'
  inquiries;
- a refused answer names only what the client sent.
"""

from __future__ import annotations

import re
from typing import Any

import anyio

from engine.game import Game
from server.edge.messaging import End, InquiryMsg, Snapshot, WireError
from server.session.deadlines import Deadlines
from server.session.engine_port import RealEngine
from tests.server.harness import answer, connect_seat, running_hub

THINK = 0.01
#: added to an open inquiry's id to make a stale one
PROBE = 1000


async def test_bot_timing_and_seat_inquiry_ids_tell_nothing_of_other_seats() -> None:
    async with running_hub(RealEngine(), bot_think_s=THINK, next_round_s=5) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=5, bank_s=5)
        room, seat = hub.rooms.join(room.code, "Human")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        table = hub.start(room)
        opened: list[tuple[str, dict[int, float], float]] = []
        clock = table.answers.now
        read: list[float] = []  # the server's clock readings while an inquiry opens

        def reading() -> float:
            read.append(clock())
            return read[-1]

        class Asked:  # a Meter (a compiled class takes no interpreted subclass)
            def asked(self) -> None:  # the first thing an inquiry's opening does
                read.clear()

            def decided(self, timeout: bool) -> None:
                pass

            def hand_over(self) -> None:
                pass

        class Watched(Deadlines):
            def changed(self) -> None:  # the last thing an inquiry's opening does
                inquiry = table.answers.inquiry
                assert inquiry is not None
                now = read[0] if read else 0.0  # the time the deadlines were set from (a
                # loaded core may pause this process between a reading here and the server's)
                bots = {i: d - now for i, d in self.items() if room.seats[i].bot}
                opened.append((inquiry.kind, bots, now))
                super().changed()

        # the seams a compiled Answers still has (its attributes; its methods are its own)
        table.answers.now = reading
        table.answers.meter = Asked()
        table.answers.deadlines = Watched()
        ids: list[int] = []
        refused: list[WireError] = []
        with anyio.fail_after(120):
            while not isinstance(msg := await client.recv(30), End):
                if isinstance(msg, WireError):
                    refused.append(msg)
                inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
                if not isinstance(inquiry, InquiryMsg):
                    continue
                ids.append(inquiry.id)
                await client.send(answer(inquiry.id + PROBE, 0, 0))  # a stale id first
                await client.send(answer(inquiry.id, 0, 0))
        assert isinstance(table.game, Game)
        engine_ids = [d.inquiry_id for d in table.game.decisions]
    # bots: exactly THINK on their own turns, nothing anywhere else
    bot_turns = [b for kind, b, _ in opened if kind == "turn" and b]
    assert len(bot_turns) > 20
    assert all(abs(t - THINK) < 1e-3 for b in bot_turns for t in b.values())
    assert all(not bots for kind, bots, _ in opened if kind != "turn")
    assert any(kind == "claim" for kind, _, _ in opened)  # claims were offered to bots too
    # ids: the seat's own count; the engine's ids had gaps this seat must not see
    assert ids == list(range(1, len(ids) + 1))
    assert max(engine_ids) > len(ids)
    # refusals: only the id the client sent, never the open inquiry's
    probes = [e for e in refused if int(re.findall(r"\d+", e.message)[0]) > PROBE]
    for error, sent in zip(probes, ids, strict=True):
        assert error.code == "stale_inquiry"
        assert re.findall(r"\d+", error.message) == [str(sent + PROBE)]


async def test_refusals_for_a_seat_without_a_question_are_the_same_as_stale_ones() -> None:
    async with running_hub(RealEngine(), bot_think_s=0.2) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=5, bank_s=5)
        room, seat = hub.rooms.join(room.code, "Human")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        hub.start(room)
        first = await client.until(InquiryMsg)
        await client.send(answer(first.id, 0, 0))
        replies: list[Any] = []
        for probe in (first.id + 1, first.id + 2):  # while bots think: nothing is open for me
            await client.send(answer(probe, 0, 0))
            replies.append(await client.until(WireError))
        assert [r.code for r in replies] == ["stale_inquiry", "stale_inquiry"]
        assert [r.message for r in replies] == [
            f"inquiry {first.id + 1} is not open",
            f"inquiry {first.id + 2} is not open",
        ]
        await client.conn.close()
