"""``strong-2026-12`` is the strong bot of main at 91c6984, frozen: it plays its games.

The digests below were made by the live ``strong`` before it was tuned (main at 37d6a66,
whose engine/bot is 91c6984's): every answer of four-seat and sanma games, hashed. A baseline
that drifted (a changed copy, or one that reaches for the live bot's tuning) plays another
game and fails here.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from engine.actions.inquiry import SinglePlayerInquiry
from engine.bot import BOTS, make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.rules.config import TENHOU_HANCHAN, TENHOU_SANMA_TONPUU, RuleConfig

ROOT = Path(__file__).resolve().parents[2]
#: (rules, seed, seats): the bot under test in the named seats, easy in the others
GAMES: list[tuple[RuleConfig, int, tuple[str, ...]]] = [
    (TENHOU_HANCHAN, 11, ("x", "x", "x", "x")),
    (TENHOU_HANCHAN, 12, ("x", "easy", "x", "easy")),
    (TENHOU_HANCHAN, 13, ("easy", "x", "easy", "x")),
    (TENHOU_SANMA_TONPUU, 14, ("x", "x", "x")),
]
#: made with ``digest("strong")`` before engine/bot/strong.py changed (see the docstring)
GOLDEN = {
    11: "6d8f2be8f903d946a8869ad483715bfbf9e6437fb24da0ba243b775475fa0c8a",
    12: "954cfad7e7505107ac3c34f3d95545e42b8d9d289f5cea84c6fb7196ab974bc1",
    13: "b353da164ebfaefd7d12d91e504f4033a21c376f5883da77c090826d225301f4",
    14: "bc043a14c7ffa2bf72428a85100adfaa137b52acda09bb52989037b8e5f28e3b",
}


class _Recording(BotCenter):
    """Keeps every answer the bots give, in order."""

    def __init__(self, names: list[str]) -> None:
        super().__init__([make(n) for n in names])
        self.answers: list[tuple[int, int, int]] = []

    def answer(self, seat: int, single: SinglePlayerInquiry) -> tuple[int, int]:
        a, o = super().answer(seat, single)
        self.answers.append((seat, a, o))
        return a, o


def digest(name: str, rules: RuleConfig, seed: int, seats: tuple[str, ...]) -> str:
    """sha256 of one whole game's answers and final scores with ``name`` in the x seats."""
    center = _Recording([name if s == "x" else s for s in seats])
    game = new_game(rules, seed, center)
    center.game = game
    run_sync(game)
    assert len(center.answers) > 100  # a real game was played
    return hashlib.sha256(repr((center.answers, game.scores)).encode()).hexdigest()


def test_the_baseline_plays_the_games_todays_strong_played() -> None:
    got = {seed: digest("strong-2026-12", rules, seed, seats) for rules, seed, seats in GAMES}
    assert got == GOLDEN


def test_the_baseline_is_registered_under_its_name() -> None:
    assert "strong-2026-12" in BOTS
    assert type(make("strong-2026-12")).__module__ == "engine.bot.baseline_2026_12.strong"


def test_the_baseline_imports_no_live_bot_code() -> None:
    """Tuning strong, defence or easy must not move the baseline: it imports none of them."""
    banned = {"engine.bot.strong", "engine.bot.defence", "engine.bot.easy", "engine.bot"}
    for path in sorted((ROOT / "engine/bot/baseline_2026_12").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module not in banned, (path.name, node.module)
            if isinstance(node, ast.Import):
                assert not {a.name for a in node.names} & banned, path.name
