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
from engine.rules.yaku.unit import Test


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


#: one scored interpretation: ((base, real yakuman, han, fu), yaku entries)
_Scored = tuple[tuple[int, int, int, int], list[YakuHan]]

# The unit tables, split once: conditions on the tiles and the situation are tested once per
# hand, conditions on the shape once per interpretation. Entries are prebuilt per unit.
_Units = tuple[tuple[int, Test, int], ...]
_Gated = tuple[tuple[str, _Units], ...]


def _units(shape: bool, menzen: bool) -> _Units:
    """(index, condition, han) of the regular units worth something with this hand."""
    out = []
    for i, y in enumerate(REGULAR):
        han = y.closed if menzen else y.opened
        if han and y.shape == shape:
            out.append((i, y.test, han))
    return tuple(out)


def _gated(units: _Units) -> _Gated:
    """Hand-level units grouped by gate, so one flag check can skip a whole group."""
    gates = sorted({REGULAR[i].gate for i, _, _ in units})
    return tuple((g, tuple(u for u in units if REGULAR[u[0]].gate == g)) for g in gates)


def _by_shape(units: _Units) -> tuple[tuple[_Units, ...], ...]:
    """Shape units by [form][number of sequences]: only those that can hold there."""
    return tuple(
        tuple(
            tuple(u for u in units if REGULAR[u[0]].form == form and n in REGULAR[u[0]].seqs)
            for n in range(5)
        )
        for form in (STANDARD, CHIITOITSU, KOKUSHI)
    )


#: [menzen] -> hand-level units by gate / shape units by form and sequence count
_HAND_YAKU = (_gated(_units(False, False)), _gated(_units(False, True)))
_SHAPE_YAKU = (_by_shape(_units(True, False)), _by_shape(_units(True, True)))
_HAND_YAKUMAN = tuple(
    (g, tuple(y for y in YAKUMAN if not y.shape and y.gate == g))
    for g in sorted({y.gate for y in YAKUMAN if not y.shape})
)
_SHAPE_YAKUMAN = tuple(y for y in YAKUMAN if y.shape)
_CLOSED = tuple(YakuHan(y.name, y.closed, y.tenhou) for y in REGULAR)
_OPENED = tuple(YakuHan(y.name, y.opened, y.tenhou) for y in REGULAR)
_PINFU = next(i for i, y in enumerate(REGULAR) if y.name == "pinfu")
_LIMIT_NAMES = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman", 8000: "yakuman"}
#: dora kind per indicator kind, four-player and sanma
_DORA_OF = (tuple(dora_of(k) for k in range(34)), tuple(dora_of(k, True) for k in range(34)))


def score_hand(
    concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> HandResult | None:
    """The best reading of a complete hand, or None (incomplete, no yaku, under min_han)."""
    closed = [0] * 34
    for t in concealed:
        closed[t >> 2] += 1
    groups = [m for m in melds if m.type != MeldType.KITA]
    if len(concealed) != 14 - 3 * len(groups) or not closed[ctx.win_tile >> 2]:
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
    shapes = _shapes(h, closed, meld_shuntsu, meld_koutsu, ankans)
    if not shapes:
        return None
    dora = _dora(closed, concealed, melds, ctx, rules)
    best = _best(h, shapes, sum(dora), meld_fu(groups))
    return None if best is None else _result(best, dora, h.dealer)


def _best(
    h: HandInfo,
    shapes: list[tuple[Shape, tuple[tuple[int, ...], int]]],
    dora: int,
    melds_fu: int,
) -> _Scored | None:
    """The interpretation worth the most (ties: more han, then more fu)."""
    rules = h.rules
    double = rules.double_yakuman
    probe = shapes[0][0]  # hand-level units do not read the shape
    hand_yakuman = [
        y for gate, units in _HAND_YAKUMAN if getattr(h, gate) for y in units if y.test(h, probe)
    ]
    entries = _CLOSED if h.menzen else _OPENED
    shape_units = _SHAPE_YAKU[h.menzen]
    hand_han = 0
    hand_idx: list[int] = []
    for gate, units in _HAND_YAKU[h.menzen]:
        if gate and not getattr(h, gate):
            continue
        for i, test, value in units:
            if test(h, probe):
                hand_han += value
                hand_idx.append(i)
    best: _Scored | None = None
    for s, (closed_koutsu, ron_koutsu) in shapes:
        yakuman = hand_yakuman
        if s.form == KOKUSHI or s.ankou == 4:  # the only shapes a shape-level yakuman needs
            yakuman = yakuman + [y for y in _SHAPE_YAKUMAN if y.test(h, s)]
        if yakuman:
            yaku = [YakuHan(y.name, 26 if y.double and double else 13, y.tenhou) for y in yakuman]
            han = sum(y.han for y in yaku)
            key = (han // 13 * 8000, 1, han, 0)
        else:
            han = hand_han
            idx = hand_idx.copy()
            for i, test, value in shape_units[s.form][len(s.shuntsu)]:
                if test(h, s):
                    han += value
                    idx.append(i)
            if not idx or han < rules.min_han:
                continue
            pinfu = _PINFU in idx
            fu = hand_fu(h, s.form, s.pair, closed_koutsu, ron_koutsu, s.wait, melds_fu, pinfu)
            han += dora
            key = (base_points(han, fu, 0, rules)[0], 0, han, fu)
            yaku = [entries[i] for i in sorted(idx)]
        if best is None or key > best[0]:
            best = key, yaku
    return best


def _shapes(
    h: HandInfo, closed: list[int], meld_shuntsu: list[int], meld_koutsu: list[int], ankans: int
) -> list[tuple[Shape, tuple[tuple[int, ...], int]]]:
    """Every interpretation, with (closed triplets, triplet completed by ron) for fu."""
    out: list[tuple[Shape, tuple[tuple[int, ...], int]]] = []
    if h.no_melds:
        n_kinds = len(h.kinds)  # 13 for kokushi, 7 for chiitoitsu: skip both tests otherwise
        if n_kinds == 13 and is_kokushi(closed):
            return [(Shape(KOKUSHI, -1, (), (), 0, TANKI), ((), -1))]
        if n_kinds == 7 and is_chiitoitsu(closed):
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


def _dora(
    closed: list[int],
    concealed: Sequence[int],
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: RuleConfig,
) -> tuple[int, int, int, int]:
    """(dora, aka, ura, kita) over every tile of the hand, kita included; ura needs riichi."""
    red = rules.red
    aka = len(red.intersection(concealed))
    full = closed
    if melds:
        full = closed.copy()
        for m in melds:
            aka += len(red.intersection(m.tiles))
            for t in m.tiles:
                full[t >> 2] += 1
    table = _DORA_OF[rules.players == 3]
    dora = ura = 0
    for i in ctx.dora_indicators:
        dora += full[table[i >> 2]]
    if ctx.riichi or ctx.double_riichi:
        for i in ctx.ura_indicators:
            ura += full[table[i >> 2]]
    return dora, aka, ura, ctx.kita


def _result(best: _Scored, dora: tuple[int, int, int, int], dealer: bool) -> HandResult:
    (base, real, han, fu), yaku = best
    n_dora, aka, ura, kita = dora if not real else (0, 0, 0, 0)
    limit = "yakuman" if real else ""
    multiplier = han // 13 if real else 0
    if not real:
        # Tenhou prints nukidora inside ドラ
        for name, tenhou, n in (("dora", "ドラ", n_dora + kita), ("aka", "赤ドラ", aka)):
            if n:
                yaku.append(YakuHan(name, n, tenhou))
        if ura:
            yaku.append(YakuHan("ura", ura, "裏ドラ"))
        limit = _LIMIT_NAMES.get(base, "")
        multiplier = 1 if base == 8000 else 0  # kazoe yakuman
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
