"""Score a winning hand: every interpretation, its yaku and fu, the best one, dora, payments.

The one entry point is ``score_hand`` (``preview.preview_value`` is the guaranteed minimum a
waiting hand shows before it wins). Results (``result.HandResult``) are msgspec structs,
ready for the wire and for records.

Speed (bench/hand.py) comes from work done at import: the hand becomes two machine-word
codes (``tables``), each part's readings are looked up with their feature records already
packed, so a reading is a few additions and masks; yaku are bits of a mask (``hand_mask``,
``reading_mask``), their han, the pair's fu, the rounding and the points are table lookups,
and no result object is built until the best reading is known. The module is compiled by
mypyc (``engine.native``): every table is ``Final`` (a C constant, not a dictionary lookup),
and every int on the hot path fits a machine word (no big-integer arithmetic).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, cast

import msgspec

import engine.rules.scoring.result as res
import engine.rules.scoring.yaku as y
from engine.rules.config import RuleConfig
from engine.rules.meld import Meld
from engine.rules.scoring.fu import ANKOU_FU, PAIR_VALUE, ROUND_UP, WON_FU
from engine.rules.scoring.hand_mask import of_hand
from engine.rules.scoring.points import LIMIT_KEYS, LOW_KEYS, YAKUMAN_BASE, hand_key
from engine.rules.scoring.reading_mask import FLAG_SHIFT, OF_COUNTS, of_bits
from engine.rules.scoring.result import (
    Chunks,
    CtxFields,
    HandResult,
    WinContext,
    YakuHan,
    mask_han,
)
from engine.rules.scoring.tables import (
    B_TRIP,
    CODE,
    F_FU,
    F_GROUPS,
    F_PAIR,
    F_SEQ,
    HI_COPY_BITS,
    HI_TILE,
    KIND_SHIFT,
    KOKUSHI_HI,
    KOKUSHI_LO,
    LO_COPY_BITS,
    MELD,
    ODD_OR_FOUR_HI,
    ODD_OR_FOUR_LO,
    P_ADD,
    P_BITS,
    P_MULTI,
    P_WAITS,
    PART_MASK,
    READINGS,
    SIMPLE_HI,
    SIMPLE_LO,
    SUIT_PACKED,
    SUIT_WAITS,
    W_KANCHAN,
    W_PENCHAN,
    W_RYANMEN,
    W_SHANPON,
    W_TANKI,
)
from engine.rules.scoring.ties import Parts, comes_first, every_reading
from engine.rules.tiles import Tile, dora_of

__all__ = ["score_hand"]

# what other modules hold, Final here so the compiled module reads each as a C constant
CHIITOITSU: Final = y.CHIITOITSU
KOKUSHI: Final = y.KOKUSHI
KOKUSHI_13: Final = y.KOKUSHI_13
PINFU: Final = y.PINFU
SANANKOU: Final = y.SANANKOU
SUUANKOU: Final = y.SUUANKOU
SUUANKOU_TANKI: Final = y.SUUANKOU_TANKI
YAKUMAN_BIT: Final = res.YAKUMAN_BIT
# the tables below that a variable indexes are typed as tuples of any length: mypyc keeps a
# tuple of fixed length unboxed and builds it anew, allocating, on every such read
HAN_CHUNKS: Final[tuple[Chunks, ...]] = res.HAN_CHUNKS
_ENTRY_CHUNKS: Final[tuple[tuple[tuple[tuple[YakuHan, ...], ...], ...], ...]] = res.ENTRY_CHUNKS
#: ``result.PAYMENTS`` entries: (ron, tsumo dealer, tsumo other, limit name, multiplier)
Payment = tuple[int, int, int, str, int]


def _by_base(payments: dict[int, Payment]) -> tuple[Payment | None, ...]:
    """[base // 20] -> the entry of that base (every base is fu x 2^(han+2), fu a multiple
    of 5, or a limit): a tuple read where a dict lookup hashed a boxed int."""
    if any(base % 20 for base in payments):
        raise ValueError("a base that is no multiple of 20")
    return tuple([payments.get(20 * i) for i in range(max(payments) // 20 + 1)])


#: [dealer][base // 20] -> ``result.PAYMENTS[dealer][base]``, None for no base
_PAYMENTS: Final[tuple[tuple[Payment | None, ...], ...]] = tuple(
    [_by_base(by_base) for by_base in res.PAYMENTS]
)
_YAKUMAN: Final = res.YAKUMAN_ENTRIES
_YAKUMAN_DOUBLE: Final = res.YAKUMAN_DOUBLE_ENTRIES
_DORA: Final = res.DORA_ENTRIES
_AKA: Final = res.AKA_ENTRIES
_URA: Final = res.URA_ENTRIES

#: [players][indicator tile] -> (1 when its dora kind is in the high half, the shift of that
#: kind's count in its half)
_DORA_AT: Final[tuple[tuple[tuple[int, int], ...], ...]] = (
    (),
    (),
    (),
    tuple(
        (int(dora_of(t >> 2, True) >= 18), KIND_SHIFT[dora_of(t >> 2, True)]) for t in range(136)
    ),
    tuple(
        (int(dora_of(t >> 2, False) >= 18), KIND_SHIFT[dora_of(t >> 2, False)]) for t in range(136)
    ),
)
#: a WinContext's fields in one call (``result.CtxFields``)
_astuple: Final = cast("Callable[[WinContext], CtxFields]", msgspec.structs.astuple)
_SUIT_PACKED: Final = SUIT_PACKED
_SUIT_WAITS: Final = SUIT_WAITS
#: the waits index's shift once a packed part is shifted down by P_BITS
_WAITS: Final = P_WAITS - P_BITS
#: a pair's kind field in pin and in sou: 9 and 18 kinds above its offset
_PIN_PAIR: Final = 9 << F_PAIR
_SOU_PAIR: Final = 18 << F_PAIR
_R_MAN: Final = READINGS[0]
_R_PIN: Final = READINGS[1]
_R_SOU: Final = READINGS[2]
_R_HONOUR: Final = READINGS[3]
#: [12 copy bits] -> how many are set (the red fives of a hand)
_POPCOUNT: Final = tuple(bin(c).count("1") for c in range(1 << 12))
#: [seat wind] -> whether it is the dealer's (East), a plain int to index tables fast
_DEALER: Final[tuple[int, ...]] = (0,) * 27 + (1, 0, 0, 0)
_LOW_WAIT: Final = W_TANKI | W_KANCHAN | W_PENCHAN  # +2 fu
#: (part, offset in it) of each winning kind
_WAIT_AT: Final = tuple((min(k // 9, 3), k - 9 * min(k // 9, 3)) for k in range(34))
#: [waits] -> its wait bits one by one, in the order they are tried
_WAIT_BITS: Final = tuple(tuple(1 << i for i in range(5) if w >> i & 1) for w in range(32))


def _meld_facts(fields: int) -> tuple[int, int, int, int]:
    """(groups, menzen, kans, concealed tiles a complete hand has) of the melds' summed
    group, open and kan counts (``add >> F_GROUPS``). ``menzen`` is 1 or 0, not a bool: the
    tables it indexes take a plain int faster."""
    groups = fields & 7
    return groups, int(not fields >> 3 & 7), fields >> 6 & 7, 14 - 3 * groups


_MELD_FACTS: Final = tuple(_meld_facts(f) for f in range(512))
#: [double yakuman counted][``yaku.YAKUMAN`` index] -> its han, read off the result's entries
#: once (a struct's field is a generic attribute read in compiled code)
_YAKUMAN_HAN: Final[tuple[tuple[int, ...], ...]] = (
    tuple([entry.han for entry in res.YAKUMAN_ENTRIES]),
    tuple([entry.han for entry in res.YAKUMAN_DOUBLE_ENTRIES]),
)
#: the result type, a C static here rather than a module dictionary lookup per hand
_HAND_RESULT: Final = HandResult


def yakuman_key(found: tuple[int, ...], double: bool) -> int:
    """The key of a hand of real yakuman (``yaku.YAKUMAN`` indexes): above every regular
    hand."""
    han_of = _YAKUMAN_HAN[1 if double else 0]
    han = 0
    for i in found:
        han += han_of[i]
    return (han // 13 * YAKUMAN_BASE) << 17 | YAKUMAN_BIT | han << 8


def score_hand(
    concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> HandResult | None:
    """The best reading of a complete hand, or None (incomplete, no yaku, under min_han).

    ``concealed`` holds the winning tile; ``spec.spec_score`` says the same in plain words.

    >>> from engine.rules.config import TENHOU_HANCHAN
    >>> from engine.rules.tiles import parse
    >>> hand = parse("234m567p23455s666z")  # shanpon, 6z drawn: 22 + a hatsu ankou 8
    >>> ctx = WinContext(win_tile=hand[-1], tsumo=True, seat_wind=27, round_wind=27)
    >>> r = score_hand(hand, [], ctx, TENHOU_HANCHAN)
    >>> r.han, r.fu, [y.name for y in r.yaku], r.tsumo_other
    (2, 30, ['menzen_tsumo', 'yakuhai_hatsu'], 1000)
    >>> score_hand(parse("123m456p789s2345s11z"), [], ctx, TENHOU_HANCHAN) is None  # no 2nd pair
    True
    """
    (win_tile, tsumo, seat, round_wind, riichi, double_riichi, _, _, _, _, _, _, _, _,
     dora_indicators, ura_indicators, kita) = fields = _astuple(ctx)  # fmt: skip
    (red, players, doubles, min_han, kiriage, double_wind, kazoe, open_pinfu_ron_fu,
     kuitan) = rules.scoring_ints  # fmt: skip
    double = doubles != 0
    lo = hi = 0  # the concealed tiles' halves; see tables.CODE
    for t in concealed:
        if t < HI_TILE:
            lo += CODE[t]
        else:
            hi += CODE[t]
    aka = _POPCOUNT[lo & red & 255 | (hi & red >> 8 & 15) << 8]
    lo >>= LO_COPY_BITS
    hi >>= HI_COPY_BITS
    win = win_tile >> 2
    if not (hi if win >= 18 else lo) >> KIND_SHIFT[win] & 7:
        return None
    # + the groups (a kan as a triplet); + every meld tile, for dora
    shape_lo = tiles_lo = lo
    shape_hi = tiles_hi = hi
    add = bits = 0
    for meld in melds:
        m_add, m_bits, m_lo, m_hi, t_lo, t_hi, five = MELD[meld.type][meld.tiles[0] >> 2]
        add += m_add
        bits |= m_bits
        shape_lo += m_lo
        shape_hi += m_hi
        tiles_lo += t_lo
        tiles_hi += t_hi
        if five and red:
            aka += len(rules.red.intersection(meld.tiles))
    groups, menzen, kans, size = _MELD_FACTS[add >> F_GROUPS]
    if len(concealed) != size:
        return None
    winds = 4 * seat + round_wind - 135  # East East = 0
    honours = shape_hi >> 27
    mask, yakuman = of_hand(
        shape_lo & PART_MASK, shape_lo >> 27, shape_hi & PART_MASK, honours,
        fields, rules, kuitan, menzen, groups, kans, win, winds,
    )  # fmt: skip
    dora_at = _DORA_AT[players]
    dora = 0
    for i in dora_indicators:
        high, shift = dora_at[i]
        dora += (tiles_hi if high else tiles_lo) >> shift & 7
    ura = 0
    if riichi or double_riichi:
        for i in ura_indicators:
            high, shift = dora_at[i]
            ura += (tiles_hi if high else tiles_lo) >> shift & 7
    extra = dora + aka + ura + kita
    han_of = HAN_CHUNKS[menzen]
    key = -1
    best_mask = best_han = best_fu = 0
    best_yakuman: tuple[int, ...] = ()
    best_parts: Parts | None = None  # None: chiitoitsu or kokushi, or nothing yet
    if not groups:
        if not (lo & ODD_OR_FOUR_LO or hi & ODD_OR_FOUR_HI):  # seven pairs: read first
            if yakuman:
                key, best_yakuman = yakuman_key(yakuman, double), yakuman
            else:
                best_mask = mask | CHIITOITSU
                han = mask_han(han_of, best_mask)
                if han >= min_han:
                    best_han, best_fu = han + extra, 25
                    key = hand_key(best_han, 25, rules)
        elif (
            not (lo & SIMPLE_LO or hi & SIMPLE_HI)
            and (lo | lo >> 1 | lo >> 2) & KOKUSHI_LO == KOKUSHI_LO
            and (hi | hi >> 1 | hi >> 2) & KOKUSHI_HI == KOKUSHI_HI
        ):
            paired = (hi if win >= 18 else lo) >> KIND_SHIFT[win] & 7 == 2
            best_yakuman = (*yakuman, KOKUSHI_13 if paired else KOKUSHI)
            key = yakuman_key(best_yakuman, double)
    # the standard readings: none when some part is not groups (and a pair); the one of a
    # hand whose parts each read one way in locals, without building a tuple for it
    count = a1 = b1 = w1 = 0
    several: list[tuple[int, int, int, Parts | None]] | None = None
    man, pin, sou = lo & PART_MASK, lo >> 27, hi & PART_MASK
    m = _SUIT_PACKED.get(man, -1) if man else 0  # see tables.P_MULTI
    p = _SUIT_PACKED.get(pin, -1) if pin else 0
    s = _SUIT_PACKED.get(sou, -1) if sou else 0
    hon = _R_HONOUR.get(hi >> 27)
    if m >= 0 and p >= 0 and s >= 0 and hon is not None:
        ha, _, hw, hr = hon
        # placed in their suits: the pair kind (+9 a suit), sequence starts and triplets
        a1 = add + (m & P_ADD) + (p & P_ADD) + (s & P_ADD) + ha
        a1 += (p & 7) * _PIN_PAIR + (s & 7) * _SOU_PAIR
        part, at = _WAIT_AT[win]
        if (m | p | s) >> P_MULTI & 1:  # some part reads several ways
            several = every_reading(
                _R_MAN[man][3], _R_PIN[pin][3], _R_SOU[sou][3], hr[0], add, bits, part, at
            )
            count = len(several)
        else:
            m >>= P_BITS
            p >>= P_BITS
            s >>= P_BITS
            b1 = bits | (m & 127) | (p & 127) << 7 | (s & 127) << 14
            b1 |= (m >> 7 & 511) << B_TRIP | (p >> 7 & 511) << B_TRIP + 9
            b1 |= (s >> 7 & 511) << B_TRIP + 18
            if part == 0:
                w1 = _SUIT_WAITS[m >> _WAITS] >> 5 * at & 31
            elif part == 1:
                w1 = _SUIT_WAITS[p >> _WAITS] >> 5 * at & 31
            elif part == 2:
                w1 = _SUIT_WAITS[s >> _WAITS] >> 5 * at & 31
            else:
                w1 = hw[at]
            count = 1
    low_keys = LOW_KEYS[kiriage]
    won = WON_FU[tsumo][menzen]
    pair_value = PAIR_VALUE[double_wind][winds]
    of_counts = OF_COUNTS[menzen][honours != 0]
    r: Parts | None = None
    for i in range(count):
        if several is None:
            a, b, waits = a1, b1, w1
        else:
            a, b, waits, r = several[i]
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
                if k > key or (k == key and found != best_yakuman and comes_first(r, best_parts)):
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
            # result.mask_han and points.hand_key, inlined: this runs for every reading and wait
            if found_mask < 8192:  # the first chunk only (over 40% of hands)
                han = han_of[0][found_mask]
            else:
                han = han_of[0][found_mask & 8191] + han_of[1][found_mask >> 13 & 8191]
                han += han_of[2][found_mask >> 26]
            if han < min_han:
                continue
            fu = ROUND_UP[fu]
            if fu == 20 and not tsumo:  # an open ron with nothing to count
                fu = open_pinfu_ron_fu
            han += extra
            if han < 5:
                k = low_keys[han][fu]
            else:
                k = LIMIT_KEYS[kazoe][han if han < 13 else 13] | han << 8 | fu
            if k > key or (k == key and found_mask != best_mask and comes_first(r, best_parts)):
                key, best_mask, best_yakuman, best_parts = k, found_mask, (), r
                best_han, best_fu = han, fu
    if key < 0:
        return None
    if best_yakuman:
        cap = rules.yakuman_cap
        if cap and key >> 17 > 8000 * cap:  # WRC: one yakuman at most
            key = (8000 * cap) << 17 | YAKUMAN_BIT | 13 * cap << 8
    return _hand_result(
        key,
        best_han,
        best_fu,
        best_mask,
        best_yakuman,
        menzen,
        dora,
        aka,
        ura,
        kita,
        double,
        _DEALER[seat],
    )


def _hand_result(
    key: int,
    han: int,
    fu: int,
    mask: int,
    yakuman: tuple[int, ...],
    menzen: int,
    n_dora: int,
    aka: int,
    ura: int,
    kita: int,
    double_yakuman: bool,
    dealer: int,
) -> HandResult:
    """The result of the best reading: ``key`` packs base << 17 | han << 8 | fu (scoring's
    comparison key), ``mask`` its regular yaku, or ``yakuman`` its yakuman (when han and fu
    are read off the key); the dora counts are dropped for yakuman."""
    payment = _PAYMENTS[dealer][(key >> 17) // 20]
    if payment is None:
        raise ValueError(f"no hand is worth a base of {key >> 17}")
    ron, tsumo_dealer, tsumo_other, limit, multiplier = payment
    yaku: tuple[YakuHan, ...]
    if yakuman:  # real yakuman: no dora, no fu
        entries = _YAKUMAN_DOUBLE if double_yakuman else _YAKUMAN
        yaku = tuple([entries[i] for i in yakuman])
        han, fu = key >> 8 & 255, 0
        n_dora = aka = ura = kita = 0
        limit = "yakuman"
        multiplier = han // 13
    else:
        chunks = _ENTRY_CHUNKS[menzen]
        if mask < 8192:
            yaku = chunks[0][mask]
        else:
            yaku = chunks[0][mask & 8191] + chunks[1][mask >> 13 & 8191] + chunks[2][mask >> 26]
        if n_dora + kita:  # Tenhou prints nukidora inside ドラ
            yaku += _DORA[n_dora + kita]
        if aka:
            yaku += _AKA[aka]
        if ura:
            yaku += _URA[ura]
    return _HAND_RESULT(
        han, fu, yaku, multiplier, n_dora, aka, ura, kita, key >> 17, limit, ron,
        tsumo_dealer, tsumo_other,
    )  # fmt: skip
