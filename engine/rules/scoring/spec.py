"""The scoring rules written to be read: ``spec_score`` tries every reading of a hand
(``decomposition.readings``), asks every yaku's predicate (``yaku``), counts fu group by
group and points with ``points.base_points``, and keeps the reading worth the most.

It returns what ``score_hand`` returns, only some hundred times slower: it is the
specification the fast scorer is tested against (tests/rules/test_spec_vs_fast.py), never
called by the engine.

The best reading is the one with the most base points, then (at equal points) a real yakuman
over a counted one, then more han, then more fu; among readings worth exactly as much, the
first in ``readings``' order.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.config import RuleConfig
from engine.rules.meld import Meld
from engine.rules.scoring.decomposition import Reading, readings
from engine.rules.scoring.fu import pair_fu
from engine.rules.scoring.points import base_points, payments
from engine.rules.scoring.result import HandResult, WinContext, YakuHan
from engine.rules.scoring.yaku import REGULAR, YAKUMAN
from engine.rules.tiles import YAOCHUU, Tile, dora_of

#: (base points, 1 for a real yakuman, han, fu): readings compare by it
Value = tuple[int, int, int, int]


def spec_score(
    concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> HandResult | None:
    """The best reading of a complete hand, or None (incomplete, no yaku, under min_han).

    >>> from engine.rules.config import TENHOU_HANCHAN
    >>> from engine.rules.tiles import parse
    >>> hand = parse("234m456p678s23455s")  # tanki on 5s: 30 fu closed ron + 2
    >>> ctx = WinContext(win_tile=hand[-1], tsumo=False, seat_wind=28, round_wind=27)
    >>> r = spec_score(hand, [], ctx, TENHOU_HANCHAN)
    >>> r.han, r.fu, [y.name for y in r.yaku], r.ron
    (1, 40, ['tanyao'], 1300)
    """
    best: tuple[Value, HandResult] | None = None
    for reading in readings(concealed, melds, ctx, rules):
        scored = _score(reading)
        if scored is not None and (best is None or scored[0] > best[0]):
            best = scored
    return None if best is None else best[1]


def _score(h: Reading) -> tuple[Value, HandResult] | None:
    yakuman = [y for y in YAKUMAN if y.holds(h)]
    if yakuman:
        return _yakuman(h, [YakuHan(y.name, _yakuman_han(h, y.double), y.tenhou) for y in yakuman])
    yaku = [
        YakuHan(y.name, y.han(h.menzen), y.tenhou)
        for y in REGULAR
        if y.han(h.menzen) and y.holds(h)
    ]
    han = sum(y.han for y in yaku)
    if not yaku or han < h.rules.min_han:
        return None
    dora, aka, ura = _dora(h)
    kita = h.ctx.kita
    if dora + kita:  # Tenhou prints nukidora inside ドラ
        yaku.append(YakuHan("dora", dora + kita, "ドラ"))
    if aka:
        yaku.append(YakuHan("aka", aka, "赤ドラ"))
    if ura:
        yaku.append(YakuHan("ura", ura, "裏ドラ"))
    han += dora + aka + ura + kita
    fu = _fu(h, pinfu=any(y.name == "pinfu" for y in yaku))
    base, limit = base_points(han, fu, 0, h.rules)
    counted = int(limit == "yakuman")  # kazoe yakuman
    result = HandResult(han, fu, tuple(yaku), counted, dora, aka, ura, kita, base, limit,
                        *payments(base, h.dealer))  # fmt: skip
    return (base, 0, han, fu), result


def _yakuman_han(h: Reading, double: bool) -> int:
    return 26 if double and h.rules.double_yakuman else 13


def _yakuman(h: Reading, yaku: list[YakuHan]) -> tuple[Value, HandResult]:
    """A real yakuman: no fu, no dora."""
    han = sum(y.han for y in yaku)
    base, limit = base_points(han, 0, han // 13, h.rules)
    result = HandResult(han, 0, tuple(yaku), han // 13, 0, 0, 0, 0, base, limit,
                        *payments(base, h.dealer))  # fmt: skip
    return (base, 1, han, 0), result


def _fu(h: Reading, pinfu: bool) -> int:
    """Fu, as Tenhou counts them (see ``fu``)."""
    if h.form == "chiitoitsu":
        return 25
    if pinfu:
        return 20 if h.ctx.tsumo else 30
    fu = 20
    if h.ctx.tsumo:
        fu += 2
    elif h.menzen:
        fu += 10
    for g in h.groups:
        if g.is_set:  # 2 for an open triplet of simples; x2 yaochuu, x2 concealed, x4 kan
            fu += (
                2 * (2 if g.kind in YAOCHUU else 1)
                * (2 if g.concealed else 1)
                * (4 if g.shape == "kantsu" else 1)
            )  # fmt: skip
    fu += pair_fu(h.pair, h.ctx.seat_wind, h.ctx.round_wind, h.rules.double_wind_pair_fu)
    if h.wait in ("tanki", "kanchan", "penchan"):
        fu += 2
    fu = (fu + 9) // 10 * 10
    if fu == 20 and not h.ctx.tsumo:  # an open hand of the pinfu shape, won on a ron
        return h.rules.open_pinfu_ron_fu
    return fu


def _dora(h: Reading) -> tuple[int, int, int]:
    """(dora, red fives, ura dora) in every tile of the hand, melds and kita included; ura
    only for riichi."""
    kinds = [t >> 2 for t in h.tiles]
    sanma = h.rules.sanma
    dora = sum(kinds.count(dora_of(i >> 2, sanma)) for i in h.ctx.dora_indicators)
    aka = sum(t in h.rules.red for t in h.tiles)
    ura = 0
    if h.ctx.riichi or h.ctx.double_riichi:
        ura = sum(kinds.count(dora_of(i >> 2, sanma)) for i in h.ctx.ura_indicators)
    return dora, aka, ura
