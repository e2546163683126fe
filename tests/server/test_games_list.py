"""The finished-games list: finished games of public rooms, newest first, paged by end time."""

from __future__ import annotations

import time

import msgspec

from server.storage import Storage


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
