"""The tile-efficiency bot (engine/bot.py): wins, riichi, yakuhai pons, shanten and ukeire."""

from __future__ import annotations

import random

from engine import bot
from engine.actions.types import Action, ActionType, Option
from engine.rules import hand
from engine.rules.tiles import kinds_from_str, parse, to_counts, to_str


def _discard(hand: list[int]) -> Action:
    return Action(ActionType.DISCARD, [Option((t,)) for t in hand])


def test_it_cuts_the_isolated_honour_from_a_tenpai_shape() -> None:
    hand = parse("123m456p789s1122z") + parse("7z")
    assert to_str([bot.best_discard(hand)]) == "7z"


def _value(hand: list[int], tile: int) -> tuple[int, int]:
    """(shanten, -ukeire) after discarding ``tile``, computed here from scratch."""
    counts = to_counts(hand)
    counts[tile >> 2] -= 1
    shanten, ukeire = bot.shanten_and_ukeire(counts, to_counts(hand))
    return shanten, -ukeire


def test_its_discard_has_the_lowest_shanten_then_the_most_ukeire() -> None:
    rng = random.Random(5)
    for _ in range(300):
        hand = rng.sample(range(136), 14)
        chosen = bot.best_discard(hand)
        assert _value(hand, chosen) == min(_value(hand, t) for t in hand), to_str(hand)


def test_it_discards_a_plain_five_before_the_red_one() -> None:
    hand = parse("055m123p456s789s1z")[:13] + parse("9p")
    assert hand.count(16) == 1
    assert bot.best_discard(hand, allowed=[16, 17]) == 17


def test_it_takes_a_win_when_offered_over_a_discard() -> None:
    hand = parse("123m456p789s1122z2z")
    actions = [_discard(hand), Action(ActionType.TSUMO)]
    assert bot.choose(actions, hand) == (1, 0)
    claim = [Action(ActionType.SKIP), Action(ActionType.RON)]
    assert bot.choose(claim, hand[:13]) == (1, 0)


def test_it_declares_riichi_with_the_best_riichi_discard() -> None:
    hand = parse("123m456p789s11z34m9p")
    riichi = Action(ActionType.RIICHI, [Option((t,)) for t in parse("9p1z")[:1]])
    actions = [_discard(hand), riichi]
    assert bot.choose(actions, hand) == (1, 0)


def test_it_pons_dragons_and_skips_other_pons_and_chii() -> None:
    hand = parse("55z123m456p789s12s")
    dragon = [Action(ActionType.SKIP), Action(ActionType.PON, [Option(tuple(parse("55z")))])]
    assert bot.choose(dragon, hand) == (1, 0)
    plain = [Action(ActionType.SKIP), Action(ActionType.PON, [Option(tuple(parse("11m")))])]
    assert bot.choose(plain, hand) == (0, 0)
    chii = [Action(ActionType.SKIP), Action(ActionType.CHII, [Option(tuple(parse("12s")))])]
    assert bot.choose(chii, hand) == (0, 0)
    east = [Action(ActionType.SKIP), Action(ActionType.PON, [Option(tuple(parse("11z")))])]
    assert bot.choose(east, hand, yakuhai=kinds_from_str("1z")) == (1, 0)


def test_it_acknowledges_the_next_round() -> None:
    assert bot.choose([Action(ActionType.NEXT_ROUND)], []) == (0, 0)


def test_ukeire_agrees_with_brute_force_over_the_rules_core_shanten() -> None:
    rng = random.Random(9)
    for _ in range(200):
        counts = to_counts(rng.sample(range(136), 13))
        base = hand.shanten(counts)
        brute = 0
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                if hand.shanten(counts) < base:
                    brute += 4 - (counts[k] - 1)
                counts[k] -= 1
        assert bot.shanten_and_ukeire(counts, counts) == (base, brute)
