"""From han and fu to base points, limits and payments (Tenhou's table, kiriage optional)."""

from __future__ import annotations

from engine.rules.config import RuleConfig

MANGAN = 2000
LIMITS = ((13, 8000, "yakuman"), (11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"))


def base_points(han: int, fu: int, yakuman: int, rules: RuleConfig) -> tuple[int, str]:
    """Base points and the limit name ("" below mangan). ``yakuman`` is the multiplier of
    real yakuman; 13+ han of regular yaku is kazoe yakuman only when the rule says so."""
    if yakuman:
        return 8000 * yakuman, "yakuman"
    if han >= 13 and not rules.kazoe_yakuman:
        return 6000, "sanbaiman"
    for min_han, base, name in LIMITS:
        if han >= min_han:
            return base, name
    if han >= 5:
        return MANGAN, "mangan"
    base = fu * (1 << (han + 2))
    if base >= MANGAN or (rules.kiriage and base == 1920):
        return MANGAN, "mangan"
    return base, ""


def _ceil100(x: int) -> int:
    return (x + 99) // 100 * 100


def payments(base: int, dealer: bool) -> tuple[int, int, int]:
    """(ron, tsumo_dealer, tsumo_other): what a discarder pays, and on a tsumo what the dealer
    and each non-dealer pay (a dealer's tsumo: every other player pays ``tsumo_other``)."""
    if dealer:
        return _ceil100(base * 6), 0, _ceil100(base * 2)
    return _ceil100(base * 4), _ceil100(base * 2), _ceil100(base)
