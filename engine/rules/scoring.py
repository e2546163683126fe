"""Score a winning hand: every interpretation, its yaku and fu, the best one, dora, payments.

The one entry point is ``score_hand``; ``preview_value`` is the guaranteed minimum a waiting
hand shows before it wins (seed 000). Results (``result.HandResult``) are msgspec structs,
ready for the wire and for records.

Speed (bench/hand.py) comes from work done at import: the hand becomes one integer code
(``yaku.records``), each part's readings are looked up with their feature records already
packed, so a reading is a few additions and masks; yaku are bits of a mask (``yaku.hand``,
``yaku.reading``), their han, the pair's fu, the rounding and the points are table lookups,
and no result object is built until the best reading is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import msgspec

from engine.rules.config import RuleConfig
from engine.rules.fu import ANKOU_FU, PAIR_VALUE, ROUND_UP, WON_FU
from engine.rules.meld import Meld
from engine.rules.points import MANGAN
from engine.rules.result import (
    HAN_CHUNKS,
    HandResult,
    WinContext,
    YakuHan,
    hand_result,
    mask_han,
    yakuman_key,
)
from engine.rules.tiles import dora_of
from engine.rules.yaku import (
    CHIITOITSU,
    KOKUSHI,
    KOKUSHI_13,
    PINFU,
    SANANKOU,
    SUUANKOU,
    SUUANKOU_TANKI,
)
from engine.rules.yaku.hand import of_hand
from engine.rules.yaku.reading import FLAG_SHIFT, OF_COUNTS, of_bits
from engine.rules.yaku.records import (
    CODE,
    COPY_BITS,
    F_FU,
    F_GROUPS,
    F_MULTI,
    F_PAIR,
    F_SEQ,
    KOKUSHI_ONES,
    MELD,
    ODD_OR_FOUR,
    PART_MASK,
    READINGS,
    SIMPLE_MASK,
    W_KANCHAN,
    W_PENCHAN,
    W_RYANMEN,
    W_SHANPON,
    W_TANKI,
    Reading,
    red_mask,
)

__all__ = ["HandResult", "WinContext", "YakuHan", "preview_value", "score_hand"]

#: [players][indicator tile] -> the shift of its dora kind's count in a hand code
_DORA_SHIFT = (
    (),
    (),
    (),
    tuple(3 * dora_of(t >> 2, True) for t in range(136)),
    tuple(3 * dora_of(t >> 2, False) for t in range(136)),
)
#: CODE by tile id. A list only because list.__getitem__ is a fast builtin method (a tuple's
#: goes through a slot wrapper, ~35% slower inside ``sum(map(...))``); never mutated.
_CODE_OF = list(CODE).__getitem__
#: rule's aka -> red_mask(aka), for every rule up to four red fives a suit
_RED_MASKS = {(m, p, s): red_mask((m, p, s)) for m in range(5) for p in range(5) for s in range(5)}
_R_MAN, _R_PIN, _R_SOU, _R_HONOUR = READINGS
_Parts = tuple[Reading, Reading, Reading]
#: [seat wind] -> whether it is the dealer's (East), a plain int to index tables fast
_DEALER = (0,) * 27 + (1, 0, 0, 0)
_LOW_WAIT = W_TANKI | W_KANCHAN | W_PENCHAN  # +2 fu
#: (part, offset in it) of each winning kind
_WAIT_AT = tuple((min(k // 9, 3), k - 9 * min(k // 9, 3)) for k in range(34))
#: [waits] -> its wait bits one by one, in the order they are tried
_WAIT_BITS = tuple(tuple(1 << i for i in range(5) if w >> i & 1) for w in range(32))


def _meld_facts(fields: int) -> tuple[int, int, int, int]:
    """(groups, menzen, kans, concealed tiles a complete hand has) of the melds' summed
    group, open and kan counts (``add >> F_GROUPS``). ``menzen`` is 1 or 0, not a bool: the
    tables it indexes take a plain int faster."""
    groups = fields & 7
    return groups, int(not fields >> 3 & 7), fields >> 6 & 7, 14 - 3 * groups


_MELD_FACTS = tuple(_meld_facts(f) for f in range(512))


def _low_key(han: int, fu: int, kiriage: bool) -> int:
    base = fu << han + 2
    if base >= MANGAN or (kiriage and base == 1920):
        base = MANGAN
    return base << 17 | han << 8 | fu


def _limit_key(han: int, kazoe: bool) -> int:
    base = (2000, 3000, 3000, 4000, 4000, 4000, 6000, 6000, 6000)[min(han, 13) - 5]
    return (8000 if kazoe and han >= 13 else base) << 17


#: the comparison key of a regular hand is base << 17 | han << 8 | fu (see ``result``):
#: [kiriage][han < 5][fu] and [kazoe_yakuman][min(han, 13)] (to OR with han << 8 | fu)
_LOW_KEYS = tuple(
    tuple(tuple(_low_key(han, fu, kiriage) for fu in range(200)) for han in range(5))
    for kiriage in (False, True)
)
_LIMIT_KEYS = tuple(
    (0,) * 5 + tuple(_limit_key(han, kazoe) for han in range(5, 14)) for kazoe in (False, True)
)


def score_hand(
    concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> HandResult | None:
    """The best reading of a complete hand, or None (incomplete, no yaku, under min_han)."""
    code = 0  # the concealed tiles; see records.CODE
    for t in concealed:
        code += CODE[t]
    red = _RED_MASKS[rules.aka]
    aka = (code & red).bit_count()
    code >>= COPY_BITS
    win = ctx.win_tile >> 2
    if not code >> 3 * win & 7:
        return None
    shape = tiles = code  # + the groups (a kan as a triplet); + every meld tile, for dora
    add = bits = 0
    for meld in melds:
        a, b, c, d, five = MELD[meld.type][meld.tiles[0] >> 2]
        add += a
        bits |= b
        shape += c
        tiles += d
        if five and red:
            aka += (sum(map(_CODE_OF, meld.tiles)) & red).bit_count()
    groups, menzen, kans, size = _MELD_FACTS[add >> F_GROUPS]
    if len(concealed) != size:
        return None
    seat, tsumo = ctx.seat_wind, ctx.tsumo
    winds = 4 * seat + ctx.round_wind - 135  # East East = 0
    honours = shape >> 81
    mask, yakuman = of_hand(shape, ctx, rules, menzen, groups, kans, win, winds, honours)
    shift = _DORA_SHIFT[rules.players]
    dora = 0
    for i in ctx.dora_indicators:
        dora += tiles >> shift[i] & 7
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        for i in ctx.ura_indicators:
            ura += tiles >> shift[i] & 7
    extra = dora + aka + ura + ctx.kita
    double = rules.double_yakuman
    han_of = HAN_CHUNKS[menzen]
    key = -1
    best_mask = best_han = best_fu = 0
    best_yakuman: tuple[int, ...] = ()
    best_parts: _Parts | None = None  # None: chiitoitsu or kokushi, or nothing yet
    if not groups:
        if not code & ODD_OR_FOUR:  # seven pairs: a reading before the standard ones
            if yakuman:
                key, best_yakuman = yakuman_key(yakuman, double), yakuman
            else:
                best_mask = mask | CHIITOITSU
                han = mask_han(han_of, best_mask)
                if han >= rules.min_han:
                    best_han, best_fu = han + extra, 25
                    key = _key(best_han, 25, rules)
        elif (
            not code & SIMPLE_MASK and (code | code >> 1 | code >> 2) & KOKUSHI_ONES == KOKUSHI_ONES
        ):
            best_yakuman = (*yakuman, KOKUSHI_13 if code >> 3 * win & 7 == 2 else KOKUSHI)
            key = yakuman_key(best_yakuman, double)
    try:
        ma, mb, mw, mr = _R_MAN[code & PART_MASK]
        pa, pb, pw, pr = _R_PIN[code >> 27 & PART_MASK]
        sa, sb, sw, sr = _R_SOU[code >> 54 & PART_MASK]
        ha, _, hw, hr = _R_HONOUR[code >> 81]
    except KeyError:  # some part is not groups (and a pair): no standard reading
        readings: Sequence[tuple[int, int, int, _Parts | None]] = ()
    else:
        a = add + ma + pa + sa + ha
        part, at = _WAIT_AT[win]
        if a >> F_MULTI:  # some part reads several ways
            readings = _readings(mr, pr, sr, hr[0], add, bits, part, at)
        else:
            readings = ((a, bits | mb | pb | sb, (mw, pw, sw, hw)[part][at], None),)
    min_han = rules.min_han
    low_keys = _LOW_KEYS[rules.kiriage]
    won = WON_FU[tsumo][menzen]
    pair_value = PAIR_VALUE[rules.double_wind_pair_fu][winds]
    of_counts = OF_COUNTS[menzen][honours != 0]
    for a, b, waits, r in readings:
        if a & 7 != 1:  # exactly one part holds the pair
            continue
        group_mask, ankou, pinfu = of_counts[a >> F_SEQ & 0o7777]
        if group_mask >> FLAG_SHIFT:
            group_mask = of_bits(group_mask, b)
        group_mask |= mask
        pair = pair_value[a >> F_PAIR & 63]
        fixed = won + (a >> F_FU & 255) + (pair >> 1)
        # pinfu: closed, four sequences, a valueless pair (and a two-sided wait)
        pinfu = pinfu and not pair
        for wait in _WAIT_BITS[waits]:
            an = ankou
            fu = fixed
            if wait == W_SHANPON and not tsumo:  # the ron completed an open triplet
                an -= 1
                fu -= ANKOU_FU[win] >> 1
            if an == 4 or yakuman:
                found = yakuman
                if an == 4:
                    found = (*yakuman, SUUANKOU_TANKI if wait == W_TANKI else SUUANKOU)
                k = yakuman_key(found, double)
                if k > key or (k == key and found != best_yakuman and _first(r, best_parts)):
                    key, best_mask, best_yakuman, best_parts = k, 0, found, r
                continue
            found_mask = group_mask | SANANKOU if an == 3 else group_mask
            if pinfu and wait == W_RYANMEN:
                found_mask |= PINFU
                fu = 20 if tsumo else 30
            elif wait & _LOW_WAIT:
                fu += 2
            if not found_mask:
                continue
            han = han_of[0][found_mask & 8191] + han_of[1][found_mask >> 13 & 8191]
            han += han_of[2][found_mask >> 26]
            if han < min_han:
                continue
            fu = ROUND_UP[fu]
            if fu == 20 and not tsumo:  # an open ron with nothing to count
                fu = rules.open_pinfu_ron_fu
            han += extra
            if han < 5:
                k = low_keys[han][fu]
            else:
                k = _LIMIT_KEYS[rules.kazoe_yakuman][han if han < 13 else 13] | han << 8 | fu
            if k > key or (k == key and found_mask != best_mask and _first(r, best_parts)):
                key, best_mask, best_yakuman, best_parts = k, found_mask, (), r
                best_han, best_fu = han, fu
    if key < 0:
        return None
    return hand_result(
        key,
        best_han,
        best_fu,
        best_mask,
        best_yakuman,
        menzen,
        dora,
        aka,
        ura,
        ctx.kita,
        double,
        _DEALER[seat],
    )


def _key(han: int, fu: int, rules: RuleConfig) -> int:
    """Base points, han (dora included) and fu packed so the reading worth the most has the
    largest key."""
    if han < 5:
        return _LOW_KEYS[rules.kiriage][han][fu]
    return _LIMIT_KEYS[rules.kazoe_yakuman][han if han < 13 else 13] | han << 8 | fu


def _readings(
    man: tuple[Reading, ...],
    pin: tuple[Reading, ...],
    sou: tuple[Reading, ...],
    h: Reading,
    add: int,
    bits: int,
    part: int,
    at: int,
) -> list[tuple[int, int, int, _Parts | None]]:
    """(add, bits, waits of the winning kind, parts) of every reading of a hand with several;
    ``add`` and ``bits`` are the melds', the winning tile is at offset ``at`` of ``part``."""
    add += h[0]
    at *= 5
    return [
        (add + m[0] + p[0] + s[0], bits | m[1] | p[1] | s[1], (m, p, s, h)[part][2] >> at & 31, r)
        for r in product(man, pin, sou)
        for m, p, s in (r,)
    ]


def _first(parts: _Parts | None, best: _Parts | None) -> bool:
    """Whether a reading worth as much as the best so far, with other yaku, comes before it in
    ``hand.decompose``'s order (where chiitoitsu and kokushi come first): ties go as in the
    reference scorer whatever order the readings were tried in."""
    return best is not None and parts is not None and _order(parts) < _order(best)


def _order(parts: _Parts) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A reading in absolute kinds (pair, sequences, triplets): the sort key of ``decompose``."""
    pair = -1
    runs: list[int] = []
    trips: list[int] = []
    for base, (_, _, _, (p, shuntsu, koutsu)) in zip((0, 9, 18), parts, strict=True):
        if p >= 0:
            pair = base + p
        runs.extend(base + x for x in shuntsu)
        trips.extend(base + x for x in koutsu)
    return pair, tuple(runs), tuple(trips)


def preview_value(
    concealed13: Sequence[int],
    melds: Sequence[Meld],
    win_tile_kind: int,
    ctx: WinContext,
    rules: RuleConfig,
) -> HandResult | None:
    """The guaranteed minimum of winning on ``win_tile_kind``: a ron with no luck yaku, no ura,
    and a plain (not red) copy of the tile whenever one is left."""
    used = set(concealed13)
    for m in melds:
        used.update(m.tiles)
    free = [t for t in range(win_tile_kind * 4, win_tile_kind * 4 + 4) if t not in used]
    if not free:
        return None
    plain = [t for t in free if t not in rules.red]
    tile = plain[0] if plain else free[0]
    guaranteed = msgspec.structs.replace(
        ctx, win_tile=tile, tsumo=False, ippatsu=False, haitei=False, houtei=False,
        rinshan=False, chankan=False, tenhou=False, chiihou=False, renhou=False,
        ura_indicators=(),
    )  # fmt: skip
    return score_hand([*concealed13, tile], melds, guaranteed, rules)
