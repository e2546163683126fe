"""The PostgreSQL store keeps the record contract of the SQLite one: the same tests run on both
(a real PostgreSQL from Debian's binaries, tests/services.py), and on PostgreSQL each node
restores only its own rooms while every node lists and loads every game."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import msgspec
import pytest

from server.storage import persist
from server.storage.postgres import PgStore
from server.storage.sqlite import SQL_ADD_ADVICE, Storage, Store
from tests import system
from tests.services import fresh_database, postgres_server

_names = itertools.count()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    system.postgres()
    with postgres_server() as url:
        yield url


def _pg(pg_url: str, node: str = "a") -> PgStore:
    return PgStore(fresh_database(pg_url, f"t{next(_names)}"), node=node)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    db: Store
    if request.param == "sqlite":
        db = Storage(tmp_path / "records.sqlite3")
    else:
        db = _pg(request.getfixturevalue("pg_url"))
    yield db
    db.close()


def _game(db: Store, game: str, status: str | None, public: bool = True) -> None:
    db.create_game(game, "ROOM", "tenhou-tonpuu", 2**63 - 1, b"{}", ["A", "B", "C", "D"], public)
    if status is not None:
        scores = {"scores": [31000, 24000, 23000, 22000], "error": None}
        db.finish_game(game, msgspec.json.encode(scores), status)
        time.sleep(0.005)  # distinct end times


def test_finished_games_newest_first_and_paged(store: Store) -> None:
    _game(store, "old", "finished")
    _game(store, "running", None)
    _game(store, "broken", "error")
    _game(store, "private", "finished", public=False)
    for n in range(3):
        _game(store, f"g{n}", "finished")
    first = store.finished_games(2)
    assert [g.id for g in first] == ["g2", "g1"]
    assert msgspec.json.decode(first[0].scores) == [31000, 24000, 23000, 22000]
    assert first[0].seats == ["A", "B", "C", "D"] and first[0].finished > first[1].finished
    rest = store.finished_games(10, before=first[-1].finished)
    assert [g.id for g in rest] == ["g0", "old"]


def test_games_are_listed_by_each_status(store: Store) -> None:
    for game, status in [("p", "playing"), ("s", "suspended"), ("a", "aborted")]:
        store.create_game(game, "ROOM", "tenhou-tonpuu", 1, b"{}", ["A", "B", "C", "D"])
        store.set_status(game, status)
    for status in ("playing", "suspended", "aborted"):
        games = store.games_with_status(status, 10)
        assert [(g.id, g.status) for g in games] == [(status[0], status)]
    assert store.finished_games(10) == []


def test_a_record_holds_every_decision_round_and_hash_in_order(store: Store) -> None:
    assert store.load("nothing") is None
    store.create_game("g", "ROOM", "tenhou-tonpuu", 2**63 - 1, b'{"x":1}', ["A", "B"], True, "c0")
    for n in range(5):
        store.add_decision("g", n + 1, n % 4, n, 0, n == 3, f"h{n}")
    store.add_round("g", 0, b'{"r":0}')
    store.add_round("g", 0, b'{"r":"again"}')  # a hand stored twice keeps the last
    store.add_round("g", 1, b'{"r":1}')
    store.finish_game("g", b'{"scores":[1,2]}')
    record = store.load("g")
    assert record is not None
    assert (record.seed, record.status, record.commitment) == (2**63 - 1, "finished", "c0")
    assert bytes(record.rules) == b'{"x":1}' and bytes(record.result) == b'{"scores":[1,2]}'
    assert [(d.inquiry, d.seat, d.action, d.timeout) for d in record.decisions] == [
        (n + 1, n % 4, n, n == 3) for n in range(5)
    ]
    assert [bytes(r) for r in record.rounds] == [b'{"r":"again"}', b'{"r":1}']
    assert store.trails("g") == [f"h{n}" for n in range(5)]


def _room(game: str, code: str, bank: float) -> SimpleNamespace:
    seat = SimpleNamespace(
        index=0, name="Ann", bot=False, bot_name=None, token_hash="ab", clock=None
    )
    seat.clock = SimpleNamespace(bank=bank)
    return SimpleNamespace(
        game=game, code=code, preset="tenhou-tonpuu", public=True, base_s=5.0, bank_s=20.0,
        seed=3, seats=[seat], owner=0,
    )  # fmt: skip


def test_rooms_are_saved_again_and_restored_with_their_seats(store: Store) -> None:
    persist.save_room(store, _room("w", "WAIT", 20.0))
    persist.save_room(store, _room("p", "PLAY", 20.0))
    persist.save_room(store, _room("p", "PLAY", 17.25), started=True)  # rewritten, not added
    store.create_game("p", "PLAY", "tenhou-tonpuu", 3, b"{}", ["Ann"])
    persist.save_bank(store, "p", 0, 12.5)
    rows = {r.game: r for r in persist.to_restore(store)}
    assert sorted(rows) == ["p", "w"]
    assert not rows["w"].started and rows["p"].started and rows["p"].status == "playing"
    assert rows["p"].seats == [persist.SeatRow(0, "Ann", None, "ab", 12.5)]
    assert rows["p"].options == {"owner": 0}
    persist.drop_room(store, "w")
    assert [r.game for r in persist.to_restore(store)] == ["p"]


def test_on_a_shared_database_each_node_restores_its_own_rooms_and_lists_all_games(
    pg_url: str,
) -> None:
    url = fresh_database(pg_url, f"t{next(_names)}")
    a, b = PgStore(url, node="a"), PgStore(url, node="b")
    try:
        _each_node_restores_its_own(a, b)
    finally:
        a.close()
        b.close()


def _each_node_restores_its_own(a: PgStore, b: PgStore) -> None:
    for db, game in ((a, "ga"), (b, "gb")):
        persist.save_room(db, _room(game, game.upper(), 20.0), started=True)
        _game(db, game, None)
    assert [r.game for r in persist.to_restore(a)] == ["ga"]
    assert [r.game for r in persist.to_restore(b)] == ["gb"]
    assert persist.orphans(a) == persist.orphans(b) == []
    a.finish_game("ga", b'{"scores":[1]}')
    listed = b.finished_games(10)
    assert [g.id for g in listed] == ["ga"]
    loaded = b.load("ga")
    assert loaded is not None and loaded.status == "finished"


def test_a_record_counts_its_advice_and_one_without_says_nothing_of_it(store: Store) -> None:
    """games.advice (step 5) on both stores: NULL until advice is given, then a count."""
    store.create_game("taught", "ROOM", "tenhou-tonpuu", 1, b"{}", ["A", "B", "C", "D"])
    store.create_game("plain", "ROOM", "tenhou-tonpuu", 2, b"{}", ["A", "B", "C", "D"])
    for _ in range(3):
        store.execute(SQL_ADD_ADVICE, ("taught",))
    taught, plain = store.load("taught"), store.load("plain")
    assert taught is not None and plain is not None
    assert taught.advice == 3
    assert "advice" in msgspec.json.decode(msgspec.json.encode(taught))
    assert "advice" not in msgspec.json.decode(msgspec.json.encode(plain))
