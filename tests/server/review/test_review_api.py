"""The review API on a real app: a finished game's seat reviewed in the worker pool, once,
stored with the record and served from there (after a restart too); a game that has not
finished is refused by every review endpoint; the per-client budget and the pool's bound
stop a storm."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.applications import Starlette

from server.app import create_app
from server.settings import Settings
from server.storage.sqlite import Storage
from tests.server.http import TestClient
from tests.server.live import GENEROUS
from tests.server.review.games import store_game

#: a review starts a worker process (an interpreter importing the engine) on a shared machine
PATIENCE_S = 180.0


def _started(client: TestClient) -> int:
    """Reviews the app's service computed (a stored or pending one is never started again)."""
    app = cast(Starlette, client.app)
    return int(app.state.reviews.started)


def _client(data: Path, **overrides: Any) -> TestClient:
    values = {**GENEROUS, "review_per_min": 100_000.0, **overrides}
    return TestClient(create_app(Settings(data_dir=str(data), **values)))


@pytest.fixture()
def data(tmp_path: Path) -> Iterator[Path]:
    """A data directory holding a finished game ``done`` and games not finished."""
    db = Storage(tmp_path / "records.sqlite3")
    store_game(db, "done", seed=5)
    store_game(db, "other", seed=6)
    for status in ("playing", "suspended", "aborted"):
        store_game(db, status, seed=7, status=status)
    # a file from before reviews (and versions): the server adds their table on start and
    # keeps the games; such a file has no column a later step added either (step 5's advice)
    db.transaction(
        [
            ("DROP TABLE reviews", ()),
            ("DROP TABLE schema_version", ()),
            ("ALTER TABLE games DROP COLUMN advice", ()),
        ]
    )
    db.close()
    yield tmp_path


def _until_done(client: TestClient, game: str, seat: int) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE_S
    seen: set[str] = set()
    while True:
        got = client.get(f"/api/games/{game}/review", params={"seat": seat, "engine": "strong"})
        body: dict[str, Any] = got.json()
        seen.add(body["status"])
        assert body["status"] in ("queued", "running", "done"), body
        if body["status"] == "done":
            assert got.status_code == 200
            return body
        assert got.status_code == 202 and body["review"] is None
        assert 0 <= body["done"] <= body["total"] == 6
        assert time.monotonic() < deadline, f"still {body['status']} after {PATIENCE_S} s"
        time.sleep(0.2)


def test_a_finished_game_is_reviewed_once_and_served_from_the_store(data: Path) -> None:
    with _client(data) as client:
        asked = client.post("/api/games/done/review", json={"seat": 1, "engine": "strong"})
        assert asked.status_code == 202, asked.text
        assert asked.json()["status"] == "queued" and asked.json()["total"] == 6
        body = _until_done(client, "done", 1)
        review = body["review"]
        assert review["seat"] == 1 and review["players"] == 4 and review["model_tag"]
        assert review["total_reviewed"] > 20
        assert 0 < review["match_rate"] <= 1 and len(review["kyokus"]) == 6
        entries = [e for k in review["kyokus"] for e in k["entries"]]
        assert all(e["event_index"] > 0 and e["details"] for e in entries)
        # asked again (and by another client): the stored review, never computed again
        again = client.post("/api/games/done/review", json={"seat": 1})
        assert again.status_code == 200 and again.json()["review"] == review
        assert _started(client) == 1
    with _client(data) as client:  # a restarted server serves it from the store
        got = client.get("/api/games/done/review", params={"seat": 1})
        assert got.status_code == 200 and got.json()["review"] == review
        assert client.post("/api/games/done/review", json={"seat": 1}).json()["review"] == review
        assert _started(client) == 0


def test_a_game_that_has_not_finished_is_refused_by_every_endpoint(data: Path) -> None:
    with _client(data) as client:
        for game in ("playing", "suspended", "aborted"):
            asked = client.post(f"/api/games/{game}/review", json={"seat": 0})
            assert asked.status_code == 409 and asked.json()["code"] == "not_finished"
            got = client.get(f"/api/games/{game}/review", params={"seat": 0})
            assert got.status_code == 409 and got.json()["code"] == "not_finished"
            assert "kyokus" not in asked.text + got.text
        assert _started(client) == 0
    db = Storage(data / "records.sqlite3")
    assert db.query("SELECT count(*) FROM reviews")[0][0] == 0
    db.close()


def test_bad_requests_are_named(data: Path) -> None:
    with _client(data) as client:
        cases = [
            ("/api/games/nosuch/review", {"seat": 0}, 404, "no_game"),
            ("/api/games/done/review", {"seat": 4}, 400, "bad_seat"),
            ("/api/games/done/review", {"seat": 0, "engine": "mjai:nosuch"}, 400, "bad_engine"),
            ("/api/games/done/review", {"seat": 0, "hint": 1}, 400, "bad_request"),
        ]
        for url, body, status, code in cases:
            got = client.post(url, json=body)
            assert (got.status_code, got.json()["code"]) == (status, code), (body, got.text)
        got = client.get("/api/games/done/review", params={"seat": 9})
        assert (got.status_code, got.json()["code"]) == (400, "bad_query")
        assert _started(client) == 0


def test_a_review_nobody_asked_for_is_a_state_not_an_error(data: Path) -> None:
    """A replay asks for each seat's review as it opens: no review yet is normal (200)."""
    with _client(data) as client:
        got = client.get("/api/games/done/review", params={"seat": 2})
        assert got.status_code == 200
        assert got.json() == {
            "game": "done",
            "seat": 2,
            "engine": "strong",
            "status": "none",
            "done": 0,
            "total": 0,
            "error": "",
            "review": None,
        }
        assert _started(client) == 0


def test_a_review_storm_is_stopped_by_the_budget_and_the_pool_bound(data: Path) -> None:
    with _client(data, review_per_min=0.1) as client:  # a burst of 4, then one in 10 min
        for seat in range(4):
            assert client.post("/api/games/done/review", json={"seat": seat}).status_code == 202
        storm = client.post("/api/games/other/review", json={"seat": 0})
        assert storm.status_code == 429 and storm.json()["code"] == "rate_limited"
        assert int(storm.headers["retry-after"]) > 60
        # asking again for a review that exists is free
        assert client.post("/api/games/done/review", json={"seat": 0}).status_code in (200, 202)
        assert _started(client) == 4
    with _client(data, review_queue=1) as client:
        assert client.post("/api/games/other/review", json={"seat": 0}).status_code == 202
        busy = client.post("/api/games/other/review", json={"seat": 1})
        assert busy.status_code == 429 and busy.json()["code"] == "busy"
        assert _started(client) == 1
