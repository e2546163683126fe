"""Yaku of the situation, not of the tiles: declared riichi, and the luck of the draw."""

from __future__ import annotations

from engine.rules.yaku.features import HandInfo, Shape
from engine.rules.yaku.unit import yaku


@yaku("riichi", "立直", 1, gate="riichi_any")
def riichi(h: HandInfo, s: Shape) -> bool:
    """Double riichi replaces it."""
    return h.ctx.riichi and not h.ctx.double_riichi and h.menzen


@yaku("double_riichi", "両立直", 2, gate="riichi_any")
def double_riichi(h: HandInfo, s: Shape) -> bool:
    return h.ctx.double_riichi and h.menzen


@yaku("ippatsu", "一発", 1, gate="riichi_any")
def ippatsu(h: HandInfo, s: Shape) -> bool:
    return h.ctx.ippatsu and (h.ctx.riichi or h.ctx.double_riichi) and h.menzen


@yaku("menzen_tsumo", "門前清自摸和", 1, gate="tsumo")
def menzen_tsumo(h: HandInfo, s: Shape) -> bool:
    """A closed hand (ankan allowed) completed by its own draw."""
    return h.tsumo and h.menzen


@yaku("rinshan", "嶺上開花", 1, 1, gate="tsumo")
def rinshan(h: HandInfo, s: Shape) -> bool:
    return h.ctx.rinshan and h.tsumo


@yaku("chankan", "槍槓", 1, 1, gate="ron_luck")
def chankan(h: HandInfo, s: Shape) -> bool:
    return h.ctx.chankan and not h.tsumo


@yaku("haitei", "海底摸月", 1, 1, gate="tsumo")
def haitei(h: HandInfo, s: Shape) -> bool:
    """The last draw of the wall; a rinshan draw is never haitei (Tenhou)."""
    return h.ctx.haitei and h.tsumo and not h.ctx.rinshan


@yaku("houtei", "河底撈魚", 1, 1, gate="ron_luck")
def houtei(h: HandInfo, s: Shape) -> bool:
    return h.ctx.houtei and not h.tsumo


@yaku("renhou", "人和", 5, gate="ron_luck")
def renhou(h: HandInfo, s: Shape) -> bool:
    """A ron before one's first draw: only with ``RuleConfig.renhou`` (off on Tenhou), as mangan."""
    return h.rules.renhou and h.ctx.renhou and not h.tsumo and not h.dealer


SITUATIONAL = (
    riichi,
    double_riichi,
    ippatsu,
    menzen_tsumo,
    rinshan,
    chankan,
    haitei,
    houtei,
    renhou,
)
