"""The match around the hands: dealer rotation, honba, the end conditions, final scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import MultiPlayerInquiry
from engine.events import Terminate
from engine.game.events import BeginGame, EndRound, GameEnded, NextRound, RoundStarted
from engine.rules.kinds import HandEnd
from engine.rules.scoring.points import placement_points

if TYPE_CHECKING:
    from engine.game.game import Game


def begin_game(ev: BeginGame) -> None:
    ev.game.queue.queue(RoundStarted())


def advance(ev: EndRound) -> None:
    """Renchan keeps the dealer; any draw or a dealer win adds a honba (Tenhou)."""
    game: Game = ev.game
    finished = game.kyoku
    game.round_index += 1
    if game.round.renchan or game.round.end != HandEnd.AGARI:
        game.honba += 1
    else:
        game.honba = 0
    if not game.round.renchan:
        game.kyoku += 1
    reason = match_end(game, finished)
    if reason is not None:
        game.queue.queue(GameEnded(reason=reason))
    elif game.max_rounds is not None and len(game.rounds) >= game.max_rounds:
        game.queue.queue(Terminate())
    else:
        game.ask(game.resolvers.offers.next_round(game))


#: why a match ends, as GameEnded.reason says it
BUST, LAST, EXTENSION = "bust", "last", "extension"
END_REASONS = (BUST, LAST, EXTENSION)


def match_end(game: Game, finished: int) -> str | None:
    """Why the match ends after hand ``finished``, or None when it goes on: a bust, the last
    hand of the last wind (with agari-yame), or the extension's end."""
    rules = game.rules
    scores = game.scores
    if rules.tobi and min(scores) < 0:
        return BUST
    last = rules.winds * game.n - 1
    if finished < last:
        return None
    extra = EXTENSION if finished > last else LAST
    if game.round.renchan:
        dealer = game.dealer
        stop = (rules.agariyame and game.round.end == HandEnd.AGARI) or (
            rules.tenpaiyame and game.round.end in (HandEnd.EXHAUSTIVE, HandEnd.NAGASHI)
        )
        first = game.ranks()[dealer] == 1 and scores[dealer] >= rules.target_points
        return extra if stop and first else None
    if not rules.extension or max(scores) >= rules.target_points:
        return extra
    return extra if finished >= (rules.winds + 1) * game.n - 1 else None


def resolve_next_round(game: Game, inquiry: MultiPlayerInquiry) -> None:
    game.queue.queue(NextRound())


def next_round(ev: NextRound) -> None:
    ev.game.queue.queue(RoundStarted())


def final_scores(ev: GameEnded) -> None:
    """Leftover sticks to the top (Tenhou), then ranks and uma/oka in thousands."""
    game: Game = ev.game
    rules = game.rules
    ranks = game.ranks()
    if rules.leftover_sticks_to_top and game.kyotaku:
        game.players[ranks.index(1)].score += game.kyotaku * 1000
        game.kyotaku = 0
    points = placement_points(game.scores, rules)
    ev.scores, ev.ranks, ev.points = game.scores, tuple(ranks), points
    game.over = True


def stop(ev: GameEnded) -> None:
    ev.game.queue.queue(Terminate())
