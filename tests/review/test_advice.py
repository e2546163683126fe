"""Advice before a decision equals the review of it after: one model of a choice's worth.

A game is played by bots; before seat 0 answers each decision, ``advise`` is asked from the
seat's own view as the server asks it at a practice table; the review of the finished game
must then list, for every decision, the very choices and values the advice gave, in order.
"""

from __future__ import annotations

import time

import pytest

from engine.actions.inquiry import MultiPlayerInquiry
from engine.bot import make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.review import StrongReviewer, review_record
from engine.review.advice import Advice, advise, moment_now
from engine.review.center import has_choice
from engine.review.moment import Moment
from engine.rules.config import PRESETS
from tests.review.games import record


class AdvisedCenter(BotCenter):
    """Bots play every seat; seat ``seat``'s decisions are advised first (by engine id)."""

    def __init__(self, bots: list[str], seat: int) -> None:
        super().__init__([make(b) for b in bots])
        self.seat = seat
        self.reviewer = StrongReviewer()
        self.advice: dict[int, list[Advice]] = {}
        self.seconds: list[float] = []

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        single = inquiry.players.get(self.seat)
        if single is not None and has_choice(single) and self.game is not None:
            start = time.perf_counter()
            moment = moment_now(self.game, self.seat, single, inquiry.kind)
            self.advice[inquiry.id] = advise(self.reviewer, moment)
            self.seconds.append(time.perf_counter() - start)
        super().on_inquiry(inquiry)


@pytest.mark.parametrize(
    ("preset", "bots"),
    [
        ("tenhou-hanchan", ["easy", "strong", "easy", "strong"]),
        ("tenhou-sanma-hanchan", ["easy", "strong", "strong"]),
    ],
)
def test_advice_is_the_review(preset: str, bots: list[str]) -> None:
    center = AdvisedCenter(bots, seat=0)
    game = new_game(PRESETS[preset], 11, center)
    center.game = game
    run_sync(game)
    review = review_record(record(game), 0, StrongReviewer())
    entries = [e for k in review.kyokus for e in k.entries]
    assert len(entries) > 50
    for entry in entries:
        assert center.advice[entry.inquiry] == entry.advice
        assert entry.advice[0].value == entry.details[0].q_value
    # the best advice is what the played (easy) bot was graded against
    assert any(not e.is_equal for e in entries)


def test_advice_covers_every_choice() -> None:
    center = AdvisedCenter(["strong"] * 4, seat=1)
    game = new_game(PRESETS["tenhou-tonpuu"], 5, center)
    center.game = game
    run_sync(game)
    assert center.advice
    for advice in center.advice.values():
        values = [a.value for a in advice]
        assert values == sorted(values, reverse=True)
        assert len({(a.action, a.option) for a in advice}) == len(advice)


class LateCenter(BotCenter):
    """Takes seat 0's moments as the server does, and ranks none of them while the game runs
    (seat 0 is played by the easy bot, which reads no option's tenpai preview, as a human's
    seat reads none: its inquiry goes out through ``tenpai_at``)."""

    def __init__(self) -> None:
        super().__init__([make("easy"), make("strong"), make("strong"), make("strong")])
        self.moments: dict[int, Moment] = {}

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        single = inquiry.players.get(0)
        if single is not None and has_choice(single) and self.game is not None:
            self.moments[inquiry.id] = moment_now(self.game, 0, single, inquiry.kind)
        super().on_inquiry(inquiry)


def test_a_moment_ranked_after_the_game_moved_on_is_ranked_as_at_its_question() -> None:
    """The server ranks a moment in a worker thread while the table may go on: nothing it
    reads may come from the live game (the discards' tenpai previews are lazy)."""
    center = LateCenter()
    game = new_game(PRESETS["tenhou-hanchan"], 4, center)
    center.game = game
    run_sync(game)
    review = review_record(record(game), 0, StrongReviewer())
    entries = [e for k in review.kyokus for e in k.entries]
    assert len(entries) == len(center.moments) > 50
    reviewer = StrongReviewer()
    for entry in entries:
        assert advise(reviewer, center.moments[entry.inquiry]) == entry.advice
