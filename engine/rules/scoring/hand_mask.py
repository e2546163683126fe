"""Yaku of the situation and of the tiles as a set: tested once per hand, whatever its reading.

Each condition is one line over the four parts of the hand's *shape* (``tables.CODE``: three
bits of count per kind, called groups included, a kan counted as a triplet), so "only
simples" or "only green tiles" is a mask test per part; the honour yaku are looked up by the
honour part. The parts are small ints, so the compiled scorer never builds a big integer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import engine.rules.scoring.yaku as y
from engine.rules.scoring.tables import (
    GREEN_HONOUR,
    GREEN_SOU,
    PART_MASK,
    READINGS,
    SIMPLE_PART,
    TERMINAL_PART,
    HandCode,
)
from engine.rules.scoring.yaku import YakuMask
from engine.rules.tiles import Kind

if TYPE_CHECKING:
    from engine.rules.config import RuleConfig
    from engine.rules.scoring.result import CtxFields

# the yaku bits and indexes, Final here so the compiled module reads them as C constants
BAKAZE: Final = y.BAKAZE
JIKAZE: Final = y.JIKAZE
CHANKAN: Final = y.CHANKAN
CHIIHOU: Final = y.CHIIHOU
CHINITSU: Final = y.CHINITSU
CHINROUTOU: Final = y.CHINROUTOU
CHUN: Final = y.CHUN
CHUUREN: Final = y.CHUUREN
DAISANGEN: Final = y.DAISANGEN
DAISUUSHII: Final = y.DAISUUSHII
DOUBLE_RIICHI: Final = y.DOUBLE_RIICHI
HAITEI: Final = y.HAITEI
HAKU: Final = y.HAKU
HATSU: Final = y.HATSU
HONITSU: Final = y.HONITSU
HONROUTOU: Final = y.HONROUTOU
HOUTEI: Final = y.HOUTEI
IPPATSU: Final = y.IPPATSU
JUNSEI_CHUUREN: Final = y.JUNSEI_CHUUREN
MENZEN_TSUMO: Final = y.MENZEN_TSUMO
RENHOU: Final = y.RENHOU
RIICHI: Final = y.RIICHI
RINSHAN: Final = y.RINSHAN
RYUUIISOU: Final = y.RYUUIISOU
SANKANTSU: Final = y.SANKANTSU
SHOUSANGEN: Final = y.SHOUSANGEN
SHOUSUUSHII: Final = y.SHOUSUUSHII
SUUKANTSU: Final = y.SUUKANTSU
TANYAO: Final = y.TANYAO
TENHOU: Final = y.TENHOU
TSUUIISOU: Final = y.TSUUIISOU

_NOT_SIMPLE: Final = PART_MASK & ~SIMPLE_PART
_NOT_TERMINAL: Final = PART_MASK & ~TERMINAL_PART
_NOT_GREEN_SOU: Final = PART_MASK & ~GREEN_SOU
_NOT_GREEN_HONOUR: Final = PART_MASK & ~GREEN_HONOUR
#: 1112345678999 of one suit, as a part code
_CHUUREN: Final = sum(n << 3 * i for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)))
_THREES: Final = 0o111111111


def _honour_facts(code: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(yakuhai and shousangen mask by seat wind and round wind, honour yakuman) of the honour
    part of a hand."""
    counts = [code >> 3 * i & 7 for i in range(7)]
    sets = [n >= 3 for n in counts]
    dragons = (HAKU if sets[4] else 0) | (HATSU if sets[5] else 0) | (CHUN if sets[6] else 0)
    if counts[4] + counts[5] + counts[6] == 8:  # two dragon sets and a dragon pair
        dragons |= SHOUSANGEN
    by_wind = tuple(
        dragons | (JIKAZE[seat] if sets[seat] else 0) | (BAKAZE[rnd] if sets[rnd] else 0)
        for seat in range(4)
        for rnd in range(4)
    )  # [4 x seat + round wind]
    found = [DAISANGEN] if all(sets[4:]) else []
    winds = sum(counts[:4])
    if winds == 11:  # three wind sets and a wind pair
        found.append(SHOUSUUSHII)
    elif winds == 12:
        found.append(DAISUUSHII)
    return by_wind, tuple(found)


#: honour part code -> ``_honour_facts``, for every honour part of a complete standard hand
#: (seven pairs and kokushi hold no honour set: ``_NO_SETS``)
_HONOURS: Final = {code: _honour_facts(code) for code in READINGS[3]}
_NO_SETS: Final = _honour_facts(0)


def of_hand(
    man: HandCode,
    pin: HandCode,
    sou: HandCode,
    honours: HandCode,
    ctx: CtxFields,
    rules: RuleConfig,
    kuitan: int,
    menzen: int,
    groups: int,
    kans: int,
    win: Kind,
    winds: int,
) -> tuple[YakuMask, tuple[int, ...]]:
    """(mask of the situational yaku, tanyao, yakuhai, shousangen, honroutou, the flushes
    and sankantsu; the yakuman of the tiles and the situation as ``YAKUMAN`` indexes, in the
    order results list them). ``man`` .. ``honours`` are the shape's parts; ``ctx`` the
    win's context as a tuple (``result.CtxFields``); ``kuitan`` the rule's; ``winds`` is
    4 x seat wind + round wind, East = 0."""
    (_, tsumo, seat, _, riichi, double_riichi, ippatsu, haitei, houtei, rinshan, chankan,
     tenhou, chiihou, renhou, _, _, _) = ctx  # fmt: skip
    mask = 0
    # the situation: riichi and the luck of the draw
    if menzen:
        if double_riichi:  # it replaces riichi
            mask = DOUBLE_RIICHI | (IPPATSU if ippatsu else 0)
        elif riichi:
            mask = RIICHI | (IPPATSU if ippatsu else 0)
    if tsumo:
        if menzen:  # a closed hand (ankan allowed) completed by its own draw
            mask |= MENZEN_TSUMO
        if rinshan:
            mask |= RINSHAN
        if haitei and (not rinshan or rules.rinshan_haitei):
            mask |= HAITEI  # a rinshan draw is haitei only where the rule says (not Tenhou)
        first = tenhou or chiihou
    else:
        if chankan:
            mask |= CHANKAN
        if houtei:
            mask |= HOUTEI
        if renhou and rules.renhou and menzen and winds >= 4:  # not the dealer
            mask |= RENHOU  # a ron before one's first draw, as mangan: off on Tenhou
        first = False
    # the tiles
    facts = _HONOURS.get(honours)
    if facts is None:  # seven pairs, kokushi or no complete hand: no honour set
        facts = _NO_SETS
    by_wind, honour_yakuman = facts
    mask |= by_wind[winds]  # yakuhai, shousangen
    suited = man | pin | sou
    simples = suited & SIMPLE_PART
    if not (suited & TERMINAL_PART or honours):
        if menzen or kuitan:  # open only with kuitan
            mask |= TANYAO
    elif not simples and honours and suited:  # terminals and honours, both present
        mask |= HONROUTOU
    one_suit = (man != 0) + (pin != 0) + (sou != 0) == 1
    if one_suit:
        mask |= HONITSU if honours else CHINITSU
    if kans == 3:
        mask |= SANKANTSU
    green = not (man or pin or sou & _NOT_GREEN_SOU or honours & _NOT_GREEN_HONOUR)
    if (
        honour_yakuman
        or not simples
        or first
        or kans == 4
        or (one_suit and ((not honours and not groups) or green))
    ):
        heaven = -1  # tenhou or chiihou: a closed tsumo on the first draw
        if tsumo and not groups:
            if tenhou and seat == 27:
                heaven = TENHOU
            elif chiihou and seat != 27:
                heaven = CHIIHOU
        return mask, _yakuman(
            suited, honours, one_suit, green, heaven, honour_yakuman, groups, kans, win
        )
    return mask, ()


def _yakuman(
    suited: int,
    honours: int,
    one_suit: bool,
    green: bool,
    heaven: int,
    honour_yakuman: tuple[int, ...],
    groups: int,
    kans: int,
    win: int,
) -> tuple[int, ...]:
    found: list[int] = []
    if green:  # hatsu is not required (Tenhou)
        found.append(RYUUIISOU)
    if not suited & SIMPLE_PART:
        if not suited:  # seven pairs of honours count too (Tenhou)
            found.append(TSUUIISOU)
        elif not honours and not suited & _NOT_TERMINAL:
            found.append(CHINROUTOU)
    if heaven >= 0:
        found.append(heaven)
    found.extend(honour_yakuman)  # daisangen, shousuushii, daisuushii
    if kans == 4:
        found.append(SUUKANTSU)
    if not groups and one_suit and not honours:
        chuuren = _chuuren(suited, win)
        if chuuren >= 0:
            found.append(chuuren)
    return tuple(found)


def _chuuren(part: int, win: int) -> int:
    """CHUUREN or JUNSEI_CHUUREN when the closed hand (``part``: its suited parts OR-ed, the
    hand of one suit) is 1112345678999 plus one tile (nine-sided when that tile was the
    winning one), else -1."""
    extra = part - _CHUUREN  # one count field is 1 more than the pattern, none below it
    if extra <= 0 or extra & extra - 1 or not extra & _THREES:
        return -1
    return JUNSEI_CHUUREN if extra == 1 << 3 * (win % 9) else CHUUREN
