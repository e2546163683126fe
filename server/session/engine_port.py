"""The real engine behind a table: make a Game, run it under anyio, read a seat's hand."""

from __future__ import annotations

from typing import Any

import anyio

from engine import view
from engine.actions.inquiry import MultiPlayerInquiry
from engine.game.game import Game
from engine.rules.config import RuleConfig


class RealEngine:
    """``EnginePort`` over engine.game and engine.driver."""

    def new_game(self, rules: RuleConfig, seed: int, center: Any) -> Game:
        return Game(rules, seed, center)

    async def run(self, game: Any) -> None:
        try:
            from engine.driver import run_async
        except ImportError:  # until the driver lands: the same loop, inline
            await _run_inline(game)
            return
        await run_async(game)

    def hand(self, game: Any, seat: int) -> list[int]:
        return list(game.players[seat].hand)

    def snapshot(self, game: Any, seat: int) -> Any:
        return view.snapshot(game, seat)


async def _finished(inquiry: MultiPlayerInquiry) -> None:
    done = anyio.Event()
    inquiry.add_done_callback(lambda _: done.set())
    await done.wait()


async def _run_inline(game: Game) -> None:
    """Drive ``game.run()``: each yielded inquiry is awaited until it is done."""
    coro = game.run()
    try:
        inquiry: MultiPlayerInquiry = coro.send(None)
        while True:
            if not inquiry.done:
                await _finished(inquiry)
            inquiry = coro.send(None)
    except StopIteration:
        return
