"""What a table needs of an engine (EnginePort), and the real engine behind it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from engine import view
from engine.actions.center import ActionCenter
from engine.actions.inquiry import SinglePlayerInquiry
from engine.bot.seen import seat_view
from engine.bot.view import SeatView
from engine.driver import run_async
from engine.game.game import Game
from engine.game.setup import new_game
from engine.review.advice import moment_now
from engine.review.moment import Moment
from engine.rules.config import RuleConfig
from engine.rules.kinds import InquiryKind


class EnginePort(Protocol):
    """How a table makes and runs a game (the real engine, or a test double).

    The game is opaque to the table (``object``): it only hands it back to the port, and
    reads what it books (``rounds``, ``scores``) if it has them."""

    def new_game(self, rules: RuleConfig, seed: int, center: ActionCenter) -> object: ...

    def run(self, game: object) -> Awaitable[None]: ...

    def seat_view(self, game: object, seat: int) -> SeatView:
        """What ``seat`` alone knows now (its own hand and the public table): all a bot of
        that seat is given."""
        ...

    def snapshot(self, game: object, seat: int) -> view.TableView | None:
        """The table as ``seat`` may see it now (engine.view.snapshot), or None."""
        ...

    def moment(
        self, game: object, seat: int, inquiry: SinglePlayerInquiry, kind: InquiryKind
    ) -> Moment:
        """``seat``'s open decision as a reviewer sees it (its inquiry and its own view
        only): what advice at a practice table is worked out from."""
        ...

    def release(self, game: object) -> None:
        """The game is over and its record written: free what only its play needed, now
        rather than at the collector's next sweep (the game answers nothing after this)."""
        ...


def _game(game: object) -> Game:
    assert isinstance(game, Game), f"not a game of this engine: {type(game).__name__}"
    return game


class RealEngine:
    """``EnginePort`` over engine.game and engine.driver."""

    def new_game(self, rules: RuleConfig, seed: int, center: ActionCenter) -> Game:
        return new_game(rules, seed, center)

    async def run(self, game: object) -> None:
        await run_async(_game(game))

    def seat_view(self, game: object, seat: int) -> SeatView:
        return seat_view(_game(game), seat)

    def snapshot(self, game: object, seat: int) -> view.TableView:
        return view.snapshot(_game(game), seat)

    def moment(
        self, game: object, seat: int, inquiry: SinglePlayerInquiry, kind: InquiryKind
    ) -> Moment:
        return moment_now(_game(game), seat, inquiry, kind)

    def release(self, game: object) -> None:
        _game(game).release()
