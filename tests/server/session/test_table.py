"""The table over in-memory connections with a stand-in engine: clocks, answers, refusals,
reconnects and spectators, apart from the rules."""

from __future__ import annotations

import asyncio
import gc

import anyio
import msgspec
import pytest

from engine.events.queue import EventQueue
from server.edge.messaging import (
    Answered,
    ClockMsg,
    End,
    EventMsg,
    InquiryMsg,
    Snapshot,
    Welcome,
    WireError,
)
from server.edge.transport import Disconnected, StreamConnection
from server.session.client import RateLimit, serve_seat
from server.session.engine_port import RealEngine
from server.session.rooms import RoomError
from server.session.table import Table
from tests.server.fake_engine import FakeEngine
from tests.server.harness import (
    answer,
    connect_seat,
    connect_watcher,
    running_hub,
    seated_at_first_inquiry,
)


async def test_a_silent_seat_times_out_to_the_default_and_the_game_ends() -> None:
    engine = FakeEngine(rounds=1, turns=8)
    async with running_hub(engine, next_round_s=0.05) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=0.02, bank_s=0.03)
        room, seat = hub.rooms.join(room.code, "Silent")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        await client.until(Welcome)
        hub.start(room)
        inquiry = await client.until(InquiryMsg)
        answered = await client.until(Answered)
        assert answered.timeout and answered.inquiry == inquiry.id
        assert (answered.action, answered.option) == (
            inquiry.default.action,
            inquiry.default.option,
        )
        await client.until(End, timeout=10)
        record = hub.storage.load(room.game)
    assert record is not None and record.status == "finished"
    mine = [d for d in record.decisions if d.seat == 0]
    assert mine and all(d.timeout for d in mine)
    # tsumogiri: the default discarded the drawn tile each time
    game = engine.games[0]
    discarded = [t for s, t in game.discards if s == 0]
    assert len(discarded) == 2 and discarded == [t for s, t in game.draws if s == 0]
    # the bank was spent by the time-outs, never below zero
    assert 0.0 <= room.seats[0].clock.bank < 0.03


async def test_an_answer_within_the_base_keeps_the_bank() -> None:
    async with running_hub(FakeEngine(rounds=1, turns=4), next_round_s=5) as (hub, tg):
        room, _token, client, inquiry = await seated_at_first_inquiry(hub, tg, "Quick", 5, 20)
        assert inquiry.base_ms == 5000 and inquiry.bank_ms == 20000
        assert 24000 < inquiry.remaining_ms <= 25000
        await client.send(answer(inquiry.id, 0, 0))
        answered = await client.until(Answered)
        assert not answered.timeout and answered.option == 0
        assert room.seats[0].clock.bank == 20
        await client.conn.close()


async def test_stale_illegal_and_garbage_answers_are_refused_and_change_nothing() -> None:
    engine = FakeEngine(rounds=1, turns=4)
    async with running_hub(engine, next_round_s=5) as (hub, tg):
        _room, _token, client, inquiry = await seated_at_first_inquiry(hub, tg, "Fuzzy", 5, 5)
        n_options = len(inquiry.actions[0].options)
        bad = {
            "{": "bad_frame",
            answer(inquiry.id, 0, n_options): "invalid_answer",
            answer(inquiry.id, -1, 0): "invalid_answer",
            answer(inquiry.id + 1, 0, 0): "stale_inquiry",
            '{"type":"hola"}': "unknown_type",
            '{"type":"answer","inquiry":1,"action":0,"extra":1}': "bad_frame",
            "x" * 5000: "too_large",
        }
        for text, code in bad.items():
            await client.send(text)
            error = await client.until(WireError)
            assert error.code == code, (text[:40], error)
        game = engine.games[0]
        table = game.center
        assert isinstance(table, Table) and table.inquiry is not None
        assert game.discards == [] and table.inquiry.players[0].answer is None
        await client.send(answer(inquiry.id, 0, 2))
        await client.until(Answered)
        await client.send(answer(inquiry.id, 0, 1))
        error = await client.until(WireError)
        assert error.code in ("already_answered", "stale_inquiry")
        assert any(isinstance(m, EventMsg) for m in client.received[-3:])
        assert game.discards[0] == (0, inquiry.actions[0].options[2].tiles[0])
        await client.conn.close()


async def test_repeated_garbage_closes_that_socket_only() -> None:
    async with running_hub(FakeEngine(rounds=1, turns=4), max_strikes=5) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=2, base_s=0.3, bank_s=0.3)
        room, a = hub.rooms.join(room.code, "A")
        room, b = hub.rooms.join(room.code, "B")
        assert a.token and b.token
        bad, good = connect_seat(hub, tg, a.token), connect_seat(hub, tg, b.token)
        await good.until(Welcome)
        for _ in range(5):
            await bad.send("garbage")
        await bad.drain()
        assert bad.conn.closed_with == 4002
        await good.send('{"type":"ping"}')
        assert (await good.recv()).__class__.__name__ in ("Pong", "RoomMsg")
        assert room.seats[1].connected and not room.seats[0].connected
        await good.conn.close()


async def test_reconnect_gets_a_snapshot_and_the_pending_inquiry_with_its_time() -> None:
    async with running_hub(FakeEngine(rounds=1, turns=8)) as (hub, tg):
        _room, token, first, inquiry = await seated_at_first_inquiry(hub, tg, "Blip", 5, 5)
        events_before = [m for m in first.received if isinstance(m, EventMsg)]
        second = connect_seat(hub, tg, token)
        await second.until(Welcome)
        snapshot = await second.until(Snapshot)
        await first.drain()
        assert first.conn.closed_with == 4003  # replaced by the newer connection
        assert snapshot.inquiry is not None and snapshot.inquiry.id == inquiry.id
        assert snapshot.inquiry.remaining_ms <= inquiry.remaining_ms
        assert [bytes(e) for e in snapshot.events] == [bytes(m.event) for m in events_before]
        assert snapshot.seq == events_before[-1].seq + 1
        # my own haipai is in my snapshot; the others' are hidden
        haipai = [msgspec.json.decode(bytes(e)) for e in snapshot.events]
        hands = {h["seat"]: h["tiles"] for h in haipai if h["type"] == "Haipai"}
        assert hands[0] is not None and all(hands[s] is None for s in (1, 2, 3))
        # the hand's streams keep each event as its encoded bytes, with no msgspec.Raw of 48
        # bytes beside each (issue 45)
        table = hub.tables[_room.game]
        kept = [*table.streams[0], *table.spectators._released, *table.spectators._hand]
        assert kept and all(type(e) is bytes for e in kept)
        await second.send(answer(inquiry.id, 0, 0))
        assert not (await second.until(Answered)).timeout
        await second.conn.close()


async def test_a_broadcast_table_shows_every_hand_only_after_the_delay() -> None:
    delay = 0.3
    engine = FakeEngine(rounds=1, turns=8)
    async with running_hub(engine, spectator_delay_s=delay, start_grace_s=0) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=1, bank_s=1, broadcast=True)
        hub.rooms.join(room.code, "Host")  # agreed to a broadcast by sitting down
        table = hub.start(room)
        watcher = connect_watcher(hub, tg, room.game)
        started = anyio.current_time()
        await watcher.until(Snapshot)
        first = await watcher.until(EventMsg)
        assert anyio.current_time() - started >= delay * 0.9
        events = [first]
        while not isinstance(msg := await watcher.recv(), End):
            assert isinstance(msg, EventMsg)
            events.append(msg)
        assert table.finished.is_set()
        decoded = [msgspec.json.decode(bytes(m.event)) for m in events]
        hands = [d["tiles"] for d in decoded if d["type"] == "Haipai"]
        assert len(hands) == 4 and all(h is not None for h in hands)
        assert [m.seq for m in events] == list(range(len(events)))


class StalledConnection:
    """A client that never reads: every send blocks until the connection is closed."""

    def __init__(self) -> None:
        self.closed = anyio.Event()
        self.code: int | None = None
        self.sent = 0

    async def send_text(self, text: str) -> None:
        await self.closed.wait()
        raise Disconnected("closed")

    async def receive_text(self) -> str:
        await self.closed.wait()
        raise Disconnected("closed")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.code = code
        self.closed.set()


async def test_a_client_that_cannot_keep_up_is_dropped_and_the_table_goes_on() -> None:
    async with running_hub(FakeEngine(rounds=2, turns=8), send_queue=8, next_round_s=0.05) as (
        hub,
        tg,
    ):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=0.05, bank_s=0)
        room, seat = hub.rooms.join(room.code, "Slow")
        assert seat.token is not None
        slow = StalledConnection()
        tg.start_soon(serve_seat, hub, slow, seat.token)
        await anyio.sleep(0)
        table = hub.start(room)
        with anyio.fail_after(10):
            await table.finished.wait()
        assert slow.code == 4004
        assert not room.seats[0].connected
        record = hub.storage.load(room.game)
        assert record is not None and record.status == "finished"


def test_the_rate_limit_refuses_a_flood_and_refills_with_time() -> None:
    limit = RateLimit(rate=5, now=0.0)
    assert [limit.take(0.0) for _ in range(7)] == [True] * 5 + [False] * 2
    assert limit.take(0.2)  # one token back after 1/5 s
    assert not limit.take(0.2)
    limit.refund()
    assert limit.take(0.2)


async def test_a_game_whose_humans_all_leave_still_plays_to_its_end() -> None:
    async with running_hub(RealEngine(), next_round_s=0.05) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=2, base_s=0.3, bank_s=0.3)
        room, a = hub.rooms.join(room.code, "A")
        room, b = hub.rooms.join(room.code, "B")
        assert a.token and b.token
        clients = [connect_seat(hub, tg, a.token), connect_seat(hub, tg, b.token)]
        table = hub.start(room)
        await clients[0].until(InquiryMsg)
        for client in clients:
            await client.conn.close()
        with anyio.fail_after(20):
            await table.finished.wait()
        assert table.error is None
        record = hub.storage.load(room.game)
    assert record is not None and record.status == "finished"
    assert any(d.timeout and d.seat in (0, 1) for d in record.decisions)


async def test_a_finished_game_is_let_go_at_once_and_a_late_seat_still_gets_its_end() -> None:
    """Once recorded, the engine's game graph is freed by reference counting alone (the
    collector sweeps rarely: server/runtime/heap.py); a seat that comes back gets the last view."""
    async with running_hub(RealEngine(), next_round_s=0.05) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=0.3, bank_s=0.3)
        room, seat = hub.rooms.join(room.code, "A")
        assert seat.token
        client = connect_seat(hub, tg, seat.token)
        table = hub.start(room)
        await client.until(InquiryMsg)
        await client.conn.close()
        game = table.game

        def queues() -> list[EventQueue]:
            # a compiled queue (engine.native) takes no weak reference: the collector's list
            # of the objects it tracks is searched instead
            return [o for o in gc.get_objects() if type(o) is EventQueue and o.game is game]

        assert len(queues()) == 1
        gc.disable()
        try:
            with anyio.fail_after(20):
                await table.finished.wait()
            assert queues() == []  # no collection ran: nothing of it was left in a cycle
        finally:
            gc.enable()
        late = connect_seat(hub, tg, seat.token)
        assert isinstance(await late.recv(), Welcome)
        final = await late.until(Snapshot)
        assert final.inquiry is None and final.events
        assert isinstance(await late.until(End), End)


async def test_an_answer_past_the_base_is_charged_to_the_bank_and_the_bank_is_shown() -> None:
    async with running_hub(FakeEngine(rounds=1, turns=4), next_round_s=5) as (hub, tg):
        _room, _token, client, inquiry = await seated_at_first_inquiry(hub, tg, "Slowpoke", 0.05, 2)
        await anyio.sleep(0.3)
        await client.send(answer(inquiry.id, 0, 0))
        answered = await client.until(Answered)
        clock = await client.recv()
        assert not answered.timeout
        assert isinstance(clock, ClockMsg)
        assert 1000 < clock.bank_ms < 1800  # about 0.25 s of the 2 s bank is gone
        await client.conn.close()


async def test_rooms_left_waiting_expire_and_a_full_server_refuses_more() -> None:
    clock = [0.0]
    async with running_hub(FakeEngine(), room_ttl_s=60, max_rooms=2) as (hub, _):
        hub.now = lambda: clock[0]
        first = hub.create(preset="tenhou-tonpuu", bots=0, base_s=1, bank_s=1)
        hub.create(preset="tenhou-tonpuu", bots=0, base_s=1, bank_s=1)
        with pytest.raises(RoomError) as refused:
            hub.create(preset="tenhou-tonpuu", bots=0, base_s=1, bank_s=1)
        assert refused.value.code == "server_full"
        clock[0] = 61.0
        third = hub.create(preset="tenhou-tonpuu", bots=0, base_s=1, bank_s=1)
        assert first.code not in hub.rooms.by_code and third.code in hub.rooms.by_code


async def test_an_answer_after_the_deadline_is_refused_as_late() -> None:
    clock = [1000.0]
    async with running_hub(FakeEngine(rounds=1, turns=4)) as (hub, tg):
        hub.now = lambda: clock[0]
        room = hub.create(preset="tenhou-tonpuu", bots=3, base_s=5, bank_s=5)
        room, seat = hub.join(room.code, "Late")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        table = hub.start(room)
        inquiry = await client.until(InquiryMsg)
        await anyio.sleep(0.05)  # the clock task is now asleep until the real deadline
        clock[0] += 10.5  # past base + bank, before the clock task has looked
        await client.send(answer(inquiry.id, 0, 0))
        error = await client.until(WireError)
        assert error.code == "late"
        assert table.inquiry is not None and table.inquiry.players[0].answer is None
        await client.conn.close()


async def test_a_broadcast_record_during_the_game_holds_only_what_is_past_the_delay() -> None:
    clock = [1000.0]
    engine = FakeEngine(rounds=1, turns=8)
    async with running_hub(engine, spectator_delay_s=5, start_grace_s=0) as (hub, _):
        hub.now = lambda: clock[0]
        room = hub.create(preset="tenhou-tonpuu", bots=3, base_s=1, bank_s=1, broadcast=True)
        hub.rooms.join(room.code, "Host")
        table = hub.start(room)
        while len(table.recording.decided_at) < 8:
            await anyio.sleep(0.01)
        record = hub.storage.load(room.game)
        assert record is not None and len(record.decisions) >= 8
        assert table.delayed(record).decisions == []
        clock[0] += 5.1
        assert table.delayed(record).decisions == record.decisions
        assert record.seed is not None and table.delayed(record).seed is None


async def test_a_record_during_the_game_hides_who_was_asked_what_in_the_hand_in_play() -> None:
    engine = FakeEngine(rounds=2, turns=8)
    async with running_hub(engine, start_grace_s=0, next_round_s=5) as (hub, tg):
        room = hub.create(preset="tenhou-tonpuu", bots=3, base_s=5, bank_s=5)
        room, seat = hub.rooms.join(room.code, "Host")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        table = hub.start(room)
        first = await client.until(InquiryMsg)
        await client.send(answer(first.id, 0, 0))
        inquiry = await client.until(InquiryMsg)
        record = hub.storage.load(room.game)
        assert record is not None and len(record.decisions) > 1  # bots have played too
        assert table.delayed(record).decisions == []
        while inquiry.actions[0].type != "next_round":
            await client.send(answer(inquiry.id, 0, 0))
            inquiry = await client.until(InquiryMsg)
        await client.send(answer(inquiry.id, 0, 0))  # the first hand is over
        second = await client.until(InquiryMsg)  # my turn in the second hand
        await client.send(answer(second.id, 0, 0))
        await client.until(InquiryMsg)
        record = hub.storage.load(room.game)
        assert record is not None
        shown = table.delayed(record).decisions
        assert shown and shown == record.decisions[: len(shown)]
        assert len(shown) < len(record.decisions)
        assert any(d.seat == 0 for d in shown) and first.id == 1
        await client.conn.close()


async def test_an_sse_reader_that_falls_behind_is_dropped() -> None:
    conn = StreamConnection(limit=3)
    for i in range(3):
        await conn.send_text(str(i))
    with pytest.raises(Disconnected):
        await conn.send_text("3")
    assert [await conn.frames.get() for _ in range(3)] == ["0", "1", "2"]


async def test_a_table_nobody_connected_to_plays_a_decision_per_loop_turn() -> None:
    """Four seats that never connect are answered by default once the start grace passed,
    but each from a loop timer, never in the engine's own step: answered on the spot, the
    whole game played inside one turn of the event loop (a node with hundreds of such tables
    stopped answering anything for seconds)."""
    async with running_hub(RealEngine(), start_grace_s=0) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=0, base_s=5, bank_s=5)
        for name in ("A", "B", "C", "D"):
            room, _ = hub.rooms.join(room.code, name)
        turns = 0

        async def ticker() -> None:
            nonlocal turns
            while True:
                turns += 1
                await anyio.sleep(0)

        tg.start_soon(ticker)
        table = hub.start(room)
        with anyio.fail_after(60):
            await table.finished.wait()
        record = hub.storage.load(room.game)
    assert record is not None and record.status == "finished"
    defaults = sum(d.timeout for d in record.decisions)
    assert turns >= defaults > 50, (turns, defaults)


async def test_a_table_holds_one_task_beside_its_game_unless_its_spectators_wait() -> None:
    """Each task a table keeps for its whole game is ~3 KiB (issue 45): a table whose
    spectators see everything at once (no delay) has only its game's, and a task that only
    waited for the end (the ladder's) is a hook at the end instead (``Hub.on_end``)."""
    async with running_hub(FakeEngine(rounds=1, turns=4), spectator_delay_s=0.3) as (hub, _):
        started: list[int] = []
        for broadcast in (False, True):
            room = hub.rooms.create(
                preset="tenhou-tonpuu", bots=3, base_s=1, bank_s=1, broadcast=broadcast
            )
            hub.rooms.join(room.code, "Host")
            before = len(asyncio.all_tasks())
            hub.start(room)
            started.append(len(asyncio.all_tasks()) - before)
        assert started == [1, 2]  # the game's; and the delayed spectators' clock


async def test_the_end_hooks_run_once_for_a_game_that_ended_and_not_for_a_suspended_one() -> None:
    ended: list[str] = []
    engine = FakeEngine(rounds=1, turns=4)
    async with running_hub(engine, start_grace_s=0, next_round_s=0.01) as (hub, _):
        hub.on_end.append(lambda table: ended.append(table.room.game))
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=0, base_s=0.01, bank_s=0)
        for name in "ABCD":
            hub.rooms.join(room.code, name)  # nobody connects: their clocks answer
        table = hub.start(room)
        with anyio.fail_after(10):
            await table.finished.wait()
        for _ in range(5):
            await anyio.sleep(0)
        assert ended == [room.game]
        held = hub.rooms.create(preset="tenhou-tonpuu", bots=0, base_s=1, bank_s=1)
        for name in "ABCD":
            hub.rooms.join(held.code, name)
        hub.settings = msgspec.structs.replace(hub.settings, start_grace_s=60)
        waiting = hub.start(held)  # its humans never come: it waits within the grace
        await anyio.sleep(0.05)
        hub.stop()
        for _ in range(5):
            await anyio.sleep(0)
        assert not waiting.finished.is_set() and ended == [room.game]
