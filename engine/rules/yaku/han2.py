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


@yaku("chiitoitsu", "七対子", 2)
def chiitoitsu(h: HandInfo, s: Shape) -> bool:
    return s.form == CHIITOITSU


@yaku("sanshoku_doujun", "三色同順", 2, 1)
def sanshoku_doujun(h: HandInfo, s: Shape) -> bool:
    seq = s.shuntsu
    return len(seq) >= 3 and any(k + 9 in seq and k + 18 in seq for k in seq if k < 9)


@yaku("ittsu", "一気通貫", 2, 1)
def ittsu(h: HandInfo, s: Shape) -> bool:
    seq = s.shuntsu
    return len(seq) >= 3 and any(k + 3 in seq and k + 6 in seq for k in (0, 9, 18) if k in seq)


@yaku("chanta", "混全帯幺九", 2, 1)
def chanta(h: HandInfo, s: Shape) -> bool:
    """Outside hand with honours and at least one sequence (else honroutou)."""
    return bool(s.shuntsu) and h.kinds[-1] >= 27 and outside(s)


@yaku("toitoi", "対々和", 2, 2)
def toitoi(h: HandInfo, s: Shape) -> bool:
    return s.form == STANDARD and not s.shuntsu


@yaku("sanankou", "三暗刻", 2, 2)
def sanankou(h: HandInfo, s: Shape) -> bool:
    return s.ankou == 3


@yaku("sanshoku_doukou", "三色同刻", 2, 2)
def sanshoku_doukou(h: HandInfo, s: Shape) -> bool:
    tri = s.koutsu
    return len(tri) >= 3 and any(k + 9 in tri and k + 18 in tri for k in tri if k < 9)


@yaku("sankantsu", "三槓子", 2, 2)
def sankantsu(h: HandInfo, s: Shape) -> bool:
    return h.kans == 3


@yaku("shousangen", "小三元", 2, 2)
def shousangen(h: HandInfo, s: Shape) -> bool:
    c = h.counts
    return c[HAKU] + c[HATSU] + c[CHUN] == 8 and s.form == STANDARD and s.pair >= HAKU


@yaku("honroutou", "混老頭", 2, 2)
def honroutou(h: HandInfo, s: Shape) -> bool:
    """Terminals and honours only, both present (else chinroutou or tsuuiisou)."""
    kinds = h.kinds
    return kinds[0] < 27 and kinds[-1] >= 27 and all(_YAOCHUU[k] for k in kinds)


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
