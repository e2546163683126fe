"""From han and fu to base points, limits and payments (Tenhou's table, kiriage optional)."""

from __future__ import annotations

from typing import Final

from engine.rules.config import RuleConfig

MANGAN: Final = 2000
YAKUMAN_BASE: Final = 8000
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
LOW_KEYS: Final = tuple(
    tuple(tuple(_low_key(han, fu, kiriage) for fu in range(200)) for han in range(5))
    for kiriage in (False, True)
)
LIMIT_KEYS: Final = tuple(
    (0,) * 5 + tuple(_limit_key(han, kazoe) for han in range(5, 14)) for kazoe in (False, True)
)


def hand_key(han: int, fu: int, rules: RuleConfig) -> int:
    """The comparison key of a regular hand of ``han`` (dora included) and ``fu``."""
    if han < 5:
        return LOW_KEYS[rules.kiriage][han][fu]
    return LIMIT_KEYS[rules.kazoe_yakuman][han if han < 13 else 13] | han << 8 | fu


def placement_ranks(scores: tuple[int, ...]) -> list[int]:
    """Rank 1..n of each seat; ties go to the earlier starting seat (Tenhou)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out = [0] * len(scores)
    for rank, seat in enumerate(order, 1):
        out[seat] = rank
    return out


def _thousands(score: int) -> int:
    """A score in whole thousands, half away from zero (Tenhou: 24,500 -> 25; -1,500 -> -2)."""
    q, r = divmod(abs(score), 1000)
    q += r >= 500
    return q if score >= 0 else -q


def placement_points(scores: tuple[int, ...], rules: RuleConfig) -> tuple[float, ...]:
    """The match result per seat in thousands: score above the return, uma, oka to the top
    (``rules.oka`` False: score above the start, uma, no oka).

    ``rules.round_points`` (Tenhou's logs until 2021): every seat but the top is rounded
    to whole thousands and the top takes what makes the sum zero; otherwise exact to 0.1."""
    n = len(scores)
    ranks = placement_ranks(scores)
    target = rules.target_points if rules.oka else rules.start_points
    oka = (target - rules.start_points) * n / 1000
    if rules.uma_ties == "split" and len(set(scores)) < n:
        return _split_ties(scores, ranks, rules, target, oka)
    if rules.round_points:
        points = [
            float(_thousands(s) - target // 1000 + rules.uma[r - 1])
            for s, r in zip(scores, ranks, strict=True)
        ]
        top = ranks.index(1)
        points[top] = -sum(p for s, p in enumerate(points) if s != top)
        return tuple(points)
    return tuple(
        round((s - target) / 1000 + rules.uma[r - 1] + (oka if r == 1 else 0), 1)
        for s, r in zip(scores, ranks, strict=True)
    )


def _split_ties(
    scores: tuple[int, ...], ranks: list[int], rules: RuleConfig, target: int, oka: float
) -> tuple[float, ...]:
    """Seats tied on points share the uma (and oka) of the places they hold together."""
    bonus = [u + (oka if i == 0 else 0) for i, u in enumerate(rules.uma)]
    out = []
    for s in scores:
        places = [ranks[t] - 1 for t in range(len(scores)) if scores[t] == s]
        share = sum(bonus[p] for p in places) / len(places)
        out.append(round((s - target) / 1000 + share, 1))
    return tuple(out)
