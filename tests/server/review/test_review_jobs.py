"""The review service on a store two nodes share (one SQLite file opened twice, and a real
PostgreSQL): one node claims and reviews, the other only serves; a job whose node went
silent is taken over once; the mjai path runs an AI process and names why it failed."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.review.jobs import STALE_S, Reviews
from server.settings import Settings
from server.storage import reviews
from server.storage.postgres import PgStore
from server.storage.reviews import ReviewRow
from server.storage.sqlite import Storage, Store
from tests.server.review.games import store_game
from tests.services import fresh_database, postgres_server

PATIENCE_S = 180.0


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """Two nodes' connections to one store holding the finished game ``g``."""
    if request.param == "sqlite":
        a: Store = Storage(tmp_path / "records.sqlite3")
        b: Store = Storage(tmp_path / "records.sqlite3")
    else:
        url = fresh_database(request.getfixturevalue("pg_url"), f"rv{time.monotonic_ns()}")
        a, b = PgStore(url, node="a"), PgStore(url, node="b")
    store_game(a, "g")
    yield a, b
    a.close()
    b.close()


def _node(store: Store, name: str, **overrides: object) -> Reviews:
    return Reviews(Settings(node_id=name, **overrides), store)  # type: ignore[arg-type]


def _until_ended(store: Store, game: str, seat: int, engine: str = "strong") -> ReviewRow:
    deadline = time.monotonic() + PATIENCE_S
    while True:
        row = reviews.row(store, game, seat, engine)
        assert row is not None
        if row.status in ("done", "failed"):
            return row
        assert time.monotonic() < deadline, f"still {row.status} after {PATIENCE_S} s"
        time.sleep(0.2)


def test_one_node_reviews_and_every_node_serves(shared: tuple[Store, Store]) -> None:
    a, b = _node(shared[0], "a"), _node(shared[1], "b")
    try:
        record = shared[0].load("g")
        assert record is not None
        mine = a.request(record, 2, "strong")
        theirs = b.request(record, 2, "strong")  # the same job: b starts nothing
        assert mine.node == theirs.node == "a" and mine.job == theirs.job
        assert (a.started, b.started) == (1, 0)
        done = _until_ended(shared[1], "g", 2)
        assert done.status == "done" and done.done == done.total == 6
        report = reviews.result(shared[1], "g", 2, "strong")
        assert report is not None and json.loads(report)["seat"] == 2
        assert b.request(record, 2, "strong").status == "done" and b.started == 0
    finally:
        a.close()
        b.close()


def test_a_silent_nodes_job_is_taken_over_once(shared: tuple[Store, Store]) -> None:
    b = _node(shared[1], "b")
    try:
        record = shared[0].load("g")
        assert record is not None
        now = time.time()
        fresh = reviews.claim(shared[0], ("g", 0, "strong"), "job-c", "c", 6, now)
        assert not b.orphaned(fresh)  # node c may still be working on it
        assert b.request(record, 0, "strong").job == "job-c" and b.started == 0
        old = reviews.claim(shared[0], ("g", 1, "strong"), "job-d", "d", 6, now - 2 * STALE_S)
        assert b.orphaned(old)
        taken = b.request(record, 1, "strong")
        assert taken.node == "b" and taken.job != "job-d" and b.started == 1
        # the silent node's late words change nothing: every write names the job
        reviews.progress(shared[0], "job-d", 5, now)
        reviews.finish(shared[0], "job-d", b'{"forged": true}', now)
        assert _until_ended(shared[0], "g", 1).status == "done"
        report = reviews.result(shared[0], "g", 1, "strong")
        assert report is not None and json.loads(report)["seat"] == 1
    finally:
        b.close()


def test_an_mjai_ai_reviews_in_the_pool_and_a_dead_one_is_named(tmp_path: Path) -> None:
    db = Storage(tmp_path / "records.sqlite3")
    store_game(db, "g")
    bots = {
        "strong": [sys.executable, "-m", "engine.bot.mjai", "--bot", "strong", "--meta"],
        "dead": [sys.executable, "-c", "pass"],
    }
    service = _node(db, "a", mjai_bots=json.dumps(bots), review_workers=2)
    try:
        record = db.load("g")
        assert record is not None
        assert service.engines() == ["strong", "mjai:strong", "mjai:dead"]
        service.request(record, 3, "mjai:strong")
        service.request(record, 3, "mjai:dead")
        done = _until_ended(db, "g", 3, "mjai:strong")
        assert done.status == "done", done.error
        report = reviews.result(db, "g", 3, "mjai:strong")
        assert report is not None
        figures = json.loads(report)
        assert figures["model_tag"] == "mjai:strong" and figures["total_reviewed"] > 20
        dead = _until_ended(db, "g", 3, "mjai:dead")
        assert dead.status == "failed" and "exited" in dead.error
    finally:
        service.close()
        db.close()
