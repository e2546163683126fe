"""Score a winning hand: every interpretation, its yaku and fu, the best one, dora, payments.

The one entry point is ``score_hand``; ``preview_value`` is the guaranteed minimum a waiting
hand shows before it wins (seed 000). Results are msgspec structs, ready for the wire and for
records.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.rules.config import RuleConfig
from engine.rules.fu import hand_fu, meld_fu
from engine.rules.hand import decompose, is_chiitoitsu, is_kokushi
from engine.rules.meld import Meld, MeldType
from engine.rules.points import base_points, payments
from engine.rules.tiles import dora_of
from engine.rules.yaku import (
    CHIITOITSU,
    KANCHAN,
    KOKUSHI,
    PENCHAN,
    REGULAR,
    RYANMEN,
    SHANPON,
    STANDARD,
    TANKI,
    YAKUMAN,
    HandInfo,
    Shape,
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


#: one scored interpretation: ((base, real yakuman, han, fu), yaku, yakuman multiplier)
_Scored = tuple[tuple[int, int, int, int], list[YakuHan], int]


def score_hand(
    concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> HandResult | None:
    """The best reading of a complete hand, or None (incomplete, no yaku, under min_han)."""
    closed = [0] * 34
    for t in concealed:
        closed[t >> 2] += 1
    win = ctx.win_tile >> 2
    groups = [m for m in melds if m.type != MeldType.KITA]
    if len(concealed) != 14 - 3 * len(groups) or not closed[win]:
        return None
    counts = closed.copy()
    meld_shuntsu: list[int] = []
    meld_koutsu: list[int] = []
    kans = ankans = 0
    menzen = True
    for m in groups:
        k = m.tiles[0] >> 2
        if m.type == MeldType.CHII:
            meld_shuntsu.append(k)
            counts[k] += 1
            counts[k + 1] += 1
            counts[k + 2] += 1
        else:
            meld_koutsu.append(k)
            counts[k] += 3
            kans += m.type != MeldType.PON
            ankans += m.type == MeldType.ANKAN
        menzen = menzen and m.type == MeldType.ANKAN
    h = HandInfo(counts, ctx, rules, menzen, not groups, kans)
    dora = _dora(concealed, melds, ctx, rules)
    best: _Scored | None = None
    for shape, args in _shapes(h, closed, meld_shuntsu, meld_koutsu, ankans):
        scored = _score_shape(h, shape, args, dora, meld_fu(groups))
        if scored is not None and (best is None or scored[0] > best[0]):
            best = scored
    if best is None:
        return None
    return _result(best, dora, h.dealer)


def _shapes(
    h: HandInfo, closed: list[int], meld_shuntsu: list[int], meld_koutsu: list[int], ankans: int
) -> list[tuple[Shape, tuple[tuple[int, ...], int]]]:
    """Every interpretation, with (closed triplets, triplet completed by ron) for fu."""
    out: list[tuple[Shape, tuple[tuple[int, ...], int]]] = []
    if h.no_melds:
        if is_kokushi(closed):
            return [(Shape(KOKUSHI, -1, (), (), 0, TANKI), ((), -1))]
        if is_chiitoitsu(closed):
            out.append((Shape(CHIITOITSU, -1, (), (), 0, TANKI), ((), -1)))
    w = h.win_kind
    for d in decompose(closed):
        seqs = tuple(sorted(d.shuntsu + tuple(meld_shuntsu))) if meld_shuntsu else d.shuntsu
        trips = tuple(sorted(d.koutsu + tuple(meld_koutsu))) if meld_koutsu else d.koutsu
        ankou = len(d.koutsu) + ankans
        if d.pair == w:
            out.append((Shape(STANDARD, d.pair, seqs, trips, ankou, TANKI), (d.koutsu, -1)))
        seen = set()
        for s in d.shuntsu:
            if s <= w <= s + 2:
                wait = _seq_wait(s, w)
                if wait not in seen:
                    seen.add(wait)
                    out.append((Shape(STANDARD, d.pair, seqs, trips, ankou, wait), (d.koutsu, -1)))
        if w in d.koutsu:
            if h.tsumo:
                out.append((Shape(STANDARD, d.pair, seqs, trips, ankou, SHANPON), (d.koutsu, -1)))
            else:
                rest = list(d.koutsu)
                rest.remove(w)
                shape = Shape(STANDARD, d.pair, seqs, trips, ankou - 1, SHANPON)
                out.append((shape, (tuple(rest), w)))
    return out


def _seq_wait(start: int, win: int) -> int:
    """How the winning tile completed the sequence starting at ``start``."""
    pos = win - start
    if pos == 1:
        return KANCHAN
    if (pos == 2 and start % 9 == 0) or (pos == 0 and start % 9 == 6):
        return PENCHAN
    return RYANMEN


def _score_shape(
    h: HandInfo,
    s: Shape,
    args: tuple[tuple[int, ...], int],
    dora: tuple[int, int, int, int],
    melds_fu: int,
) -> _Scored | None:
    """Yakuman of a shape if any, else its regular yaku, fu and dora; None without a yaku."""
    rules = h.rules
    yaku: list[YakuHan] = []
    multiplier = 0
    for ym in YAKUMAN:
        if ym.test(h, s):
            times = 2 if ym.double and rules.double_yakuman else 1
            multiplier += times
            yaku.append(YakuHan(ym.name, 13 * times, ym.tenhou))
    if multiplier:
        base, _ = base_points(0, 0, multiplier, rules)
        return (base, 1, 13 * multiplier, 0), yaku, multiplier
    han = 0
    pinfu = False
    for y in REGULAR:
        value = y.closed if h.menzen else y.opened
        if value and y.test(h, s):
            han += value
            pinfu = pinfu or y.name == "pinfu"
            yaku.append(YakuHan(y.name, value, y.tenhou))
    if not yaku or han < rules.min_han:
        return None
    closed_koutsu, ron_koutsu = args
    fu = hand_fu(h, s.form, s.pair, closed_koutsu, ron_koutsu, s.wait, melds_fu, pinfu)
    han += sum(dora)
    base, _ = base_points(han, fu, 0, rules)
    return (base, 0, han, fu), yaku, 0


def _dora(
    concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> tuple[int, int, int, int]:
    """(dora, aka, ura, kita) over every tile of the hand, kita included; ura needs riichi."""
    full = [0] * 34
    aka = 0
    red = rules.red
    for tiles in (concealed, *(m.tiles for m in melds)):
        for t in tiles:
            full[t >> 2] += 1
            aka += t in red
    sanma = rules.sanma
    dora = sum(full[dora_of(i >> 2, sanma)] for i in ctx.dora_indicators)
    ura = 0
    if ctx.riichi or ctx.double_riichi:
        ura = sum(full[dora_of(i >> 2, sanma)] for i in ctx.ura_indicators)
    return dora, aka, ura, ctx.kita


def _result(best: _Scored, dora: tuple[int, int, int, int], dealer: bool) -> HandResult:
    (base, real, han, fu), yaku, multiplier = best
    n_dora, aka, ura, kita = dora if not real else (0, 0, 0, 0)
    limit = "yakuman" if real else ""
    if not real:
        # Tenhou prints nukidora inside ドラ
        for name, tenhou, n in (("dora", "ドラ", n_dora + kita), ("aka", "赤ドラ", aka)):
            if n:
                yaku.append(YakuHan(name, n, tenhou))
        if ura:
            yaku.append(YakuHan("ura", ura, "裏ドラ"))
        if base >= 2000:
            limit = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}.get(
                base, "yakuman"
            )
        multiplier = 1 if base == 8000 else 0
    ron, tsumo_dealer, tsumo_other = payments(base, dealer)
    return HandResult(
        han, fu, tuple(yaku), multiplier, n_dora, aka, ura, kita, base, limit, ron,
        tsumo_dealer, tsumo_other,
    )  # fmt: skip


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
