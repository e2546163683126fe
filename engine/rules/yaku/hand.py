"""Yaku of the situation and of the tiles as a set: tested once per hand, whatever its reading.

Each condition is one line over the hand's *shape code* (``records.CODE``: three bits of count
per kind, called groups included, a kan counted as a triplet), so "only simples" or "only
green tiles" is one mask test and a kind's count is one shift.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.yaku import (
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
)
from engine.rules.yaku.records import (
    GREEN_MASK,
    PART_MASK,
    SIMPLE_MASK,
    TERMINAL_MASK,
    YAOCHUU_MASK,
)

if TYPE_CHECKING:
    from engine.rules.config import RuleConfig
    from engine.rules.scoring import WinContext

#: bit 0 of each of the seven honour counts
_ONES = 0o1111111
_SUITS = (1 << 81) - 1
#: 1112345678999 of one suit, as a part code
_CHUUREN = sum(n << 3 * i for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)))
_THREES = 0o111111111


def situational(ctx: WinContext, rules: RuleConfig, menzen: bool) -> int:
    """Riichi and the luck of the draw."""
    mask = 0
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
        elif ctx.haitei:  # a rinshan draw is never haitei (Tenhou)
            mask |= HAITEI
    else:
        if ctx.chankan:
            mask |= CHANKAN
        if ctx.houtei:
            mask |= HOUTEI
        if ctx.renhou and rules.renhou and menzen and ctx.seat_wind != 27:
            mask |= RENHOU  # a ron before one's first draw, as mangan: off on Tenhou
    return mask


def of_tiles(shape: int, seat: int, rnd: int, menzen: bool, kuitan: bool, kans: int) -> int:
    """Tanyao, yakuhai, shousangen, honroutou, the flushes and sankantsu."""
    mask = 0
    honours = shape >> 81
    if not shape & YAOCHUU_MASK:
        if menzen or kuitan:  # open only with kuitan
            mask = TANYAO
    elif honours:
        sets = (honours & honours >> 1 | honours >> 2) & _ONES  # bit 3i: a set of honour i
        if sets:
            mask |= (
                (HAKU if sets >> 12 & 1 else 0)
                | (HATSU if sets >> 15 & 1 else 0)
                | (CHUN if sets >> 18 & 1 else 0)
                | (JIKAZE[seat - 27] if sets >> 3 * (seat - 27) & 1 else 0)
                | (BAKAZE[rnd - 27] if sets >> 3 * (rnd - 27) & 1 else 0)
            )
            # two dragon sets and a dragon pair: 3 + 3 + 2 (no other form holds that)
            if (honours >> 12 & 7) + (honours >> 15 & 7) + (honours >> 18 & 7) == 8:
                mask |= SHOUSANGEN
        if not shape & SIMPLE_MASK and shape & _SUITS:  # terminals and honours, both present
            mask |= HONROUTOU
    suits = (
        (shape & PART_MASK != 0) + (shape >> 27 & PART_MASK != 0) + (shape >> 54 & PART_MASK != 0)
    )
    if suits == 1:
        mask |= HONITSU if honours else CHINITSU
    if kans == 3:
        mask |= SANKANTSU
    return mask


def yakuman_of(shape: int, ctx: WinContext, no_melds: bool, kans: int, win: int) -> tuple[int, ...]:
    """The yakuman of the tiles and the situation, as ``YAKUMAN`` indexes (in the order
    results list them)."""
    honours = shape >> 81
    if (
        shape & SIMPLE_MASK  # else tsuuiisou or chinroutou may hold
        and shape & ~GREEN_MASK
        and kans < 4
        and not ctx.tenhou
        and not ctx.chiihou
        and (honours or not no_melds)  # chuuren is closed, without honours
        and ((honours & honours >> 1 | honours >> 2) & _ONES).bit_count() < 3  # sangen, suushii
    ):
        return ()
    found: list[int] = []
    if not shape & ~GREEN_MASK:  # hatsu is not required (Tenhou)
        found.append(RYUUIISOU)
    if not shape & SIMPLE_MASK:
        if not shape & _SUITS:  # seven pairs of honours count too (Tenhou)
            found.append(TSUUIISOU)
        elif not shape & ~TERMINAL_MASK:
            found.append(CHINROUTOU)
    if ctx.tsumo and no_melds:
        if ctx.tenhou and ctx.seat_wind == 27:
            found.append(TENHOU)
        elif ctx.chiihou and ctx.seat_wind != 27:
            found.append(CHIIHOU)
    if honours:
        sets = (honours & honours >> 1 | honours >> 2) & _ONES
        if sets >> 12 == 0o111:  # a set of each dragon
            found.append(DAISANGEN)
        winds = (honours & 7) + (honours >> 3 & 7) + (honours >> 6 & 7) + (honours >> 9 & 7)
        if winds == 11:  # three wind sets and a wind pair
            found.append(SHOUSUUSHII)
        elif winds == 12:
            found.append(DAISUUSHII)
    if kans == 4:
        found.append(SUUKANTSU)
    if no_melds and not honours:
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
