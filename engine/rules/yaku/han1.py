"""One-han yaku of the tiles: pinfu, tanyao, iipeikou and every yakuhai."""

from __future__ import annotations

from engine.rules.tiles import CHUN, EAST, HAKU, HATSU, NORTH, SOUTH, WEST
from engine.rules.yaku.features import RYANMEN, STANDARD, HandInfo, Shape
from engine.rules.yaku.unit import Yaku, yaku


def peikou(s: Shape) -> int:
    """How many pairs of identical sequences the shape holds (2 = ryanpeikou)."""
    seq = s.shuntsu
    if len(seq) < 2:
        return 0
    found = i = 0
    while i < len(seq) - 1:
        if seq[i] == seq[i + 1]:
            found += 1
            i += 2
        else:
            i += 1
    return found


@yaku("pinfu", "平和", 1, shape=True, seqs=range(4, 5))
def pinfu(h: HandInfo, s: Shape) -> bool:
    """Four sequences, a valueless pair, a two-sided wait, closed."""
    p = s.pair
    return (
        h.menzen
        and s.form == STANDARD
        and len(s.shuntsu) == 4
        and s.wait == RYANMEN
        and (p < 27 or (p < 31 and p != h.seat_wind and p != h.round_wind))
    )


@yaku("tanyao", "断幺九", 1, 1, gate="all_simple")
def tanyao(h: HandInfo, s: Shape) -> bool:
    """Only simples; open only with kuitan."""
    return h.all_simple and (h.menzen or h.rules.kuitan)


@yaku("iipeikou", "一盃口", 1, shape=True, seqs=range(2, 5))
def iipeikou(h: HandInfo, s: Shape) -> bool:
    return h.menzen and s.form == STANDARD and peikou(s) == 1


@yaku("yakuhai_haku", "役牌 白", 1, 1, gate="honour_sets")
def yakuhai_haku(h: HandInfo, s: Shape) -> bool:
    return h.counts[HAKU] >= 3


@yaku("yakuhai_hatsu", "役牌 發", 1, 1, gate="honour_sets")
def yakuhai_hatsu(h: HandInfo, s: Shape) -> bool:
    return h.counts[HATSU] >= 3


@yaku("yakuhai_chun", "役牌 中", 1, 1, gate="honour_sets")
def yakuhai_chun(h: HandInfo, s: Shape) -> bool:
    return h.counts[CHUN] >= 3


def _jikaze(wind: int, romaji: str, face: str) -> Yaku:
    @yaku(f"jikaze_{romaji}", f"自風 {face}", 1, 1, gate="honour_sets")
    def seat(h: HandInfo, s: Shape) -> bool:
        return h.seat_wind == wind and h.counts[wind] >= 3

    return seat


def _bakaze(wind: int, romaji: str, face: str) -> Yaku:
    @yaku(f"bakaze_{romaji}", f"場風 {face}", 1, 1, gate="honour_sets")
    def round_(h: HandInfo, s: Shape) -> bool:
        return h.round_wind == wind and h.counts[wind] >= 3

    return round_


_WIND_NAMES = (
    (EAST, "ton", "東"),
    (SOUTH, "nan", "南"),
    (WEST, "shaa", "西"),
    (NORTH, "pei", "北"),
)
#: seat-wind yakuhai, one unit per wind (Tenhou prints them apart)
JIKAZE = tuple(_jikaze(*w) for w in _WIND_NAMES)
#: round-wind yakuhai; a double wind scores both a jikaze and a bakaze
BAKAZE = tuple(_bakaze(*w) for w in _WIND_NAMES)

HAN1 = (pinfu, tanyao, iipeikou, yakuhai_haku, yakuhai_hatsu, yakuhai_chun, *JIKAZE, *BAKAZE)
