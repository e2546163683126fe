"""Resolvers are registered by the setup, per inquiry kind, the way listeners are: a variant
replaces one without editing another, and a rule's resolver is there only when it is on."""

from __future__ import annotations

import pytest

from engine.actions import ActionType, MultiPlayerInquiry
from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.events import AFTER, EventBus
from engine.game import new_game
from engine.game.claims import next_draw, pass_discard, resolve_claim
from engine.game.events import Call
from engine.game.game import Game
from engine.game.registry import Resolvers
from engine.game.setup import Setup, riichi_setup
from engine.rules.config import MLEAGUE, TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN, RuleConfig
from engine.rules.kinds import InquiryKind
from engine.rules.meld import MeldType


def _no_chii(game: Game, inquiry: MultiPlayerInquiry) -> None:
    """A claim resolver of a variant without chii: a chii answer lets the tile go by."""
    picks = inquiry.chosen()
    if picks and picks[0].action == ActionType.CHII:
        if pass_discard(game, []):
            next_draw(game)
    else:
        resolve_claim(game, inquiry)


def no_chii_setup(bus: EventBus, resolvers: Resolvers, rules: RuleConfig) -> None:
    riichi_setup(bus, resolvers, rules)
    resolvers.register(InquiryKind.CLAIM, _no_chii)


def _melds(setup: Setup | None, seed: int) -> tuple[Game, list[MeldType]]:
    game = new_game(TENHOU_HANCHAN, seed, RandomCenter(seed), setup=setup)
    called: list[MeldType] = []

    def record(ev: Call) -> None:
        assert ev.meld is not None
        called.append(ev.meld.type)

    game.bus.subscribe(Call, record, AFTER)
    run_sync(game)
    return game, called


def test_a_custom_setup_replaces_the_claim_resolver_and_the_game_plays_on() -> None:
    plain, plain_calls = _melds(None, 3)
    assert MeldType.CHII in plain_calls, "the default game with this seed calls chii"
    game, calls = _melds(no_chii_setup, 3)
    assert game.over and game.rounds
    assert MeldType.CHII not in calls
    assert MeldType.PON in calls  # the other claims still resolve as before
    assert (
        game.resolvers.by_kind[InquiryKind.CHANKAN] is plain.resolvers.by_kind[InquiryKind.CHANKAN]
    )


@pytest.mark.parametrize(
    ("rules", "kita", "declaration"),
    [(TENHOU_HANCHAN, False, False), (TENHOU_SANMA_HANCHAN, True, False), (MLEAGUE, False, True)],
)
def test_a_rules_resolvers_are_registered_only_when_its_rules_ask(
    rules: RuleConfig, kita: bool, declaration: bool
) -> None:
    resolvers = Resolvers()
    riichi_setup(EventBus(), resolvers, rules)
    assert (InquiryKind.KITA in resolvers.by_kind) is kita
    assert (ActionType.KITA in resolvers.turn) is kita
    assert (InquiryKind.DECLARATION in resolvers.by_kind) is declaration
    assert {InquiryKind.CLAIM, InquiryKind.CHANKAN, InquiryKind.NEXT_ROUND} <= set(
        resolvers.by_kind
    )


def test_a_turn_is_resolved_by_its_actions_handlers_not_by_kind() -> None:
    with pytest.raises(ValueError, match="on_turn"):
        Resolvers().register(InquiryKind.TURN, resolve_claim)
