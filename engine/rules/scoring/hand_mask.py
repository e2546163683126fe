"""Yaku of the situation and of the tiles as a set: tested once per hand, whatever its reading.

Each condition is one line over the hand's *shape code* (``tables.CODE``: three bits of count
per kind, called groups included, a kan counted as a triplet), so "only simples" or "only
green tiles" is one mask test; the honour yaku are looked up by the honour part of the code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.scoring.tables import (
    GREEN_MASK,
    PART_MASK,
    READINGS,
    SIMPLE_MASK,
    TERMINAL_MASK,
    YAOCHUU_MASK,
    HandCode,
)
from engine.rules.scoring.yaku import (
    BAKAZE,
    CHANKAN,
    CHIIHOU,
    CHINITSU,
    CHINROUTOU,
    CHUN,
    CHUUREN,
    DAISANGEN,
    DAISUUSHII,
    DOUBLE_RIICHI,
    HAITEI,
    HAKU,
    HATSU,
    HONITSU,
    HONROUTOU,
    HOUTEI,
    IPPATSU,
    JIKAZE,
    JUNSEI_CHUUREN,
    MENZEN_TSUMO,
    RENHOU,
    RIICHI,
    RINSHAN,
    RYUUIISOU,
    SANKANTSU,
    SHOUSANGEN,
    SHOUSUUSHII,
    SUUKANTSU,
    TANYAO,
    TENHOU,
    TSUUIISOU,
    YakuMask,
)
from engine.rules.tiles import Kind

if TYPE_CHECKING:
    from engine.rules.config import RuleConfig
    from engine.rules.scoring.result import WinContext

_SUITS = (1 << 81) - 1
#: [suit] -> the count fields of the other two suits
_OTHER_SUITS = tuple(_SUITS & ~(PART_MASK << 27 * suit) for suit in range(3))
#: [suited kind] -> the count fields of the suits it is not in
_OTHER_SUITS_OF = tuple(_OTHER_SUITS[k // 9] for k in range(27))
_ALL = (1 << 102) - 1
_NOT_GREEN = _ALL & ~GREEN_MASK
_NOT_TERMINAL = _ALL & ~TERMINAL_MASK
#: 1112345678999 of one suit, as a part code
_CHUUREN = sum(n << 3 * i for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)))
_THREES = 0o111111111


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
_HONOURS = {code: _honour_facts(code) for code in READINGS[3]}
_NO_SETS = _honour_facts(0)


def of_hand(
    shape: HandCode,
    ctx: WinContext,
    rules: RuleConfig,
    menzen: int,
    groups: int,
    kans: int,
    win: Kind,
    winds: int,
    honours: HandCode,
) -> tuple[YakuMask, tuple[int, ...]]:
    """(mask of the situational yaku, tanyao, yakuhai, shousangen, honroutou, the flushes
    and sankantsu; the yakuman of the tiles and the situation as ``YAKUMAN`` indexes, in the
    order results list them). ``winds`` is 4 x seat wind + round wind, East = 0; ``honours``
    the honour part of ``shape``."""
    mask = 0
    # the situation: riichi and the luck of the draw
    if menzen:
        if ctx.double_riichi:  # it replaces riichi
            mask = DOUBLE_RIICHI | (IPPATSU if ctx.ippatsu else 0)
        elif ctx.riichi:
            mask = RIICHI | (IPPATSU if ctx.ippatsu else 0)
    if ctx.tsumo:
        if menzen:  # a closed hand (ankan allowed) completed by its own draw
            mask |= MENZEN_TSUMO
        if ctx.rinshan:
            mask |= RINSHAN
        if ctx.haitei and (not ctx.rinshan or rules.rinshan_haitei):
            mask |= HAITEI  # a rinshan draw is haitei only where the rule says (not Tenhou)
        first = ctx.tenhou or ctx.chiihou
    else:
        if ctx.chankan:
            mask |= CHANKAN
        if ctx.houtei:
            mask |= HOUTEI
        if ctx.renhou and rules.renhou and menzen and winds >= 4:  # not the dealer
            mask |= RENHOU  # a ron before one's first draw, as mangan: off on Tenhou
        first = False
    # the tiles
    try:
        by_wind, honour_yakuman = _HONOURS[honours]
    except KeyError:  # seven pairs, kokushi or no complete hand: no honour set
        by_wind, honour_yakuman = _NO_SETS
    mask |= by_wind[winds]  # yakuhai, shousangen
    simples = shape & SIMPLE_MASK
    if not shape & YAOCHUU_MASK:
        if menzen or rules.kuitan:  # open only with kuitan
            mask |= TANYAO
    elif not simples and honours and shape & _SUITS:  # terminals and honours, both present
        mask |= HONROUTOU
    if win < 27:  # every suited tile in the winning tile's suit
        one_suit = not shape & _OTHER_SUITS_OF[win]
    else:
        man, pin, sou = _OTHER_SUITS
        suited = shape & _SUITS
        one_suit = suited != 0 and (not suited & man or not suited & pin or not suited & sou)
    if one_suit:
        mask |= HONITSU if honours else CHINITSU
    if kans == 3:
        mask |= SANKANTSU
    if (
        honour_yakuman
        or not simples
        or first
        or kans == 4
        or (one_suit and ((not honours and not groups) or not shape & _NOT_GREEN))
    ):
        return mask, _yakuman(shape, ctx, honour_yakuman, groups, kans, win)
    return mask, ()


def _yakuman(
    shape: int, ctx: WinContext, honour_yakuman: tuple[int, ...], groups: int, kans: int, win: int
) -> tuple[int, ...]:
    found: list[int] = []
    if not shape & _NOT_GREEN:  # hatsu is not required (Tenhou)
        found.append(RYUUIISOU)
    if not shape & SIMPLE_MASK:
        if not shape & _SUITS:  # seven pairs of honours count too (Tenhou)
            found.append(TSUUIISOU)
        elif not shape & _NOT_TERMINAL:
            found.append(CHINROUTOU)
    if ctx.tsumo and not groups:
        if ctx.tenhou and ctx.seat_wind == 27:
            found.append(TENHOU)
        elif ctx.chiihou and ctx.seat_wind != 27:
            found.append(CHIIHOU)
    found.extend(honour_yakuman)  # daisangen, shousuushii, daisuushii
    if kans == 4:
        found.append(SUUKANTSU)
    if not groups and win < 27:
        chuuren = _chuuren(shape, win)
        if chuuren >= 0:
            found.append(chuuren)
    return tuple(found)


def _chuuren(shape: int, win: int) -> int:
    """CHUUREN or JUNSEI_CHUUREN when the closed hand is 1112345678999 of one suit plus one
    tile (nine-sided when that tile was the winning one), else -1."""
    suit = win // 9
    part = shape >> 27 * suit & PART_MASK
    if shape != part << 27 * suit:
        return -1
    extra = part - _CHUUREN  # one count field is 1 more than the pattern, none below it
    if extra <= 0 or extra & extra - 1 or not extra & _THREES:
        return -1
    return JUNSEI_CHUUREN if extra == 1 << 3 * (win - 9 * suit) else CHUUREN
