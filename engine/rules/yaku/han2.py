"""Two-han yaku (most lose one han when open): the shapes and the all-terminal hands."""

from __future__ import annotations

from engine.rules.tiles import CHUN, HAKU, HATSU
from engine.rules.yaku.features import CHIITOITSU, STANDARD, HandInfo, Shape
from engine.rules.yaku.unit import yaku

_YAOCHUU = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
#: a sequence starting here holds a terminal (123 or 789)
_TERMINAL_RUN = tuple(k < 27 and k % 9 in (0, 6) for k in range(34))


def outside(s: Shape) -> bool:
    """Every group and the pair hold a terminal or honour (chanta / junchan shape)."""
    return (
        s.form == STANDARD
        and _YAOCHUU[s.pair]
        and all(_TERMINAL_RUN[k] for k in s.shuntsu)
        and all(_YAOCHUU[k] for k in s.koutsu)
    )


@yaku("chiitoitsu", "七対子", 2, shape=True, form=CHIITOITSU, seqs=range(1))
def chiitoitsu(h: HandInfo, s: Shape) -> bool:
    return s.form == CHIITOITSU


@yaku("sanshoku_doujun", "三色同順", 2, 1, shape=True, seqs=range(3, 5))
def sanshoku_doujun(h: HandInfo, s: Shape) -> bool:
    seq = s.shuntsu
    if len(seq) >= 3:
        for k in seq:
            if k < 9 and k + 9 in seq and k + 18 in seq:
                return True
    return False


@yaku("ittsu", "一気通貫", 2, 1, shape=True, seqs=range(3, 5))
def ittsu(h: HandInfo, s: Shape) -> bool:
    seq = s.shuntsu
    if len(seq) >= 3:
        for k in seq:
            if k % 9 == 0 and k + 3 in seq and k + 6 in seq:
                return True
    return False


@yaku("chanta", "混全帯幺九", 2, 1, shape=True, seqs=range(1, 5))
def chanta(h: HandInfo, s: Shape) -> bool:
    """Outside hand with honours and at least one sequence (else honroutou)."""
    return h.honours and bool(s.shuntsu) and outside(s)


@yaku("toitoi", "対々和", 2, 2, shape=True, seqs=range(1))
def toitoi(h: HandInfo, s: Shape) -> bool:
    return s.form == STANDARD and not s.shuntsu


@yaku("sanankou", "三暗刻", 2, 2, shape=True, seqs=range(2))
def sanankou(h: HandInfo, s: Shape) -> bool:
    return s.ankou == 3


@yaku("sanshoku_doukou", "三色同刻", 2, 2, shape=True, seqs=range(2))
def sanshoku_doukou(h: HandInfo, s: Shape) -> bool:
    tri = s.koutsu
    if len(tri) >= 3:
        for k in tri:
            if k < 9 and k + 9 in tri and k + 18 in tri:
                return True
    return False


@yaku("sankantsu", "三槓子", 2, 2, gate="kans")
def sankantsu(h: HandInfo, s: Shape) -> bool:
    return h.kans == 3


@yaku("shousangen", "小三元", 2, 2, gate="honour_sets")
def shousangen(h: HandInfo, s: Shape) -> bool:
    """Two dragon triplets and a dragon pair: 3 + 3 + 2 dragons (no other form holds that)."""
    c = h.counts
    return c[HAKU] + c[HATSU] + c[CHUN] == 8


@yaku("honroutou", "混老頭", 2, 2, gate="all_yaochuu")
def honroutou(h: HandInfo, s: Shape) -> bool:
    """Terminals and honours only, both present (else chinroutou or tsuuiisou)."""
    return h.all_yaochuu and h.honours and h.kinds[0] < 27


HAN2 = (
    chiitoitsu,
    sanshoku_doujun,
    ittsu,
    chanta,
    toitoi,
    sanankou,
    sanshoku_doukou,
    sankantsu,
    shousangen,
    honroutou,
)
