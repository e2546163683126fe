"""Fu (minipoints) of one reading of a winning hand, exactly as Tenhou counts them.

20 base; closed ron +10; tsumo +2 (not with pinfu); triplets 2/4/8/16 doubled for
terminals and honours (open/concealed/open kan/closed kan); a value pair +2 per reason, a
double-wind pair ``rules.double_wind_pair_fu``; kanchan/penchan/tanki +2; rounded up to 10.
Chiitoitsu is a flat 25, pinfu tsumo a flat 20, and an open hand that would be 20 fu on a ron
(the open pinfu shape) gets ``rules.open_pinfu_ron_fu``.

The triplet fu of every part reading and meld is precomputed (``tables``: field ``F_FU``),
so what is left per reading is the pair and the way the hand was won (here), and per wait
(inline in scoring's reading loop, which runs per wait) the +2 of a closed wait, pinfu's
flat fu, the open-pinfu rule and the rounding.
"""

from __future__ import annotations

from typing import Final

from engine.rules.scoring.tables import ANKOU_FU

__all__ = ["ANKOU_FU", "PAIR_VALUE", "ROUND_UP", "WON_FU", "pair_fu"]


def pair_fu(pair: int, seat: int, rnd: int, double_wind: int) -> int:
    """A dragon pair or a seat/round wind pair; both winds at once are ``double_wind`` fu
    (``RuleConfig.double_wind_pair_fu``)."""
    if pair < 27:
        return 0
    if pair >= 31:
        return 2
    if pair == seat:
        return double_wind if pair == rnd else 2
    return 2 if pair == rnd else 0


#: [tsumo][menzen] -> 20 base, and +2 for a tsumo or +10 for a closed ron
WON_FU: Final[tuple[tuple[int, ...], ...]] = ((20, 30), (22, 22))  # any length: see score.py


def _pair_value(pair: int, seat: int, rnd: int, double_wind: int) -> int:
    """``pair_fu`` doubled, plus 1 when the pair is a yakuhai kind (no pinfu with it)."""
    return 2 * pair_fu(pair, seat, rnd, double_wind) + (pair >= 31 or pair in (seat, rnd))


#: [double_wind_pair_fu][4 * seat + round wind, 0 = East][pair kind + 1] -> ``_pair_value``:
#: a reading's pair fu is ``>> 1`` of it, and pinfu needs it 0
PAIR_VALUE: Final = tuple(
    tuple(
        tuple(_pair_value(p - 1, 27 + w // 4, 27 + w % 4, dw) for p in range(35)) for w in range(16)
    )
    for dw in range(9)
)
#: [fu] -> rounded up to 10
ROUND_UP: Final = tuple((fu + 9) // 10 * 10 for fu in range(200))
