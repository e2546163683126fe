"""From han and fu to base points, limits and payments (Tenhou's table, kiriage optional)."""

from __future__ import annotations

from engine.rules.config import RuleConfig

MANGAN = 2000
YAKUMAN_BASE = 8000
#: the limits, written once: (the han from which it applies, its base points, its name)
LIMITS = (
    (13, YAKUMAN_BASE, "yakuman"),  # kazoe yakuman, when the rules count it
    (11, 6000, "sanbaiman"),
    (8, 4000, "baiman"),
    (6, 3000, "haneman"),
    (5, MANGAN, "mangan"),
)
#: base points -> the limit's name
LIMIT_NAMES = {base: name for _, base, name in LIMITS}


def limit(han: int, kazoe_yakuman: bool) -> int:
    """The base of a hand of 5 han or more (13+ han is sanbaiman without kazoe)."""
    if han >= 13 and not kazoe_yakuman:
        return 6000
    return next(base for min_han, base, _ in LIMITS if han >= min_han)


def base_points(han: int, fu: int, yakuman: int, rules: RuleConfig) -> tuple[int, str]:
    """Base points and the limit name ("" below mangan). ``yakuman`` is the multiplier of
    real yakuman; 13+ han of regular yaku is kazoe yakuman only when the rule says so.
    The readable form of the scorer's keys below (``spec.spec_score`` counts with it)."""
    if yakuman:
        return YAKUMAN_BASE * yakuman, "yakuman"
    if han >= 5:
        base = limit(han, rules.kazoe_yakuman)
        return base, LIMIT_NAMES[base]
    base = below_limits(han, fu, rules.kiriage)
    return base, LIMIT_NAMES.get(base, "")


def below_limits(han: int, fu: int, kiriage: bool) -> int:
    """The base of a hand under 5 han: fu x 2^(han+2), capped at mangan (kiriage: 4 han 30 fu
    and 3 han 60 fu round up to it)."""
    base = fu << han + 2
    if base >= MANGAN or (kiriage and base == 1920):
        return MANGAN
    return base


def _ceil100(x: int) -> int:
    return (x + 99) // 100 * 100


def payments(base: int, dealer: bool) -> tuple[int, int, int]:
    """(ron, tsumo_dealer, tsumo_other): what a discarder pays, and on a tsumo what the dealer
    and each non-dealer pay (a dealer's tsumo: every other player pays ``tsumo_other``)."""
    if dealer:
        return _ceil100(base * 6), 0, _ceil100(base * 2)
    return _ceil100(base * 4), _ceil100(base * 2), _ceil100(base)


def _low_key(han: int, fu: int, kiriage: bool) -> int:
    return below_limits(han, fu, kiriage) << 17 | han << 8 | fu


def _limit_key(han: int, kazoe: bool) -> int:
    return limit(han, kazoe) << 17


#: Scoring compares readings by one int, base << 17 | han << 8 | fu, so the reading worth the
#: most has the largest (``result.hand_result`` reads it back). The keys of regular hands:
#: [kiriage][han < 5][fu], and [kazoe_yakuman][min(han, 13)] to OR with han << 8 | fu.
LOW_KEYS = tuple(
    tuple(tuple(_low_key(han, fu, kiriage) for fu in range(200)) for han in range(5))
    for kiriage in (False, True)
)
LIMIT_KEYS = tuple(
    (0,) * 5 + tuple(_limit_key(han, kazoe) for han in range(5, 14)) for kazoe in (False, True)
)


def hand_key(han: int, fu: int, rules: RuleConfig) -> int:
    """The comparison key of a regular hand of ``han`` (dora included) and ``fu``."""
    if han < 5:
        return LOW_KEYS[rules.kiriage][han][fu]
    return LIMIT_KEYS[rules.kazoe_yakuman][han if han < 13 else 13] | han << 8 | fu
