"""Every win of the real Tenhou corpus (``tests.corpus``: four-player, single rounds and sanma)
scored by the fast path (``score_hand``) and by the readable specification (``spec_score``):
the two must agree on every one, and with the result the engine booked (which
test_check_corpus checks against the log's own han, fu, yaku and deltas). The random and
hand-written hands of tests/rules are the other half of that check (test_spec_vs_fast.py,
``winning.win``).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions.inquiry import MultiPlayerInquiry
from engine.events import EventBase
from engine.game.events import Agari
from engine.replay.check import read_path, replay_round
from engine.replay.scripted import LogCenter
from engine.rules.config import RuleConfig
from engine.rules.scoring import score_hand
from engine.rules.scoring.spec import spec_score
from tests.corpus import files
from tests.rules.winning import comparable


class _Wins:
    """An action center around the log's that keeps every win with the context it was scored
    in, rebuilt as ``endings.score_agari`` builds it (the game has not moved on yet when the
    Agari event reaches the centers)."""

    wants_events = True

    def __init__(self, inner: LogCenter) -> None:
        self.inner = inner
        self.found: list[tuple[list[int], Any, Any, Any]] = []

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if seat is not None or not isinstance(event, Agari):
            return
        game = self.inner.game
        assert game is not None
        remaining = game.round.wall.remaining
        for win in event.wins:
            p = game.players[win.seat]
            tsumo = win.seat == event.from_seat
            ctx = game.context(
                win.seat,
                event.tile,
                tsumo,
                rinshan=tsumo and p.rinshan,
                haitei=tsumo and game.haitei(win.seat),
                houtei=not tsumo and not event.chankan and remaining == 0,
                chankan=event.chankan,
            )
            self.found.append((list(win.hand), list(win.melds), ctx, win.result))

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.inner.on_inquiry(inquiry)


def _disagreements(folder: str) -> tuple[int, list[str]]:
    wins = 0
    bad: list[str] = []
    for path in files(folder):
        record = read_path(path)
        rules: RuleConfig = record.rules
        for rnd in record.rounds:
            center = LogCenter(rnd, rules.red)
            spy = _Wins(center)
            replay_round(rnd, rules, center, spy)
            for hand, melds, ctx, booked in spy.found:
                wins += 1
                fast = score_hand(hand, melds, ctx, rules)
                spec = spec_score(hand, melds, ctx, rules)
                if not comparable(fast) == comparable(spec) == comparable(booked):
                    bad.append(f"{path.name} {rnd.label}: fast {fast}\n  spec {spec}")
    return wins, bad


#: the folders and the wins each holds at least (so agreeing is not agreeing on nothing)
FOLDERS = {"tenhou": 6000, "tenhou-rounds": 10, "tenhou-sanma": 1500}


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_corpus_win_scores_alike_fast_and_by_the_spec(folder: str) -> None:
    wins, bad = _disagreements(folder)
    assert not bad, f"{len(bad)} of {wins} wins differ, e.g.\n" + "\n".join(bad[:3])
    assert wins >= FOLDERS[folder], f"only {wins} wins in {folder}"
