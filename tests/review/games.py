"""Seeded games played by built-in bots, as the server stores them (rules, seed, decisions)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.actions.types import Decision
from engine.bot import make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.game.game import Game
from engine.rules.config import RuleConfig


def played(rules: RuleConfig, seed: int, bots: list[str]) -> Game:
    center = BotCenter([make(name) for name in bots])
    game = new_game(rules, seed, center)
    center.game = game
    return run_sync(game)


def record(game: Game) -> dict[str, Any]:
    """Our JSON record's fields a review reads (the server's download has these and more)."""
    return {
        "rules": msgspec.to_builtins(game.rules),
        "seed": game.seed,
        "decisions": [msgspec.to_builtins(d) for d in game.decisions],
    }


def decisions(game: Game) -> list[Decision]:
    return list(game.decisions)
