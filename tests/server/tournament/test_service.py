"""The tournament service in-process, on a real hub, engine and SQLite store, with clocks of
zero: nobody connects, so every human seat plays the default at each time-out (as at ranked
tables) and a tonpuusen is over in a moment. What is counted, when, and only once."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import msgspec
import pytest

from engine.rules.config import PRESETS
from engine.rules.scoring.points import placement_points
from server.app import HubTables, chain
from server.edge.messaging import Snapshot
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.storage import tournaments as rows
from server.tournament import finish
from server.tournament.models import NewTournament
from server.tournament.service import Caller, TournamentError, Tournaments
from tests.server.harness import connect_seat, running_hub

ADMIN = Caller(1, "admin", True)
PEOPLE = [Caller(10 + i, f"p{i}", False) for i in range(8)]


def on_hub(test: Callable[[Hub], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
    """The test, given a running hub (entered and left in the test's own task)."""

    async def run() -> None:
        async with running_hub(RealEngine(), start_grace_s=0, base_s=0, bank_s=0) as (hub, tg):
            await test(hub)
            tg.cancel_scope.cancel()

    run.__name__, run.__doc__ = test.__name__, test.__doc__
    return run


def _service(hub: Hub) -> Tournaments:
    service = Tournaments(hub.storage, HubTables(hub), 0, 0)
    hub.storage.finish_hook = chain(finish.standings_hook())
    return service


def _new(service: Tournaments, entrants: list[Caller], **options: Any) -> str:
    body = {
        "name": "t",
        "preset": "tenhou-tonpuu",
        "rounds": 2,
        "seating": "balanced",
        "duplicate": True,
        "fill": "none",
        "base_s": 0.0,
        "bank_s": 0.0,
        **options,
    }
    tid = service.create(ADMIN, msgspec.convert(body, NewTournament)).id
    for caller in entrants:
        service.enter(tid, caller)
    return tid


async def _round(service: Tournaments, tid: str) -> int:
    """Start the next round, seat it, and wait for every table of it to finish."""
    round_ = await anyio.to_thread.run_sync(service.start_round, tid, ADMIN)
    await service.seat_pending()
    with anyio.fail_after(60):
        while True:
            tables = rows.tables(service.store, tid, round_)
            if all(t[4] in finish.DONE for t in tables):
                return round_
            await anyio.sleep(0.05)


@on_hub
async def test_absent_entrants_play_defaults_and_every_game_counts_once(hub: Hub) -> None:
    service = _service(hub)
    tid = _new(service, PEOPLE)
    waiting = service.seat(tid, PEOPLE[0])
    assert waiting == {"state": "waiting"}
    await _round(service, tid)
    found = service.get(tid)
    rules = PRESETS["tenhou-tonpuu"]
    for t in found.tables:
        assert t.game is not None and t.points is not None
        record = hub.storage.load(t.game)
        assert record is not None and record.status == "finished"
        # nobody connected: every decision of every seat is the default at a time-out
        assert record.decisions and all(d.timeout for d in record.decisions)
        scores = msgspec.json.decode(record.result)["scores"]
        assert t.points == list(placement_points(tuple(scores), rules))
        # counted once: finishing it again (a resumed game ends again) adds nothing
        read = hub.storage.query
        assert finish.finish_statements(read, tid, t.game, "finished", record.result, 0) == []
    first = hub.storage.load(found.tables[0].game or "")
    assert first is not None and found.seeds == {"1": str(first.seed)}
    assert [s.games for s in found.standings] == [1] * 8
    assert rows.standings(hub.storage, tid)  # written by the finishing transactions
    stored = {r[0]: r[2] for r in rows.standings(hub.storage, tid)}
    assert stored == {s.name: s.total for s in found.standings}
    # the seat tokens went with their tables' ends
    assert not hub.storage.query("SELECT 1 FROM tournament_seats WHERE token IS NOT NULL")
    assert service.seat(tid, PEOPLE[0]) == {"state": "waiting"}
    await _round(service, tid)
    assert service.get(tid).state == "finished"
    assert service.seat(tid, PEOPLE[0]) == {"state": "done"}
    with pytest.raises(TournamentError) as refused:
        service.start_round(tid, ADMIN)
    assert refused.value.code == "finished"


@on_hub
async def test_a_table_whose_game_never_began_is_seated_again(hub: Hub) -> None:
    """A crash after a table was claimed (or its room made) and before its game began: at the
    start the node puts it back to pending and seats it afresh."""
    service = _service(hub)
    tid = _new(service, PEOPLE[:4], rounds=1)
    round_ = service.start_round(tid, ADMIN)
    assert rows.claim(hub.storage, tid, round_, 1, hub.storage.node)
    spec = service._spec(tid, round_, 1)
    opened = service.seater.open(spec)  # the room exists, nobody joined: the crash
    hub.storage.transaction(
        rows.seated(tid, round_, 1, opened.game, opened.code, "[]", opened.commitment, [])
    )
    assert rows.unstarted(hub.storage, hub.storage.node) == [(tid, round_, 1, opened.game)]
    await service.recover()
    assert opened.game not in hub.rooms.by_game
    assert rows.tables(hub.storage, tid, round_)[0][4] == "pending"
    assert await service.seat_pending() == 1
    table = rows.tables(hub.storage, tid, round_)[0]
    assert table[4] == "playing" and table[6] != opened.game
    seat = service.seat(tid, PEOPLE[0])
    assert seat["state"] == "seated" and seat["game"] == table[6] and seat["token"]


@on_hub
async def test_a_round_started_twice_at_once_is_one_round(hub: Hub) -> None:
    service = _service(hub)
    tid = _new(service, PEOPLE[:4], rounds=3)
    answers: list[object] = []
    gate = threading.Barrier(2)

    def start() -> None:
        gate.wait()
        try:
            answers.append(service.start_round(tid, ADMIN))
        except TournamentError as exc:
            answers.append(exc.code)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, answers)) == ["1", "round_running"]
    assert len(rows.tables(hub.storage, tid)) == 1


@on_hub
async def test_organisers_penalties_and_substitutes(hub: Hub) -> None:
    service = _service(hub)
    tid = _new(service, PEOPLE[:4], rounds=2)
    someone = PEOPLE[5]
    with pytest.raises(TournamentError) as refused:
        service.start_round(tid, someone)
    assert (refused.value.code, refused.value.status) == ("not_organizer", 403)
    with pytest.raises(TournamentError):
        service.add_organizer(tid, someone, someone.id)  # only an admin makes organisers
    service.add_organizer(tid, ADMIN, someone.id)
    assert service.may_organize(tid, someone)
    with pytest.raises(TournamentError) as refused:
        service.penalize(tid, someone, "p0", 5, "  ")
    assert refused.value.code == "bad_penalty"
    await _round(service, tid)
    before = {s.name: s.total for s in service.get(tid).standings}
    given = service.penalize(tid, someone, "p0", 12.5, "late to the table")
    found = service.get(tid)
    assert [(p.name, p.points, p.reason, p.by) for p in found.penalties] == [
        ("p0", 12.5, "late to the table", someone.name)
    ]
    assert given.reason == "late to the table"
    after = {s.name: s.total for s in found.standings}
    assert after["p0"] == pytest.approx(before["p0"] - 12.5)
    assert {k: v for k, v in after.items() if k != "p0"} == {
        k: v for k, v in before.items() if k != "p0"
    }
    stored = {r[0]: r[2] for r in rows.standings(hub.storage, tid)}
    assert stored["p0"] == pytest.approx(after["p0"])
    service.substitute(tid, someone, "p1")
    round_ = await anyio.to_thread.run_sync(service.start_round, tid, someone)
    await service.seat_pending()
    table = rows.tables(hub.storage, tid, round_)[0]
    room = hub.rooms.by_game[table[6]]
    by_name = {s.name: s for s in room.seats}
    assert by_name["p1"].bot_name == "strong" and by_name["p0"].bot_name is None
    assert service.seat(tid, PEOPLE[1])["token"] is None


async def test_a_substitute_takes_over_a_seat_in_the_running_game() -> None:
    """Four entrants connect and never answer (a 30 s clock): the organiser substitutes
    them, and strong bots play the game out from their seats' next decisions on."""
    async with running_hub(RealEngine(), start_grace_s=0) as (hub, tg):
        service = _service(hub)
        tid = _new(service, PEOPLE[:4], rounds=1, base_s=30.0)
        round_ = await anyio.to_thread.run_sync(service.start_round, tid, ADMIN)
        await service.seat_pending()
        clients = []
        for person in PEOPLE[:4]:
            seat = service.seat(tid, person)
            clients.append(connect_seat(hub, tg, seat["token"]))
        await clients[0].until(Snapshot)
        game = rows.tables(hub.storage, tid, round_)[0][6]
        assert not hub.storage.load(game).decisions  # type: ignore[union-attr]
        for person in PEOPLE[:4]:
            service.substitute(tid, ADMIN, person.name)
            assert await service.take_over(tid, person.name)
            assert service.seat(tid, person)["token"] is None
        with anyio.fail_after(60):
            while rows.tables(hub.storage, tid, round_)[0][4] not in finish.DONE:
                await anyio.sleep(0.05)
        record = hub.storage.load(game)
        assert record is not None and record.status == "finished"
        assert record.decisions and not any(d.timeout for d in record.decisions)
        assert not await service.take_over(tid, PEOPLE[0].name)  # nothing runs any more
        tg.cancel_scope.cancel()


async def test_a_game_a_restart_aborted_does_not_hold_up_its_round() -> None:
    async with running_hub(RealEngine(), start_grace_s=60) as (hub, tg):
        service = _service(hub)
        tid = _new(service, PEOPLE[:4], rounds=1)
        round_ = service.start_round(tid, ADMIN)
        await service.seat_pending()
        game = rows.tables(hub.storage, tid, round_)[0][6]
        hub.storage.set_status(game, "aborted")  # what resume does to a game it cannot replay
        await service.recover()
        assert rows.tables(hub.storage, tid, round_)[0][4] == "aborted"
        found = service.get(tid)
        assert found.state == "finished" and found.seeds["1"]  # the round is over: told
        tg.cancel_scope.cancel()
