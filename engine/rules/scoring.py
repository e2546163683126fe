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
from engine.rules.meld import Meld, MeldType
from engine.rules.points import base_points, payments
from engine.rules.tiles import dora_of
from engine.rules.yaku import KOKUSHI, REGULAR, HandInfo
from engine.rules.yaku.shapes import Reading, interpretations
from engine.rules.yaku.tables import HAND_YAKU, HAND_YAKUMAN, PINFU, SHAPE_YAKU, SHAPE_YAKUMAN


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

_CLOSED = tuple(YakuHan(y.name, y.closed, y.tenhou) for y in REGULAR)
_OPENED = tuple(YakuHan(y.name, y.opened, y.tenhou) for y in REGULAR)
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
    shapes = interpretations(h, closed, meld_shuntsu, meld_koutsu, ankans)
    if not shapes:
        return None
    dora = _dora(closed, concealed, melds, ctx, rules)
    best = _best(h, shapes, sum(dora), meld_fu(groups))
    return None if best is None else _result(best, dora, h.dealer)


def _best(
    h: HandInfo,
    shapes: list[Reading],
    dora: int,
    melds_fu: int,
) -> _Scored | None:
    """The interpretation worth the most (ties: more han, then more fu)."""
    rules = h.rules
    double = rules.double_yakuman
    probe = shapes[0][0]  # hand-level units do not read the shape
    hand_yakuman = [
        y for gate, units in HAND_YAKUMAN if getattr(h, gate) for y in units if y.test(h, probe)
    ]
    entries = _CLOSED if h.menzen else _OPENED
    shape_units = SHAPE_YAKU[h.menzen]
    hand_han = 0
    hand_idx: list[int] = []
    for gate, units in HAND_YAKU[h.menzen]:
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
            yakuman = yakuman + [y for y in SHAPE_YAKUMAN if y.test(h, s)]
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
            pinfu = PINFU in idx
            fu = hand_fu(h, s.form, s.pair, closed_koutsu, ron_koutsu, s.wait, melds_fu, pinfu)
            han += dora
            key = (base_points(han, fu, 0, rules)[0], 0, han, fu)
            yaku = [entries[i] for i in sorted(idx)]
        if best is None or key > best[0]:
            best = key, yaku
    return best


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
