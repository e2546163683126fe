"""Yakuman. Several stack; four of them count double only under ``double_yakuman``
(off on Tenhou, where they are single yakuman but keep their own names)."""

from __future__ import annotations

from engine.rules.tiles import CHUN, EAST, HAKU, NORTH, SOUTH, WEST
from engine.rules.yaku.features import KOKUSHI, TANKI, HandInfo, Shape
from engine.rules.yaku.unit import yakuman

_CHUUREN = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@yakuman("kokushi_musou", "国士無双", shape=True)
def kokushi_musou(h: HandInfo, s: Shape) -> bool:
    return s.form == KOKUSHI and h.counts[h.win_kind] == 1


@yakuman("kokushi_musou_13", "国士無双１３面", double=True, shape=True)
def kokushi_musou_13(h: HandInfo, s: Shape) -> bool:
    """Thirteen-sided: the winning tile completed the pair."""
    return s.form == KOKUSHI and h.counts[h.win_kind] == 2


@yakuman("suuankou", "四暗刻", shape=True)
def suuankou(h: HandInfo, s: Shape) -> bool:
    return s.ankou == 4 and s.wait != TANKI


@yakuman("suuankou_tanki", "四暗刻単騎", double=True, shape=True)
def suuankou_tanki(h: HandInfo, s: Shape) -> bool:
    return s.ankou == 4 and s.wait == TANKI


@yakuman("daisangen", "大三元", gate="honour_sets")
def daisangen(h: HandInfo, s: Shape) -> bool:
    c = h.counts
    return c[HAKU] >= 3 and c[HAKU + 1] >= 3 and c[CHUN] >= 3


@yakuman("shousuushii", "小四喜", gate="honour_sets")
def shousuushii(h: HandInfo, s: Shape) -> bool:
    """Three wind triplets and a wind pair."""
    c = h.counts
    return c[EAST] + c[SOUTH] + c[WEST] + c[NORTH] == 11


@yakuman("daisuushii", "大四喜", double=True, gate="honour_sets")
def daisuushii(h: HandInfo, s: Shape) -> bool:
    c = h.counts
    return c[EAST] + c[SOUTH] + c[WEST] + c[NORTH] == 12


@yakuman("tsuuiisou", "字一色", gate="all_yaochuu")
def tsuuiisou(h: HandInfo, s: Shape) -> bool:
    """Honours only; seven pairs of honours count too (Tenhou)."""
    return h.kinds[0] >= 27


@yakuman("chinroutou", "清老頭", gate="all_yaochuu")
def chinroutou(h: HandInfo, s: Shape) -> bool:
    return h.all_terminal


@yakuman("ryuuiisou", "緑一色", gate="all_green")
def ryuuiisou(h: HandInfo, s: Shape) -> bool:
    """Green tiles only; hatsu is not required (Tenhou)."""
    return h.all_green


def _chuuren_suit(h: HandInfo) -> int:
    """The first kind of the suit when the hand is 1112345678999 plus one tile, else -1."""
    if not h.no_melds or h.kinds[-1] >= 27 or h.kinds[0] // 9 != h.kinds[-1] // 9:
        return -1
    base = h.kinds[0] - h.kinds[0] % 9
    c = h.counts
    if all(c[base + i] >= _CHUUREN[i] for i in range(9)):
        return base
    return -1


@yakuman("chuuren_poutou", "九蓮宝燈", gate="pure")
def chuuren_poutou(h: HandInfo, s: Shape) -> bool:
    base = _chuuren_suit(h)
    return base >= 0 and h.counts[h.win_kind] - _CHUUREN[h.win_kind - base] == 0


@yakuman("junsei_chuuren_poutou", "純正九蓮宝燈", double=True, gate="pure")
def junsei_chuuren_poutou(h: HandInfo, s: Shape) -> bool:
    """Nine-sided: without the winning tile the hand was exactly 1112345678999."""
    base = _chuuren_suit(h)
    return base >= 0 and h.counts[h.win_kind] - _CHUUREN[h.win_kind - base] == 1


@yakuman("suukantsu", "四槓子", gate="kans")
def suukantsu(h: HandInfo, s: Shape) -> bool:
    return h.kans == 4


@yakuman("tenhou", "天和", gate="blessed")
def tenhou(h: HandInfo, s: Shape) -> bool:
    return h.ctx.tenhou and h.tsumo and h.dealer and h.no_melds


@yakuman("chiihou", "地和", gate="blessed")
def chiihou(h: HandInfo, s: Shape) -> bool:
    return h.ctx.chiihou and h.tsumo and not h.dealer and h.no_melds


YAKUMAN = (
    kokushi_musou,
    kokushi_musou_13,
    suuankou,
    suuankou_tanki,
    daisangen,
    shousuushii,
    daisuushii,
    tsuuiisou,
    chinroutou,
    ryuuiisou,
    chuuren_poutou,
    junsei_chuuren_poutou,
    suukantsu,
    tenhou,
    chiihou,
)
