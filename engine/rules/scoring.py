"""Score a winning hand: every interpretation, its yaku and fu, the best one, dora, payments.

The one entry point is ``score_hand``; ``preview_value`` is the guaranteed minimum a waiting
hand shows before it wins (seed 000). Results are msgspec structs, ready for the wire and for
records.

Speed (bench/hand.py) comes from work done at import: the hand becomes one integer code
(``yaku.records``), each part's readings are looked up with their feature records already
packed, so a reading is a few additions and masks; yaku are bits of a mask (``yaku.hand``,
``yaku.reading``), their han and entries are table lookups, and no result object is built
until the best reading is known.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

import msgspec

from engine.rules.config import RuleConfig
from engine.rules.fu import ANKOU_FU, WON_FU, pair_fu
from engine.rules.meld import Meld
from engine.rules.points import LIMITS, MANGAN, payments
from engine.rules.tiles import dora_of
from engine.rules.yaku import (
    CHIITOITSU,
    KOKUSHI,
    KOKUSHI_13,
    PINFU,
    REGULAR,
    SANANKOU,
    SUUANKOU,
    SUUANKOU_TANKI,
    YAKUMAN,
)
from engine.rules.yaku.hand import of_hand
from engine.rules.yaku.reading import GROUP_YAKU_POSSIBLE, of_groups
from engine.rules.yaku.records import (
    CODE,
    F_ANKOU,
    F_FU,
    F_GROUPS,
    F_KANS,
    F_MULTI,
    F_OPEN,
    F_PAIR,
    F_SEQ,
    KINDS_MASK,
    KOKUSHI_ONES,
    MELD,
    ODD_OR_FOUR,
    PART_MASK,
    READINGS,
    RED_SHIFT,
    SIMPLE_MASK,
    W_KANCHAN,
    W_PENCHAN,
    W_RYANMEN,
    W_SHANPON,
    W_TANKI,
    Reading,
    red_mask,
)


class WinContext(msgspec.Struct, frozen=True, kw_only=True):
    """How the hand was won: the tile, the winds, the declared and lucky circumstances."""

    win_tile: int
    tsumo: bool
    seat_wind: int
    round_wind: int
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    kita: int = 0


class YakuHan(msgspec.Struct, frozen=True):
    name: str
    han: int
    tenhou: str


class HandResult(msgspec.Struct, frozen=True):
    han: int
    fu: int
    yaku: tuple[YakuHan, ...]
    yakuman: int
    dora: int
    aka: int
    ura: int
    kita: int
    base: int
    limit: str
    ron: int
    tsumo_dealer: int
    tsumo_other: int


_CLOSED = tuple(YakuHan(y.name, y.closed, y.tenhou) for y in REGULAR)
_OPENED = tuple(YakuHan(y.name, y.opened, y.tenhou) for y in REGULAR)
_YAKUMAN = tuple(YakuHan(y.name, 13, y.tenhou) for y in YAKUMAN)
_YAKUMAN_DOUBLE = tuple(YakuHan(y.name, 26 if y.double else 13, y.tenhou) for y in YAKUMAN)
_LIMIT_NAMES = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman", 8000: "yakuman"}
#: [sanma][indicator tile] -> the shift of its dora kind's count in a hand code
_DORA_SHIFT = tuple(
    tuple(3 * dora_of(t >> 2, sanma) for t in range(136)) for sanma in (False, True)
)
#: CODE by tile id. A list only because list.__getitem__ is a fast builtin method (a tuple's
#: goes through a slot wrapper, ~35% slower inside ``sum(map(...))``); never mutated.
_CODE_OF = list(CODE).__getitem__
#: rule's aka -> red_mask(aka), for every rule up to four red fives a suit
_RED_MASKS = {(m, p, s): red_mask((m, p, s)) for m in range(5) for p in range(5) for s in range(5)}
_R_MAN, _R_PIN, _R_SOU, _R_HONOUR = READINGS
#: (part, shift of its waits in a reading) of each winning kind
_WAIT_AT = tuple((min(k // 9, 3), 5 * (k - 9 * min(k // 9, 3))) for k in range(34))
#: base points of 5..13+ han: [kazoe_yakuman][min(han, 13)]
_LIMIT_BASE = (
    (0,) * 5 + (2000, 3000, 3000, 4000, 4000, 4000, 6000, 6000, 6000),
    (0,) * 5 + (2000, 3000, 3000, 4000, 4000, 4000, 6000, 6000, 8000),
)
_Parts = tuple[Reading, Reading, Reading]
_LOW_WAIT = W_TANKI | W_KANCHAN | W_PENCHAN  # +2 fu


_Chunks = tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[YakuHan, ...], ...], ...]]


def _chunked(menzen: bool) -> _Chunks:
    """Han and entries of a yaku mask in three 13-bit chunks, so a mask's han is three
    lookups."""
    entries = _CLOSED if menzen else _OPENED
    hans: list[tuple[int, ...]] = []
    yakus: list[tuple[tuple[YakuHan, ...], ...]] = []
    for chunk in range(3):
        han = [0] * 8192
        yaku: list[tuple[YakuHan, ...]] = [()] * 8192
        for m in range(1, 8192):
            i = 13 * chunk + (m & -m).bit_length() - 1
            rest = m & m - 1
            han[m] = han[rest] + (entries[i].han if i < len(entries) else 0)
            yaku[m] = (entries[i], *yaku[rest]) if i < len(entries) else yaku[rest]
        hans.append(tuple(han))
        yakus.append(tuple(yaku))
    return tuple(hans), tuple(yakus)


#: [menzen] -> (han per chunk, entries per chunk) of ``_chunked``
_MASKS = (_chunked(False), _chunked(True))


def score_hand(
    concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> HandResult | None:
    """The best reading of a complete hand, or None (incomplete, no yaku, under min_han)."""
    code = sum(map(_CODE_OF, concealed))  # the concealed tiles; see records.CODE
    red = _RED_MASKS[rules.aka]
    aka = (code >> RED_SHIFT & red).bit_count()
    code &= KINDS_MASK
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
            aka += (sum(map(_CODE_OF, meld.tiles)) >> RED_SHIFT & red).bit_count()
    groups = add >> F_GROUPS & 7
    menzen = not add >> F_OPEN & 7
    kans = add >> F_KANS & 7
    if len(concealed) != 14 - 3 * groups:
        return None
    mask, yakuman = of_hand(shape, ctx, rules, menzen, groups, kans, win)
    seat, rnd, tsumo = ctx.seat_wind, ctx.round_wind, ctx.tsumo
    shift = _DORA_SHIFT[rules.players == 3]
    dora = 0
    for i in ctx.dora_indicators:
        dora += tiles >> shift[i] & 7
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        for i in ctx.ura_indicators:
            ura += tiles >> shift[i] & 7
    extra = dora + aka + ura + ctx.kita
    double = rules.double_yakuman
    han_of = _MASKS[menzen][0]
    key = -1
    best_mask = 0
    best_yakuman: tuple[int, ...] = ()
    best_parts: _Parts | None = None  # None: chiitoitsu or kokushi, or nothing yet
    if not groups:
        if not code & ODD_OR_FOUR:  # seven pairs: a reading before the standard ones
            if yakuman:
                key, best_yakuman = _yakuman_key(yakuman, double), yakuman
            else:
                best_mask = mask | CHIITOITSU
                han = _han(han_of, best_mask)
                key = _key(han, 25, extra, rules) if han >= rules.min_han else -1
        elif (
            not code & SIMPLE_MASK and (code | code >> 1 | code >> 2) & KOKUSHI_ONES == KOKUSHI_ONES
        ):
            best_yakuman = (*yakuman, KOKUSHI_13 if code >> 3 * win & 7 == 2 else KOKUSHI)
            key = _yakuman_key(best_yakuman, double)
    readings: Iterable[tuple[int, int, int, _Parts | None]] = ()
    try:
        man = _R_MAN[code & PART_MASK]
        pin = _R_PIN[code >> 27 & PART_MASK]
        sou = _R_SOU[code >> 54 & PART_MASK]
        m, p, s, h = man[0], pin[0], sou[0], _R_HONOUR[code >> 81][0]
    except KeyError:  # some part is not groups (and a pair): no standard reading
        pass
    else:
        a = add + m[0] + p[0] + s[0] + h[0]
        part, at = _WAIT_AT[win]
        if a >> F_MULTI:  # some part reads several ways
            readings = _readings(man, pin, sou, h, add, bits, part, at)
        else:
            readings = ((a, bits | m[1] | p[1] | s[1], (m, p, s, h)[part][2] >> at & 31, None),)
    min_han = rules.min_han
    won = WON_FU[tsumo][menzen]
    for a, b, waits, r in readings:
        if a & 7 != 1:  # exactly one part holds the pair
            continue
        groups_mask = mask
        if GROUP_YAKU_POSSIBLE[a >> F_SEQ & 0o7777]:
            groups_mask |= of_groups(a, b, menzen, shape >> 81 != 0)
        ankou = a >> F_ANKOU & 7
        pair = (a >> F_PAIR & 63) - 1
        fixed = won + (a >> F_FU & 255)
        if pair >= 27:
            fixed += pair_fu(pair, seat, rnd, rules)
        # pinfu: four sequences, a valueless pair, closed (and a two-sided wait)
        pinfu = (
            menzen
            and a >> F_SEQ & 7 == 4
            and (pair < 27 or (pair < 31 and pair != seat and pair != rnd))
        )
        while waits:
            wait = waits & -waits
            waits ^= wait
            an = ankou
            fu = fixed
            if wait == W_SHANPON and not tsumo:  # the ron completed an open triplet
                an -= 1
                fu -= ANKOU_FU[win] >> 1
            if an == 4 or yakuman:
                found = yakuman
                if an == 4:
                    found = (*yakuman, SUUANKOU_TANKI if wait == W_TANKI else SUUANKOU)
                k = _yakuman_key(found, double)
                if k > key or (k == key and found != best_yakuman and _first(r, best_parts)):
                    key, best_mask, best_yakuman, best_parts = k, 0, found, r
                continue
            found_mask = groups_mask | SANANKOU if an == 3 else groups_mask
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
            if fu != 20:
                fu = (fu + 9) // 10 * 10
            elif not tsumo:  # an open ron with nothing to count (pinfu tsumo stays 20)
                fu = rules.open_pinfu_ron_fu
            han += extra
            if han >= 5:
                k = _LIMIT_BASE[rules.kazoe_yakuman][han if han < 13 else 13] << 17 | han << 8 | fu
            else:
                k = fu << han + 2
                if k >= 2000 or (k == 1920 and rules.kiriage):
                    k = 2000
                k = k << 17 | han << 8 | fu
            if k > key or (k == key and found_mask != best_mask and _first(r, best_parts)):
                key, best_mask, best_yakuman, best_parts = k, found_mask, (), r
    if key < 0:
        return None
    return _result(key, best_mask, best_yakuman, menzen, (dora, aka, ura, ctx.kita), rules, seat)


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
    ``add`` and ``bits`` are the melds'."""
    add += h[0]
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


def _han(han_of: tuple[tuple[int, ...], ...], mask: int) -> int:
    return han_of[0][mask & 8191] + han_of[1][mask >> 13 & 8191] + han_of[2][mask >> 26]


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


def _key(han: int, fu: int, extra: int, rules: RuleConfig) -> int:
    """Base points, han (with ``extra`` dora) and fu packed so the reading worth the most has
    the largest key."""
    han += extra
    if han >= 5:
        base = _LIMIT_BASE[rules.kazoe_yakuman][han if han < 13 else 13]
    else:
        base = fu << han + 2
        if base >= 2000 or (rules.kiriage and base == 1920):
            base = 2000
    return base << 17 | han << 8 | fu


def _yakuman_key(found: tuple[int, ...], double: bool) -> int:
    han = sum(26 if double and YAKUMAN[i].double else 13 for i in found)
    return (han // 13 * 8000) << 17 | 1 << 16 | han << 8


def _result(
    key: int,
    mask: int,
    yakuman: tuple[int, ...],
    menzen: bool,
    dora: tuple[int, int, int, int],
    rules: RuleConfig,
    seat: int,
) -> HandResult:
    base, han, fu = key >> 17, key >> 8 & 255, key & 255
    ron, tsumo_dealer, tsumo_other, limit, multiplier = _PAYMENTS[seat == 27][base]
    if key >> 16 & 1:  # real yakuman: no dora, no fu
        entries = _YAKUMAN_DOUBLE if rules.double_yakuman else _YAKUMAN
        yaku = tuple(entries[i] for i in yakuman)
        n_dora = aka = ura = kita = 0
        limit = "yakuman"
        multiplier = han // 13
    else:
        n_dora, aka, ura, kita = dora
        chunks = _MASKS[menzen][1]
        yaku = chunks[0][mask & 8191] + chunks[1][mask >> 13 & 8191] + chunks[2][mask >> 26]
        if n_dora + kita:  # Tenhou prints nukidora inside ドラ
            yaku += (_DORA[n_dora + kita],)
        if aka:
            yaku += (_AKA[aka],)
        if ura:
            yaku += (_URA[ura],)
    return HandResult(
        han, fu, yaku, multiplier, n_dora, aka, ura, kita, base, limit, ron,
        tsumo_dealer, tsumo_other,
    )  # fmt: skip


def _bases() -> set[int]:
    """Every base a hand can be worth: fu x 2^(han+2) below mangan, the limits, yakuman
    multiples."""
    below = {fu << han + 2 for fu in range(20, 180, 5) for han in range(0, 5)}
    return (
        {b for b in below if b < MANGAN}
        | {MANGAN}
        | {b for _, b, _ in LIMITS}
        | {8000 * n for n in range(1, 13)}
    )


#: [dealer][base] -> (*payments(base, dealer), limit name, yakuman multiplier of a kazoe)
_PAYMENTS = tuple(
    {b: (*payments(b, dealer), _LIMIT_NAMES.get(b, ""), int(b == 8000)) for b in _bases()}
    for dealer in (False, True)
)
#: [n] -> the ドラ / 赤ドラ / 裏ドラ entry of n dora
_DORA = tuple(YakuHan("dora", n, "ドラ") for n in range(64))
_AKA = tuple(YakuHan("aka", n, "赤ドラ") for n in range(13))
_URA = tuple(YakuHan("ura", n, "裏ドラ") for n in range(64))


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
