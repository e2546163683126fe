"""Setups: the one place listeners, offers and resolvers are registered (offers and
resolvers on the game's engine.game.registry.Resolvers, by inquiry kind). A custom setup
may add or replace any.

``base_setup`` plays hands; ``riichi_setup`` adds the riichi stick and its abortive draw.
``setup_for(rules)`` picks a RuleConfig's setup and ``new_game`` hands it to a Game: Game
imports no setup (this module imports Game, and the listeners it registers). The broadcast
listener is where an event is projected for each seat (engine.view, which reads a Game but
never imports engine.game at run time).

The listener modules are imported by module path, not through the engine.game package: the
package re-exports ``new_game`` from here.
"""

from __future__ import annotations

from collections.abc import Callable

import engine.game.claims as claims
import engine.game.endings as endings
import engine.game.match as match
import engine.game.melds as melds
import engine.game.offers as offers
import engine.game.turn as turn
from engine.actions import ActionCenter, ActionType
from engine.events import AFTER, BROADCAST, EXECUTE, EventBus, after_broadcast
from engine.game.asking import present, resolve
from engine.game.events import (
    Agari,
    BeginGame,
    Call,
    Discard,
    Draw,
    EndRound,
    GameEnded,
    GameEvent,
    Kan,
    Kita,
    NextRound,
    RiichiAccepted,
    RoundStarted,
    Ryuukyoku,
    WaitPlayerAction,
)
from engine.game.game import Game
from engine.game.registry import Resolvers
from engine.game.results import RoundStart
from engine.rules.config import RuleConfig
from engine.rules.kinds import InquiryKind
from engine.rules.wall import Wall
from engine.view import projections

_TURN = InquiryKind.TURN

#: a setup registers the listeners of a game on its bus and the resolvers of its inquiries,
#: as its rules ask
Setup = Callable[[EventBus, Resolvers, RuleConfig], None]


def broadcast(ev: GameEvent) -> None:
    """Deliver ``ev`` to every seat as that seat may see it, and the god view."""
    if not type(ev).__broadcast__:
        return
    game: Game = ev.game
    center = game.center
    if not center.wants_events:
        return
    seen = projections(ev, game.n)
    views = getattr(center, "on_views", None)
    if views is not None:  # one call for every view (engine.actions.center.ViewsCenter)
        views(ev, seen)
        return
    for seat, view in enumerate(seen):
        center.on_event(seat, view)
    center.on_event(None, ev)


def base_setup(bus: EventBus, resolvers: Resolvers, rules: RuleConfig) -> None:
    """The hand and match flow without the riichi stick's own listeners; kita only in
    sanma, the tenpai declaration only when the rules have it."""
    bus.subscribe(GameEvent, broadcast, BROADCAST)
    bus.subscribe(WaitPlayerAction, present, EXECUTE)
    bus.subscribe(WaitPlayerAction, resolve, AFTER)
    bus.subscribe(BeginGame, match.begin_game, AFTER)
    bus.subscribe(RoundStarted, turn.setup_round, EXECUTE)
    bus.subscribe(RoundStarted, turn.deal_out, AFTER)
    bus.subscribe(Draw, turn.draw_tile, EXECUTE)
    bus.subscribe(Draw, turn.offer_turn, AFTER)
    bus.subscribe(Discard, turn.discard_tile, EXECUTE)
    bus.subscribe(Discard, claims.open_claims, AFTER)
    bus.subscribe(Call, melds.call_meld, EXECUTE)
    bus.subscribe(Call, melds.after_call, AFTER)
    bus.subscribe(Kan, melds.declare_kan, EXECUTE)
    bus.subscribe(Kan, melds.offer_chankan, AFTER)
    bus.subscribe(Kita, melds.declare_kita, EXECUTE)
    bus.subscribe(Kita, melds.offer_kita_ron, AFTER)
    bus.subscribe(Agari, endings.score_agari, EXECUTE)
    bus.subscribe(Agari, endings.end_hand, AFTER)
    bus.subscribe(Ryuukyoku, endings.settle_ryuukyoku, EXECUTE)
    bus.subscribe(Ryuukyoku, endings.end_hand, AFTER)
    bus.subscribe(EndRound, match.advance, EXECUTE)
    bus.subscribe(NextRound, match.next_round, EXECUTE)
    bus.subscribe(GameEnded, match.final_scores, EXECUTE)
    bus.subscribe(GameEnded, match.stop, after_broadcast())
    resolvers.on_turn(ActionType.DISCARD, turn.on_discard)
    resolvers.on_turn(ActionType.RIICHI, turn.on_riichi)
    resolvers.on_turn(ActionType.TSUMO, turn.on_tsumo)
    resolvers.on_turn(ActionType.ANKAN, turn.on_ankan)
    resolvers.on_turn(ActionType.KAKAN, turn.on_kakan)
    resolvers.on_turn(ActionType.KYUUSHU, turn.on_kyuushu)
    resolvers.offer(InquiryKind.TURN, offers.turn_inquiry)
    resolvers.offer(InquiryKind.CLAIM, offers.claim_inquiry)
    resolvers.offer(InquiryKind.CHANKAN, offers.chankan_inquiry)
    resolvers.offer(InquiryKind.NEXT_ROUND, offers.next_round_inquiry)
    resolvers.register(InquiryKind.CLAIM, claims.resolve_claim)
    resolvers.register(InquiryKind.CHANKAN, melds.resolve_chankan)
    resolvers.register(InquiryKind.NEXT_ROUND, match.resolve_next_round)
    if rules.sanma:
        resolvers.on_turn(ActionType.KITA, turn.on_kita)
        resolvers.offer(InquiryKind.KITA, offers.kita_inquiry)
        resolvers.register(InquiryKind.KITA, melds.resolve_kita)
    if rules.tenpai_declaration:
        resolvers.offer(InquiryKind.DECLARATION, offers.declaration_inquiry)
        resolvers.register(InquiryKind.DECLARATION, endings.resolve_declaration)


def riichi_setup(bus: EventBus, resolvers: Resolvers, rules: RuleConfig) -> None:
    """The default game: the base flow plus the riichi stick and suucha riichi."""
    base_setup(bus, resolvers, rules)
    bus.subscribe(RiichiAccepted, turn.accept_riichi, EXECUTE)
    bus.subscribe(RiichiAccepted, turn.check_suucha_riichi, AFTER)


def setup_for(rules: RuleConfig) -> Setup:
    """The setup a RuleConfig plays: every rule set has the riichi stick (its options, such
    as ``suucha_riichi``, are read by the listeners themselves)."""
    return riichi_setup


def without_broadcast(setup: Setup) -> Setup:
    """``setup`` minus its broadcast listeners: a center that never wants events costs no
    broadcast listener at all."""

    def quiet(bus: EventBus, resolvers: Resolvers, rules: RuleConfig) -> None:
        setup(bus, resolvers, rules)
        for listener in bus.all():
            if listener.handler is broadcast:
                bus.unsubscribe(listener)

    return quiet


def new_game(
    rules: RuleConfig,
    seed: int | str | bytes,
    center: ActionCenter,
    *,
    start: RoundStart | None = None,
    walls: Callable[[int], Wall] | None = None,
    max_rounds: int | None = None,
    setup: Setup | None = None,
) -> Game:
    """A Game of ``rules`` with its setup (``setup_for(rules)`` unless one is given)."""
    chosen = setup or setup_for(rules)
    if not center.wants_events:
        chosen = without_broadcast(chosen)
    return Game(rules, seed, center, setup=chosen, start=start, walls=walls, max_rounds=max_rounds)
