"""Three- and six-han yaku: ryanpeikou, junchan, and the flushes."""

from __future__ import annotations

from engine.rules.yaku.features import STANDARD, HandInfo, Shape
from engine.rules.yaku.han1 import peikou
from engine.rules.yaku.han2 import outside
from engine.rules.yaku.unit import yaku


@yaku("ryanpeikou", "二盃口", 3, shape=True, seqs=range(4, 5))
def ryanpeikou(h: HandInfo, s: Shape) -> bool:
    """Two iipeikou; it replaces iipeikou and beats chiitoitsu on the same tiles."""
    return h.menzen and s.form == STANDARD and peikou(s) == 2


@yaku("junchan", "純全帯幺九", 3, 2, shape=True, seqs=range(1, 5))
def junchan(h: HandInfo, s: Shape) -> bool:
    """Outside hand without honours, with at least one sequence (else chinroutou)."""
    return not h.honours and bool(s.shuntsu) and outside(s)


@yaku("honitsu", "混一色", 3, 2, gate="one_suit")
def honitsu(h: HandInfo, s: Shape) -> bool:
    return h.honours and h.suits == 1


@yaku("chinitsu", "清一色", 6, 5, gate="one_suit")
def chinitsu(h: HandInfo, s: Shape) -> bool:
    return not h.honours and h.suits == 1


HAN3 = (ryanpeikou, junchan, honitsu, chinitsu)
