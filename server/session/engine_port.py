"""What a table needs of an engine (EnginePort), and the real engine behind it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

from engine import view
from engine.bot.view import SeatView, seat_view
from engine.driver import run_async
from engine.game.game import Game
from engine.game.setup import new_game
from engine.rules.config import RuleConfig


class EnginePort(Protocol):
    """How a table makes and runs a game (the real engine, or a test double)."""

    def new_game(self, rules: RuleConfig, seed: int, center: Any) -> Any: ...

    def run(self, game: Any) -> Awaitable[None]: ...

    def seat_view(self, game: Any, seat: int) -> SeatView:
        """What ``seat`` alone knows now (its own hand and the public table): all a bot of
        that seat is given."""
        ...

    def snapshot(self, game: Any, seat: int) -> Any:
        """The table as ``seat`` may see it now (engine.view.snapshot), or None."""
        ...


class RealEngine:
    """``EnginePort`` over engine.game and engine.driver."""

    def new_game(self, rules: RuleConfig, seed: int, center: Any) -> Game:
        return new_game(rules, seed, center)

    async def run(self, game: Any) -> None:
        await run_async(game)

    def seat_view(self, game: Any, seat: int) -> SeatView:
        return seat_view(game, seat)

    def snapshot(self, game: Any, seat: int) -> Any:
        return view.snapshot(game, seat)
