"""A bots' game stored as a server stores it (rows of games, decisions, rounds), so the review
API has a finished record without a table playing it for a minute."""

from __future__ import annotations

import msgspec

from engine.rules.config import PRESETS
from server.storage.sqlite import Store
from tests.review.games import played

#: a short game with mistakes in it: two easy bots beside two strong ones
BOTS = ["easy", "strong", "easy", "strong"]


def store_game(
    db: Store, game: str, preset: str = "tenhou-tonpuu", seed: int = 5, status: str = "finished"
) -> int:
    """Store the bots' game of ``preset`` and ``seed`` as ``game`` with ``status`` (a
    ``playing`` one keeps its rows but has no end); the number of hands it has."""
    rules = PRESETS[preset]
    played_game = played(rules, seed, BOTS[: rules.players])
    names = [f"bot{i}" for i in range(rules.players)]
    db.create_game(game, "ROOM", preset, seed, msgspec.json.encode(rules), names)
    for d in played_game.decisions:
        db.add_decision(game, d.inquiry_id, d.seat, d.action_index, d.option_index, False)
    for n, result in enumerate(played_game.rounds):
        db.add_round(game, n, msgspec.json.encode(result))
    if status == "finished":
        scores = {"scores": list(played_game.scores), "error": None}
        db.finish_game(game, msgspec.json.encode(scores))
    elif status != "playing":
        db.set_status(game, status)
    return len(played_game.rounds)
