"""GameEnded says why the match ended, and the reason agrees with the scores and the hands
played: a bust exactly when a score ended below zero, the extension exactly when a hand past
the last scheduled one was played (the client's standings print it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.events import AFTER, late
from engine.game import new_game
from engine.game.events import GameEnded, RoundStarted
from engine.game.match import BUST, END_REASONS, EXTENSION, LAST
from engine.rules.config import PRESETS


def _recorder(kyoku: list[int]) -> Callable[[RoundStarted], None]:
    """A listener that notes each hand's kyoku as it starts."""

    def started(event: RoundStarted) -> None:
        kyoku.append(event.game.kyoku)

    return started


@pytest.mark.parametrize("preset", ["tenhou-tonpuu", "tenhou-sanma-tonpuu", "mleague"])
def test_the_reason_follows_from_the_scores_and_the_hands(preset: str) -> None:
    rules = PRESETS[preset]
    seen: dict[str, int] = {}
    for seed in range(40):
        game = new_game(rules, seed, RandomCenter(seed))
        kyoku: list[int] = []
        ended: list[GameEnded] = []
        game.bus.subscribe(RoundStarted, _recorder(kyoku), late(AFTER))
        game.bus.subscribe(GameEnded, ended.append, late(AFTER))
        run_sync(game)
        (end,) = ended
        assert end.reason in END_REASONS
        bust = rules.tobi and min(end.scores) < 0
        assert (end.reason == BUST) == bust, (seed, end)
        past = max(kyoku) > rules.winds * game.n - 1
        if not bust:
            assert end.reason == (EXTENSION if past else LAST), (seed, end, kyoku)
        seen[end.reason] = seen.get(end.reason, 0) + 1
    assert sum(seen.values()) == 40, seen
