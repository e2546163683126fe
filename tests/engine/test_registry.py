"""Offers and resolvers are registered by the setup, per inquiry kind, the way listeners are:
a variant replaces one without editing another or the flow, and a rule's offer and resolver
are there only when it is on."""

from __future__ import annotations

import pytest

import engine.game.offers as offers
from engine.actions import ActionType, MultiPlayerInquiry
from engine.centers import RandomCenter, ScriptedCenter
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
from tests.engine.table import events, make_wall

QUIET = ["888m111p222s44z66z", "1357m1357p1357s3z"]


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
    assert (resolvers.offers.kita is not None) is kita
    assert (resolvers.offers.declaration is not None) is declaration
    assert {InquiryKind.CLAIM, InquiryKind.CHANKAN, InquiryKind.NEXT_ROUND} <= set(
        resolvers.by_kind
    )


def test_a_turn_is_resolved_by_its_actions_handlers_not_by_kind() -> None:
    with pytest.raises(ValueError, match="on_turn"):
        Resolvers().register(InquiryKind.TURN, resolve_claim)


# ---------------------------------------------------------------- offers


def _no_chii_claims(game: Game, discarder: int, tile: int) -> MultiPlayerInquiry | None:
    """A variant's claim offer: the standard claims without chii."""
    standard = offers.claim_inquiry(game, discarder, tile)
    if standard is None:
        return None
    inquiry = MultiPlayerInquiry(standard.id, standard.kind)
    for seat, single in standard.players.items():
        for action in single.actions:
            if action.type not in (ActionType.SKIP, ActionType.CHII):
                inquiry.add(seat, action)
    return inquiry if inquiry.players else None


def no_chii_offer_setup(bus: EventBus, resolvers: Resolvers, rules: RuleConfig) -> None:
    riichi_setup(bus, resolvers, rules)
    resolvers.offer(InquiryKind.CLAIM, _no_chii_claims)


def _no_riichi_turns(game: Game, seat: int, after_call: bool) -> MultiPlayerInquiry:
    """A variant's turn offer: the standard turn without riichi."""
    inquiry = offers.turn_inquiry(game, seat, after_call)
    single = inquiry.players[seat]
    if (i := single.find(ActionType.RIICHI)) >= 0:
        del single.actions[i]  # the time-out default follows: it is found when asked
    return inquiry


def no_riichi_setup(bus: EventBus, resolvers: Resolvers, rules: RuleConfig) -> None:
    riichi_setup(bus, resolvers, rules)
    resolvers.offer(InquiryKind.TURN, _no_riichi_turns)


class Spy(RandomCenter):
    """Random answers, remembering every action type each kind of inquiry offered."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.offered: dict[str, set[ActionType]] = {}

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        seen = self.offered.setdefault(inquiry.kind, set())
        for single in inquiry.players.values():
            seen.update(a.type for a in single.actions)
        super().on_inquiry(inquiry)


def _offered(setup: Setup | None, seed: int) -> tuple[Game, Spy]:
    center = Spy(seed)
    game = new_game(TENHOU_HANCHAN, seed, center, setup=setup)
    run_sync(game)
    return game, center


def test_a_replaced_claim_offer_is_the_one_the_game_asks() -> None:
    _, plain = _offered(None, 3)
    assert ActionType.CHII in plain.offered["claim"], "the default game offers chii"
    game, center = _offered(no_chii_offer_setup, 3)
    assert game.over and game.rounds
    assert ActionType.CHII not in center.offered["claim"]
    assert ActionType.PON in center.offered["claim"]  # the rest of the claims stay


def _riichi_declared(setup: Setup | None) -> int:
    """The tenpai dealer is scripted to riichi on its first discard."""
    wall = make_wall(["777m444p777s22z33z", *QUIET, "2468m2468p2468s4z"], draws="1z")
    center = ScriptedCenter([(0, ActionType.RIICHI, "1z")])
    game = new_game(TENHOU_HANCHAN, 0, center, walls=lambda i: wall, max_rounds=1, setup=setup)
    run_sync(game)
    assert game.rounds
    return len(events(center, "RiichiAccepted"))


def test_a_replaced_turn_offer_is_the_one_the_game_asks() -> None:
    assert _riichi_declared(None) == 1
    assert _riichi_declared(no_riichi_setup) == 0


def test_an_offer_nobody_registered_is_an_error_not_a_silent_skip() -> None:
    with pytest.raises(LookupError, match="no offer builder"):
        Resolvers().offers.turn(new_game(TENHOU_HANCHAN, 0, RandomCenter(0)), 0, False)
