"""The real engine behind a table: make a Game, run it under anyio, read a seat's hand."""

from __future__ import annotations

from typing import Any

from engine import view
from engine.driver import run_async
from engine.game.game import Game
from engine.rules.config import RuleConfig
from engine.rules.tiles import DRAGONS


class RealEngine:
    """``EnginePort`` over engine.game and engine.driver."""

    def new_game(self, rules: RuleConfig, seed: int, center: Any) -> Game:
        return Game(rules, seed, center)

    async def run(self, game: Any) -> None:
        await run_async(game)

    def hand(self, game: Any, seat: int) -> list[int]:
        return list(game.players[seat].hand)

    def yakuhai(self, game: Any, seat: int) -> tuple[int, ...]:
        return (*DRAGONS, game.seat_wind(seat), game.round_wind)

    def snapshot(self, game: Any, seat: int) -> Any:
        return view.snapshot(game, seat)
