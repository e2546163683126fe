"""The easy bot: tile efficiency and nothing else (the server's original stand-in).

It plays by shanten and ukeire alone (xiangting, which the rules core's ``hand.shanten``
wraps): win whenever offered, riichi when tenpai and allowed, pon dragons and the given
yakuhai winds, skip every other call, and discard the tile that leaves the lowest shanten
with the most tiles that improve it. It never folds. It is pure: the same actions and hand
give the same choice, so games with bots stay reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import xiangting

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import Action, ActionType
from engine.bot.view import SeatView
from engine.rules.tiles import DEFAULT_RED, DRAGONS, NUM_KINDS, YAOCHUU

_FOUR = xiangting.PlayerCount.FOUR


def shanten_and_ukeire(counts: list[int], seen: Sequence[int]) -> tuple[int, int]:
    """Shanten of a 3n+1 concealed part and how many unseen tiles lower it (ukeire).

    xiangting, which ``hand.shanten`` wraps, returns the shanten and the set of improving
    kinds in one call: fourteen calls per decision instead of hundreds.
    """
    replacement, necessary = xiangting.calculate_necessary_tiles(counts, _FOUR)
    total = 0
    while necessary:
        low = necessary & -necessary
        total += max(0, 4 - seen[low.bit_length() - 1])
        necessary ^= low
    return int(replacement) - 1, total


def best_discard(
    tiles: Iterable[int],
    allowed: Iterable[int] | None = None,
    red: frozenset[int] = DEFAULT_RED,
) -> int:
    """The physical tile to discard from ``tiles`` (a 3n+2 concealed hand).

    Lowest shanten first, then most ukeire, then terminals and honours before simples, then a
    plain five before a red one. ``allowed`` restricts the choice (riichi discards, kuikae).
    """
    hand = list(tiles)
    counts = [0] * NUM_KINDS
    for t in hand:
        counts[t >> 2] += 1
    seen = list(counts)
    candidates = sorted(set(hand if allowed is None else allowed))
    best: tuple[int, int, int, int, int] | None = None
    choice = candidates[0]
    memo: dict[int, tuple[int, int]] = {}
    for tile in candidates:
        k = tile >> 2
        if k not in memo:
            counts[k] -= 1
            memo[k] = shanten_and_ukeire(counts, seen)
            counts[k] += 1
        s, u = memo[k]
        key = (s, -u, 0 if k in YAOCHUU else 1, 1 if tile in red else 0, tile)
        if best is None or key < best:
            best, choice = key, tile
    return choice


def _index_of(actions: Sequence[Action], kind: ActionType) -> int:
    for i, action in enumerate(actions):
        if action.type == kind:
            return i
    return -1


def _option_for(action: Action, tile: int) -> int:
    for j, option in enumerate(action.options):
        if option.tiles and option.tiles[0] == tile:
            return j
    return 0


def choose_from(
    actions: Sequence[Action],
    hand: Sequence[int],
    yakuhai: Iterable[int] = DRAGONS,
    red: frozenset[int] = DEFAULT_RED,
) -> tuple[int, int]:
    """(action index, option index) for one seat's actions; ``hand`` is its concealed tiles."""
    for kind in (ActionType.TSUMO, ActionType.RON, ActionType.NEXT_ROUND, ActionType.TENPAI):
        i = _index_of(actions, kind)
        if i >= 0:
            return i, 0
    kita = _index_of(actions, ActionType.KITA)  # sanma: a North set aside is a dora and a free draw
    if kita >= 0:
        return kita, 0
    riichi = _index_of(actions, ActionType.RIICHI)
    if riichi >= 0:
        allowed = [o.tiles[0] for o in actions[riichi].options if o.tiles]
        if allowed:
            return riichi, _option_for(actions[riichi], best_discard(hand, allowed, red))
    pon = _index_of(actions, ActionType.PON)
    if pon >= 0:
        wanted = set(yakuhai)
        for j, option in enumerate(actions[pon].options):
            if option.tiles and option.tiles[0] >> 2 in wanted:
                return pon, j
    discard = _index_of(actions, ActionType.DISCARD)
    if discard >= 0:
        allowed = [o.tiles[0] for o in actions[discard].options if o.tiles]
        choice = best_discard(hand, allowed or None, red)
        return discard, _option_for(actions[discard], choice)
    skip = _index_of(actions, ActionType.SKIP)
    return (skip if skip >= 0 else 0), 0


class EasyBot:
    """``Bot`` over ``choose_from``: yakuhai are the dragons, the seat and the round wind."""

    name = "easy"

    def choose(self, inquiry: SinglePlayerInquiry, view: SeatView) -> tuple[int, int]:
        yakuhai = (*DRAGONS, view.seat_wind, view.round_wind)
        return choose_from(inquiry.actions, view.hand, yakuhai, view.rules.red)
