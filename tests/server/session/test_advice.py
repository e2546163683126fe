"""Advice at a practice table (server/session/advice.py): only there, only for the open
inquiry, worked out off the loop from the seat's own view, counted in the record, and the
seat's clock runs on as if nothing was asked."""

from __future__ import annotations

import msgspec
import pytest

from engine.review.advice import advise
from engine.review.strong import StrongReviewer
from server.app import HubSeater, HubTables
from server.edge.codec import encode
from server.edge.messaging import AdviceAsk, AdviceMsg, InquiryMsg, Welcome, WireError
from server.ladder.lobbies import RankedLobby
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.session.rooms import Room
from server.storage import persist
from server.tournament.service import TableSpec
from tests.server.harness import Client, answer, connect_seat, running_hub, seated_at_first_inquiry

pytestmark = pytest.mark.anyio


def ask(inquiry: int) -> str:
    return encode({"type": "advice", "inquiry": inquiry})


def stored(hub: Hub, room: Room) -> dict[str, object]:
    record = hub.storage.load(room.game)
    assert record is not None
    doc: dict[str, object] = msgspec.json.decode(msgspec.json.encode(record))
    return doc


async def refused(client: Client, inquiry: int, code: str = "no_advice") -> WireError:
    await client.send(ask(inquiry))
    error = await client.until(WireError)
    assert isinstance(error, WireError) and error.code == code, error
    return error


async def test_a_practice_seat_gets_the_reviewers_ranking_of_its_open_inquiry() -> None:
    async with running_hub(RealEngine()) as (hub, tg):
        room, _, client, inquiry = await seated_at_first_inquiry(hub, tg, "Learner", 60, 60)
        assert room.info().advice
        table = hub.tables[room.game]
        index = room.humans[0].index
        deadline = table.answers.deadlines[index]
        # what the review would say of this moment, taken before the table moves on
        open_inquiry = table.answers.inquiry
        assert open_inquiry is not None
        moment = RealEngine().moment(
            table.game, index, open_inquiry.players[index], open_inquiry.kind
        )
        expected = advise(StrongReviewer(), moment)
        await client.send(ask(inquiry.id))
        advice = await client.until(AdviceMsg)
        assert advice.inquiry == inquiry.id and advice.engine == "strong"
        got = [(o.action, o.option, o.value) for o in advice.options]
        assert got == [(a.action, a.option, a.value) for a in expected]
        values = [o.value for o in advice.options]
        assert values == sorted(values, reverse=True)
        offered = {(a, o) for a, act in enumerate(inquiry.actions) for o in range(len(act.options))}
        assert {(o.action, o.option) for o in advice.options} == offered
        # the clock runs on: asking neither paused nor moved the deadline
        assert table.answers.deadlines[index] == deadline
        assert stored(hub, room)["advice"] == 1
        # asked again: the same advice, counted once
        await client.send(ask(inquiry.id))
        again = await client.until(AdviceMsg)
        assert again == advice and stored(hub, room)["advice"] == 1
        # an inquiry that is not open gets none
        await refused(client, inquiry.id + 1)
        best = advice.options[0]
        await client.send(answer(inquiry.id, best.action, best.option))
        await refused(client, inquiry.id)  # answered: no longer open
        following = await client.until(InquiryMsg, timeout=10)
        await client.send(ask(following.id))
        assert (await client.until(AdviceMsg)).inquiry == following.id
        assert stored(hub, room)["advice"] == 2


async def test_one_request_at_a_time_per_seat() -> None:
    async with running_hub(RealEngine()) as (hub, tg):
        room, _, client, inquiry = await seated_at_first_inquiry(hub, tg, "Eager", 60, 60)
        table = hub.tables[room.game]
        index = room.humans[0].index
        # two requests in one loop turn: the first is still being worked out at the second
        assert table.advice(index, AdviceAsk(inquiry.id)) is None
        second = table.advice(index, AdviceAsk(inquiry.id))
        assert second is not None and second.code == "rate_limited"
        await client.until(AdviceMsg)
        assert stored(hub, room)["advice"] == 1
        # once given, asking again is answered from what was given
        assert table.advice(index, AdviceAsk(inquiry.id)) is None
        await client.until(AdviceMsg)
        assert stored(hub, room)["advice"] == 1


async def test_two_humans_get_no_advice_and_their_record_says_nothing_of_it() -> None:
    async with running_hub(RealEngine()) as (hub, tg):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=2, base_s=60, bank_s=60)
        clients = []
        for name in ("Ann", "Ben"):
            room, seat = hub.rooms.join(room.code, name)
            assert seat.token is not None
            clients.append(connect_seat(hub, tg, seat.token))
        for client in clients:
            await client.until(Welcome)
        hub.start(room)
        assert not room.info().advice
        for client in clients:
            msg = None
            while not isinstance(msg, InquiryMsg):
                msg = await client.recv()
                if isinstance(msg, InquiryMsg):
                    error = await refused(client, msg.id)
                    assert "practice table" in error.message
                    break
            if isinstance(msg, InquiryMsg):
                break
        assert "advice" not in stored(hub, room)


async def test_a_table_that_forbids_advice_gives_none() -> None:
    """The hook a tournament table uses (server/tournament/ makes its rooms with
    ``hub.create(..., advice=False)``): one human beside three bots, and still no advice."""
    async with running_hub(RealEngine()) as (hub, tg):
        room = hub.create(preset="tenhou-tonpuu", bots=3, base_s=60, bank_s=60, advice=False)
        assert persist.to_restore(hub.storage)[-1].options["advice"] is False  # kept as made
        room, seat = hub.rooms.join(room.code, "Entrant")
        assert seat.token is not None
        client = connect_seat(hub, tg, seat.token)
        await client.until(Welcome)
        hub.start(room)
        assert not room.info().advice
        inquiry = await client.until(InquiryMsg)
        await refused(client, inquiry.id)
        assert "advice" not in stored(hub, room)


async def test_a_ranked_table_gives_none() -> None:
    """Even with a human beside three bots (a ranked table never has bots) the flag the
    ranked queue's seater sets refuses advice."""
    async with running_hub(RealEngine()) as (hub, tg):
        lobby = RankedLobby(name="ippan", preset="tenhou-tonpuu", base_s=60, bank_s=60)
        code, _, seats, _ = HubSeater(hub, hub.settings).seat(lobby, ["A", "B", "C", "D"])
        room = hub.rooms.by_code[code]
        assert room.advice is False and not room.info().advice
        index, token = seats[0]
        for seat in room.seats:  # the others leave their seats to bots
            if seat.index != index:
                seat.token_hash = None
                seat.seat_bot("strong")
        assert not room.advises(index)
        client = connect_seat(hub, tg, token)
        inquiry = await client.until(InquiryMsg, timeout=10)
        await refused(client, inquiry.id)
        room.advice = True  # the same table, were it casual, would advise
        assert room.advises(index)
        await client.send(ask(inquiry.id))
        await client.until(AdviceMsg)


async def test_the_rooms_advice_flag_is_kept_with_its_row() -> None:
    async with running_hub(RealEngine()) as (hub, _):
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=3, base_s=5, bank_s=5)
        room.advice = False
        persist.save_room(hub.storage, room)
        rows = [r for r in persist.to_restore(hub.storage) if r.game == room.game]
    assert rows and rows[0].options["advice"] is False


async def test_a_tournament_table_gives_none() -> None:
    """The room a tournament opens (server/app.py ``HubTables``, one entrant beside three fill
    bots) is made with ``advice=False``: the one human there is never advised, so a tournament
    entrant cannot ask the strong bot what to play while others at other tables cannot."""
    async with running_hub(RealEngine()) as (hub, _tg):
        bots = {"Bot 1", "Bot 2", "Bot 3"}
        spec = TableSpec(
            "tenhou-tonpuu", 60, 60, ["Entrant", *sorted(bots)], bots, None, None, True, False
        )
        opened = HubTables(hub).open(spec)
        tables = HubTables(hub)
        tables.fill(opened.game, [("Entrant", "0" * 64)])  # the entrant's token hash
        room = hub.rooms.by_code[opened.code]
        assert [s.human for s in room.seats] == [True, False, False, False]
        assert [bool(s.bot) for s in room.seats] == [False, True, True, True]
        assert room.advice is False and not room.info().advice
        assert not room.advises(0)
        room.advice = True  # the same seats at a practice table would be advised
        assert room.advises(0)
