"""Ranked rows on both stores (SQLite and a real PostgreSQL): a finished ranked game moves
every seat's standing in the transaction that marks it finished, once; a failure in that
transaction leaves neither; databases made before the ladder open with their games kept;
a deleted account's name becomes anonymous in its games."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import msgspec
import psycopg
import pytest

from server.ladder import finish, lobbies
from server.ladder.queue import Queue, QueueError
from server.storage import accounts, ranked, reviews
from server.storage.postgres import PgStore
from server.storage.sqlite import Reader, Statement, Storage, Store
from tests.server.ladder.expected import dan_after, place_of, r_delta
from tests.services import fresh_database, postgres_server

_names = itertools.count()
LOBBIES = lobbies.parse("")


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def _open(db: Store) -> Store:
    db.finish_hook = finish.ratings_hook(LOBBIES, clock=lambda: 1000.0 + next(_names))
    return db


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    db: Store
    if request.param == "sqlite":
        db = Storage(tmp_path / "records.sqlite3")
    else:
        url = fresh_database(request.getfixturevalue("pg_url"), f"r{next(_names)}")
        db = PgStore(url, node="a")
    yield _open(db)
    db.close()


def _players(db: Store, n: int = 4) -> list[int]:
    return [accounts.create(db, f"p{i}", f"p{i}", "hash", 0.0) for i in range(n)]


def _ranked_game(db: Store, game: str, ids: list[int], lobby: str = "tonpuu") -> None:
    names = [f"p{i}" for i in range(len(ids))]
    db.create_game(game, "ROOM", "tenhou-tonpuu", 1, b"{}", names)
    ranked.add_game(db, game, lobby, ids, 0.0)


def _end(scores: list[int]) -> bytes:
    return msgspec.json.encode({"scores": scores, "error": None})


def _standing(db: Store, account: int, lobby: str = "tonpuu") -> tuple[int, int, float, int]:
    row = db.query(
        "SELECT dan, points, rating, games FROM standings WHERE account = ? AND lobby = ?",
        (account, lobby),
    )[0]
    return int(row[0]), int(row[1]), float(row[2]), int(row[3])


def test_a_finished_ranked_game_moves_every_standing_once(store: Store) -> None:
    ids = _players(store)
    expect = {a: (0, 0, 1500.0, 0) for a in ids}
    for n, scores in enumerate([[40000, 30000, 20000, 10000], [10000, 20000, 30000, 40000]]):
        _ranked_game(store, f"g{n}", ids)
        store.finish_game(f"g{n}", _end(scores))
        store.finish_game(f"g{n}", _end(scores))  # the end stored again: counted once
        places = place_of(scores)
        table = [expect[a][2] for a in ids]
        for seat, a in enumerate(ids):
            dan, points, rating, games = expect[a]
            dan, points = dan_after(dan, points, places[seat], winds=1)
            rating += r_delta(rating, games, places[seat], table)
            expect[a] = (dan, points, rating, games + 1)
    for a in ids:
        got = _standing(store, a)
        assert got[:2] == expect[a][:2] and got[3] == expect[a][3] == 2
        assert got[2] == pytest.approx(expect[a][2], abs=1e-9)
    history = ranked.history_of(store, ids[0], 10)
    assert [h[0] for h in history] == ["g1", "g0"] and [h[3] for h in history] == [4, 1]


def test_a_game_that_did_not_finish_moves_nothing(store: Store) -> None:
    ids = _players(store)
    _ranked_game(store, "err", ids)
    store.finish_game("err", _end([25000] * 4), "error")
    assert store.query("SELECT count(*) FROM standings", ())[0][0] == 0
    assert ranked.seated(store, ids[0]) is None  # an errored game holds no seat


def test_a_failing_transaction_keeps_the_game_unfinished_and_unrated(store: Store) -> None:
    ids = _players(store)
    _ranked_game(store, "g", ids)
    assert ranked.seated(store, ids[2]) == "g"
    rated = store.finish_hook
    assert rated is not None

    def broken(read: Reader, game: str, status: str, result: bytes) -> list[Statement]:
        return [*rated(read, game, status, result), ("INSERT INTO nowhere VALUES (1)", ())]

    store.finish_hook = broken
    with pytest.raises(Exception, match="nowhere"):
        store.finish_game("g", _end([40000, 30000, 20000, 10000]))
    assert store.query("SELECT status FROM games WHERE id = ?", ("g",))[0][0] == "playing"
    assert store.query("SELECT count(*) FROM standings", ())[0][0] == 0
    store.finish_hook = rated
    store.finish_game("g", _end([40000, 30000, 20000, 10000]))
    assert _standing(store, ids[0])[3] == 1 and ranked.seated(store, ids[0]) is None


def _review(db: Store, game: str, seat: int, match_rate: float, done: bool = True) -> None:
    job = f"job-{game}-{seat}"
    reviews.claim(db, (game, seat, "strong"), job, "a", 4, 0.0)
    if done:
        report = {"seat": seat, "match_rate": match_rate, "rating": match_rate / 2}
        reviews.finish(db, job, msgspec.json.encode(report), 1.0)


def test_a_profile_reads_the_reviews_of_the_accounts_own_seat_only(store: Store) -> None:
    ids = _players(store)
    seats = ids[::-1]  # the draw sat ids[0] at seat 3: the seat, not the join order, counts
    for n, scores in enumerate([[40000, 30000, 20000, 10000]] * 3):
        names = [f"p{ids.index(a)}" for a in seats]
        store.create_game(f"g{n}", "ROOM", "tenhou-tonpuu", 1, b"{}", names)
        ranked.add_game(store, f"g{n}", "tonpuu", seats, 0.0)
        store.finish_game(f"g{n}", _end(scores))
    _review(store, "g0", 3, 0.75)  # ids[0]'s seat
    _review(store, "g0", 0, 0.5)  # another seat of the same game
    _review(store, "g1", 0, 0.25)  # another seat only
    _review(store, "g2", 3, 0.9, done=False)  # still running
    got = ranked.reviews_of(store, ids[0], 10)
    assert [(r[0], r[2], r[3], r[4]) for r in got] == [("g0", "strong", 0.75, 0.375)]
    assert [(r[0], r[3]) for r in ranked.reviews_of(store, ids[3], 10)] == [
        ("g1", 0.25),
        ("g0", 0.5),
    ]  # newest first
    reviews.finish(store, "job-g2-3", msgspec.json.encode({"match_rate": 0.9, "rating": 0.1}), 2)
    assert [r[0] for r in ranked.reviews_of(store, ids[0], 1)] == ["g2"]


def test_reviews_stored_before_the_figures_columns_gain_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE reviews (game TEXT NOT NULL, seat INTEGER NOT NULL, engine TEXT NOT NULL,"
        " status TEXT NOT NULL, job TEXT NOT NULL, node TEXT NOT NULL, done INTEGER NOT NULL,"
        " total INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, result TEXT, error TEXT,"
        " PRIMARY KEY (game, seat, engine));"
        "INSERT INTO reviews VALUES ('g', 1, 'strong', 'done', 'j', 'a', 4, 4, 1.0,"
        " '{\"match_rate\": 0.625, \"rating\": 0.4}', '');"
    )
    old.commit()
    old.close()
    db = Storage(path)
    try:
        assert db.query("SELECT match_rate, rating FROM reviews", ()) == [(0.625, 0.4)]
    finally:
        db.close()


def test_a_deleted_account_becomes_anonymous_in_its_games(store: Store) -> None:
    ids = _players(store)
    _ranked_game(store, "g", ids)
    store.finish_game("g", _end([40000, 30000, 20000, 10000]))
    accounts.delete(store, ids[1], ranked.seats_json_of(store, ids[1]))
    seats = store.load("g")
    assert seats is not None and seats.seats == ["p0", accounts.ANONYMOUS, "p2", "p3"]
    assert accounts.by_id(store, ids[1]) is None
    assert [r[0] for r in ranked.board(store, "tonpuu", 0, 10)] == ["p0", "p2", "p3"]


def test_names_collide_on_their_key(store: Store) -> None:
    accounts.create(store, "Taro", "taro", "h", 0.0)
    with pytest.raises(accounts.NameTaken):
        accounts.create(store, "TARO", "taro", "h", 0.0)


def test_a_database_from_before_the_ladder_opens_with_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, room TEXT NOT NULL, preset TEXT NOT NULL,"
        " seed INTEGER NOT NULL, rules TEXT NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL,"
        " result TEXT);"
        "INSERT INTO games VALUES ('old', 'R', 'tenhou-tonpuu', 1, '{}', '[\"a\"]', 'finished',"
        " '{\"scores\": [1]}');"
    )
    old.commit()
    old.close()
    db = _open(Storage(path))
    try:
        kept = db.load("old")
        assert kept is not None and kept.status == "finished" and kept.seats == ["a"]
        assert db.query("SELECT count(*) FROM ranked_games", ())[0][0] == 0
    finally:
        db.close()


def test_a_postgres_database_from_before_the_ladder_opens_with_its_games(pg_url: str) -> None:
    url = fresh_database(pg_url, f"old{next(_names)}")
    with psycopg.connect(url, autocommit=True) as old:  # the games tables of that time only
        old.execute(
            "CREATE TABLE games (rowid BIGSERIAL, id TEXT PRIMARY KEY, room TEXT NOT NULL,"
            " preset TEXT NOT NULL, seed BIGINT NOT NULL, rules TEXT NOT NULL,"
            " seats TEXT NOT NULL, status TEXT NOT NULL, result TEXT, commitment TEXT,"
            " practice INTEGER, engine TEXT);"
            " CREATE TABLE endings (game TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL);"
            " CREATE TABLE listed (game TEXT PRIMARY KEY);"
            " INSERT INTO games (id, room, preset, seed, rules, seats, status, result)"
            " VALUES ('old', 'R', 'tenhou-tonpuu', 1, '{}', '[\"a\", \"b\", \"c\", \"d\"]',"
            " 'finished', '{\"scores\": [1, 2, 3, 4]}');"
            " INSERT INTO endings VALUES ('old', 1.0); INSERT INTO listed VALUES ('old')"
        )
    db = _open(PgStore(url, node="a"))
    try:
        kept = db.load("old")
        assert kept is not None and kept.status == "finished" and kept.draw is None
        assert db.query("SELECT count(*) FROM standings", ())[0][0] == 0
        assert [g.id for g in db.finished_games(10)] == ["old"]
    finally:
        db.close()


class _NoSeats:
    def seat(self, lobby: object, names: list[str]) -> tuple[str, str, list[tuple[int, str]], str]:
        raise AssertionError("no table should form")


async def test_a_seat_from_before_a_restart_still_holds_the_account(store: Store) -> None:
    """A new process's queue (nothing in memory) learns the seat from the store: the
    account is told it plays, and cannot queue until that game is over."""
    ids = _players(store)
    _ranked_game(store, "g", ids)
    fresh = Queue(store, LOBBIES, _NoSeats())
    assert await fresh.status(ids[0]) == {"state": "playing", "game": "g"}
    with pytest.raises(QueueError, match="seated"):
        await fresh.join(ids[0], "p0", "tonpuu")
    store.finish_game("g", _end([40000, 30000, 20000, 10000]))
    assert await fresh.status(ids[0]) == {"state": "idle"}
    await fresh.join(ids[0], "p0", "tonpuu")
    assert (await fresh.status(ids[0]))["state"] == "waiting"


class _OneTable:
    """Seats a table as game "g" (made in the store the way the hub makes it)."""

    def __init__(self, db: Store) -> None:
        self.db = db

    def seat(self, lobby: object, names: list[str]) -> tuple[str, str, list[tuple[int, str]], str]:
        self.db.create_game("g", "ROOM", "tenhou-tonpuu", 1, b"{}", names)
        return "ROOM", "g", [(seat, f"token{seat}") for seat in range(len(names))], ""


async def test_a_game_ended_in_the_store_frees_its_seats_before_the_queue_hears_of_it(
    store: Store,
) -> None:
    """The store ends a game before any client sees its end; the queue frees the seat
    markers a moment later (``ended``). A player who queues again in that moment is not
    told they are still seated (a fresh-clone run's 409 ``seated``), and their status no
    longer points at the finished game."""
    ids = _players(store)
    queue = Queue(store, LOBBIES, _OneTable(store))
    for n, account in enumerate(ids):
        await queue.join(account, f"p{n}", "tonpuu")
    assert (await queue.status(ids[0]))["state"] == "seated"
    with pytest.raises(QueueError, match="seated"):
        await queue.join(ids[0], "p0", "tonpuu")
    store.finish_game("g", _end([40000, 30000, 20000, 10000]))  # ``ended`` has not run yet
    assert await queue.status(ids[1]) == {"state": "idle"}
    await queue.join(ids[0], "p0", "tonpuu")
    assert (await queue.status(ids[0]))["state"] == "waiting"
