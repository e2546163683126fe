"""Fu (minipoints) of one interpretation of a winning hand, exactly as Tenhou counts them.

20 base; closed ron +10; tsumo +2 (not with pinfu); triplets 2/4/8/16 doubled for
terminals and honours (open/concealed/open kan/closed kan); a value pair +2 per reason, a
double-wind pair ``rules.double_wind_pair_fu``; kanchan/penchan/tanki +2; rounded up to 10.
Chiitoitsu is a flat 25, pinfu tsumo a flat 20, and an open hand that would be 20 fu on a ron
(the open pinfu shape) gets ``rules.open_pinfu_ron_fu``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.config import RuleConfig
from engine.rules.meld import Meld, MeldType
from engine.rules.yaku.features import CHIITOITSU, KANCHAN, PENCHAN, TANKI, HandInfo

_YAOCHUU = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
#: fu of a closed triplet by kind (an open one is worth half)
ANKOU_FU = tuple(8 if y else 4 for y in _YAOCHUU)


def meld_fu(melds: Sequence[Meld]) -> int:
    """Fu of the called and declared groups, which no interpretation changes."""
    total = 0
    for m in melds:
        t = m.type
        if t == MeldType.CHII or t == MeldType.KITA:
            continue
        fu = ANKOU_FU[m.tiles[0] >> 2]
        if t == MeldType.PON:
            total += fu // 2
        elif t == MeldType.ANKAN:
            total += fu * 4
        else:
            total += fu * 2
    return total


def pair_fu(pair: int, h: HandInfo, rules: RuleConfig) -> int:
    """A dragon pair or a seat/round wind pair; both winds at once per the rule."""
    if pair < 27:
        return 0
    if pair >= 31:
        return 2
    seat, rnd = pair == h.seat_wind, pair == h.round_wind
    if seat and rnd:
        return rules.double_wind_pair_fu
    return 2 if seat or rnd else 0


def hand_fu(
    h: HandInfo,
    form: int,
    pair: int,
    closed_koutsu: Sequence[int],
    ron_koutsu: int,
    wait: int,
    melds_fu: int,
    pinfu: bool,
) -> int:
    """Fu of one interpretation. ``ron_koutsu`` is the triplet a ron completed (counted as
    open), or -1; ``closed_koutsu`` excludes it."""
    if form == CHIITOITSU:
        return 25
    if pinfu:
        return 20 if h.tsumo else 30
    fu = 20 + melds_fu + pair_fu(pair, h, h.rules)
    for k in closed_koutsu:
        fu += ANKOU_FU[k]
    if ron_koutsu >= 0:
        fu += ANKOU_FU[ron_koutsu] // 2
    if wait in (KANCHAN, PENCHAN, TANKI):
        fu += 2
    if h.tsumo:
        fu += 2
    elif h.menzen:
        fu += 10
    if fu == 20 and not h.menzen:
        return h.rules.open_pinfu_ron_fu
    return (fu + 9) // 10 * 10
