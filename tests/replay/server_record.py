"""A played engine game laid out as the server's JSON record (``GET /api/games/{id}/record``),
for tests that verify records without a server."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.game.game import Game
from engine.rules.wall import seed_commitment


def server_record(game: Game, seed: int) -> dict[str, Any]:
    """``game`` (played from ``seed``) as the finished record the server would serve."""
    record: dict[str, Any] = msgspec.json.decode(
        msgspec.json.encode(
            {
                "id": "g",
                "seed": seed,
                "commitment": seed_commitment(seed),
                "practice": False,
                "rules": game.rules,
                "status": "finished",
                "decisions": [
                    [d.inquiry_id, d.seat, d.action_index, d.option_index, False]
                    for d in game.decisions
                ],
                "rounds": list(game.rounds),
                "result": {"scores": list(game.scores)},
            }
        )
    )
    return record
