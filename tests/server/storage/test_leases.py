"""Leases under PostgreSQL (issue 44): a process that lost a game's lease writes nothing more
of it. Two stores under one node id (a node started twice, or one presumed dead while it
still ran) on a real PostgreSQL: the one that took the game over writes, the stale one's
decision, round, end and status are refused with LeaseLost and change nothing; two hubs
playing one all-bot game: the stale hub drops its table and the game finishes on the other,
whole and verified. On 91c6984 both wrote: the decisions' numbers collided and the record no
longer replayed."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator

import anyio
import msgspec
import pytest

from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.settings import Settings
from server.storage import records
from server.storage.postgres import PgStore
from server.storage.sqlite import LeaseLost
from tests import system
from tests.services import fresh_database, postgres_server

_names = itertools.count()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    system.postgres()
    with postgres_server() as url:
        yield url


@pytest.fixture
def database(pg_url: str) -> str:
    return fresh_database(pg_url, f"lease{next(_names)}")


def _decisions(store: PgStore, game: str) -> list[tuple[int, ...]]:
    rows = store.query("SELECT n, inquiry, seat FROM decisions WHERE game = ? ORDER BY n", (game,))
    return [tuple(r) for r in rows]


def test_the_stale_store_writes_nothing_once_another_took_the_game(database: str) -> None:
    stale, taker = PgStore(database, node="a"), PgStore(database, node="a")
    try:
        stale.create_game("g", "ROOM", "tenhou-tonpuu", 7, b"{}", ["A", "B", "C", "D"])
        for inquiry in range(3):
            stale.add_decision("g", inquiry, 0, 0, 0, False)
        stale.add_round("g", 0, b'{"n": 0}')
        taker.take("g")
        assert taker.query("SELECT node, epoch FROM leases WHERE game = 'g'") == [("a", 2)]
        with pytest.raises(LeaseLost, match="taken over"):
            stale.add_decision("g", 3, 1, 0, 0, False)
        with pytest.raises(LeaseLost):
            stale.add_round("g", 1, b'{"n": 1}')
        with pytest.raises(LeaseLost):
            stale.finish_game("g", b'{"scores": [1, 2, 3, 4]}')
        with pytest.raises(LeaseLost):
            stale.set_status("g", "suspended")
        assert _decisions(taker, "g") == [(0, 0, 0), (1, 1, 0), (2, 2, 0)]
        assert taker.query("SELECT n FROM rounds WHERE game = 'g'") == [(0,)]
        assert taker.query("SELECT status FROM games WHERE id = 'g'") == [("playing",)]
        taker.add_decision("g", 3, 2, 0, 0, False)  # goes on from what is stored
        taker.finish_game("g", b'{"scores": [1, 2, 3, 4]}')
        with pytest.raises(LeaseLost):  # refused for good, not once
            stale.add_decision("g", 4, 0, 0, 0, False)
        assert _decisions(taker, "g")[-1] == (3, 3, 2)
        assert taker.query("SELECT status FROM games WHERE id = 'g'") == [("finished",)]
    finally:
        stale.close()
        taker.close()


def test_a_take_waits_for_a_write_in_flight_and_is_then_final(database: str) -> None:
    """The fenced write locks the lease row (FOR SHARE) in its transaction: a take issued
    meanwhile waits for it to commit, so what the taker reads next holds every write the
    stale holder was ever allowed."""
    stale, taker = PgStore(database, node="a"), PgStore(database, node="a")
    try:
        stale.create_game("h", "ROOM", "tenhou-tonpuu", 7, b"{}", ["A", "B", "C", "D"])
        epoch = stale.query("SELECT epoch FROM leases WHERE game = 'h'")[0][0]
        with stale._writing() as db:
            db.execute("BEGIN")
            db.execute(
                "SELECT 1 FROM leases WHERE game = %s AND epoch = %s FOR SHARE", ("h", epoch)
            )
            db.execute("INSERT INTO decisions VALUES ('h', 0, 0, 0, 0, 0, 0, NULL)")
        done = threading.Event()

        def take() -> None:
            taker.take("h")
            done.set()

        thread = threading.Thread(target=take)
        thread.start()
        assert not done.wait(0.5)  # the take waits for the write in flight
        stale._db.execute("COMMIT")
        assert done.wait(10)
        thread.join()
        assert _decisions(taker, "h") == [(0, 0, 0)]  # the write that won is kept, whole
        with pytest.raises(LeaseLost):
            stale.add_decision("h", 1, 0, 0, 0, False)
    finally:
        stale.close()
        taker.close()


async def test_a_hub_whose_game_was_taken_over_drops_its_table_and_the_game_finishes_whole(
    database: str,
) -> None:
    settings = Settings(bot_pace_s=0.02, bot_think_s=0.0, spectator_delay_s=0.0)
    first = Hub(settings, PgStore(database, node="a"), RealEngine())
    second = Hub(settings, PgStore(database, node="a"), RealEngine())
    try:
        async with anyio.create_task_group() as tg:
            first.bind(tg)
            room = first.create(preset="tenhou-tonpuu", bots=4, base_s=5, bank_s=10)
            table = first.start(room)
            with anyio.fail_after(60):
                while len(first.storage.trails(room.game)) < 30:
                    await anyio.sleep(0.05)
            second.bind(tg)  # restores the game: takes its lease, replays, plays on
            assert second.resumed.games == 1
            with anyio.fail_after(60):
                while room.game in first.tables:
                    await anyio.sleep(0.05)
            assert first.fault is None  # the store is fine: only that table went
            assert room.code not in first.rooms.by_code
            assert not table.finished.is_set()
            with anyio.fail_after(300):
                await second.tables[room.game].finished.wait()
            tg.cancel_scope.cancel()
        record = second.storage.load(room.game)
        assert record is not None and record.status == "finished"
        verdict = records.verify(record)
        assert verdict["replay_ok"] is True, verdict
        ns = [
            r[0]
            for r in second.storage.query(
                "SELECT n FROM decisions WHERE game = ? ORDER BY n", (room.game,)
            )
        ]
        assert ns == list(range(len(ns)))
        assert msgspec.json.decode(record.result)["error"] is None
    finally:
        first.storage.close()
        second.storage.close()
