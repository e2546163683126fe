"""Three- and six-han yaku: ryanpeikou, junchan, and the flushes."""

from __future__ import annotations

from engine.rules.yaku.features import STANDARD, HandInfo, Shape
from engine.rules.yaku.han1 import peikou
from engine.rules.yaku.han2 import outside
from engine.rules.yaku.unit import yaku


@yaku("ryanpeikou", "二盃口", 3)
def ryanpeikou(h: HandInfo, s: Shape) -> bool:
    """Two iipeikou; it replaces iipeikou and beats chiitoitsu on the same tiles."""
    return h.menzen and s.form == STANDARD and peikou(s) == 2


@yaku("junchan", "純全帯幺九", 3, 2)
def junchan(h: HandInfo, s: Shape) -> bool:
    """Outside hand without honours, with at least one sequence (else chinroutou)."""
    return bool(s.shuntsu) and h.kinds[-1] < 27 and outside(s)


def _one_suit(kinds: tuple[int, ...]) -> bool:
    """Whether all suited kinds (there must be some) share one suit."""
    first = kinds[0]
    if first >= 27:
        return False
    suited_last = max(k for k in kinds if k < 27)
    return first // 9 == suited_last // 9


@yaku("honitsu", "混一色", 3, 2)
def honitsu(h: HandInfo, s: Shape) -> bool:
    return h.kinds[-1] >= 27 and _one_suit(h.kinds)


@yaku("chinitsu", "清一色", 6, 5)
def chinitsu(h: HandInfo, s: Shape) -> bool:
    return h.kinds[-1] < 27 and _one_suit(h.kinds)


HAN3 = (ryanpeikou, junchan, honitsu, chinitsu)
