"""The finished-games list: finished games of public rooms, newest first, paged by end time."""

from __future__ import annotations

import time

import msgspec

from server.storage.sqlite import Storage
from tests.server.http import TestClient


def _game(db: Storage, game: str, status: str | None, public: bool = True) -> None:
    db.create_game(game, "ROOM", "tenhou-tonpuu", 1, b"{}", ["A", "B", "C", "D"], public)
    if status is not None:
        scores = {"scores": [31000, 24000, 23000, 22000], "error": None}
        db.finish_game(game, msgspec.json.encode(scores), status)
        time.sleep(0.005)  # distinct end times, a millisecond apart at least


def test_finished_games_newest_first_without_running_failed_or_private_ones() -> None:
    db = Storage(":memory:")
    _game(db, "old", "finished")
    _game(db, "running", None)
    _game(db, "broken", "error")
    _game(db, "private", "finished", public=False)
    _game(db, "new", "finished")
    games = db.finished_games(10)
    assert [g.id for g in games] == ["new", "old"]
    assert games[0].seats == ["A", "B", "C", "D"]
    assert msgspec.json.decode(games[0].scores) == [31000, 24000, 23000, 22000]
    assert games[0].finished > games[1].finished


def test_finished_games_page_on_from_the_last_end_time_seen() -> None:
    db = Storage(":memory:")
    for n in range(5):
        _game(db, f"g{n}", "finished")
    first = db.finished_games(2)
    assert [g.id for g in first] == ["g4", "g3"]
    second = db.finished_games(2, before=first[-1].finished)
    assert [g.id for g in second] == ["g2", "g1"]
    assert [g.id for g in db.finished_games(2, before=second[-1].finished)] == ["g0"]


def test_an_all_bot_game_shows_in_the_list_once_it_ends(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"bots": 4, "preset": "tenhou-tonpuu"}).json()
    hidden = client.post("/api/rooms", json={"bots": 4, "public": False}).json()
    listed: list[str] = []
    for _ in range(600):  # the game plays on the app's own loop while we poll
        games = client.get("/api/games?status=finished").json()["games"]
        listed = [g["id"] for g in games]
        finished = client.get(f"/api/rooms/{hidden['code']}").json()["status"] == "finished"
        if room["game"] in listed and finished:
            break
        time.sleep(0.05)
    assert room["game"] in listed and hidden["game"] not in listed
    game = next(g for g in games if g["id"] == room["game"])
    assert game["preset"] == "tenhou-tonpuu"
    assert sorted(game["seats"]) == [f"Bot {i}" for i in (1, 2, 3, 4)]  # drawn seats
    record = client.get(f"/api/games/{room['game']}/record").json()
    assert game["scores"] == record["result"]["scores"]


def test_list_queries_it_cannot_answer_are_refused(client: TestClient) -> None:
    assert client.get("/api/games?status=over").json()["code"] == "bad_status"
    assert client.get("/api/games?limit=ten").status_code == 400
    assert client.get("/api/games?before=yesterday").json()["code"] == "bad_query"


def test_games_are_listed_by_each_status() -> None:
    db = Storage(":memory:")
    for game, status in [("p", "playing"), ("s", "suspended"), ("a", "aborted")]:
        db.create_game(game, "ROOM", "tenhou-tonpuu", 1, b"{}", ["A", "B", "C", "D"])
        db.set_status(game, status)
    for status in ("playing", "suspended", "aborted"):
        games = db.games_with_status(status, 10)
        assert [(g.id, g.status) for g in games] == [(status[0], status)]
    assert db.finished_games(10) == []
