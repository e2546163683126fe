"""Standings computed independently of the server, from the games' records alone: each
game's final scores and its rules' start, return, uma and oka, by the formulas of
docs/rules.md (Tenhou: every seat but the top in whole thousands, half away from zero, the
top taking the rest; else exact to a tenth), then docs/tournaments.md's order: total, then
firsts, then the best single game."""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from typing import Any


def places(scores: list[int]) -> list[int]:
    """1 = first; equal scores: the earlier seat (East first) places higher."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out = [0] * len(scores)
    for place, seat in enumerate(order, 1):
        out[seat] = place
    return out


def _half_away(thousands: Decimal) -> int:
    sign = -1 if thousands < 0 else 1
    return sign * int(abs(thousands).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def match_points(scores: list[int], rules: dict[str, Any]) -> list[Decimal]:
    """Each seat's match points (no tied uma split: the presets here give ties by seat)."""
    n = len(scores)
    ranks = places(scores)
    back = rules["target_points"] if rules["oka"] else rules["start_points"]
    oka = Decimal(back - rules["start_points"]) * n / 1000
    uma = [Decimal(u) for u in rules["uma"]]
    if rules["round_points"]:
        points = [
            Decimal(_half_away(Decimal(s) / 1000) - back // 1000) + uma[r - 1]
            for s, r in zip(scores, ranks, strict=True)
        ]
        top = ranks.index(1)
        points[top] = -sum((p for i, p in enumerate(points) if i != top), Decimal(0))
        return points
    return [
        ((Decimal(s - back) / 1000) + uma[r - 1] + (oka if r == 1 else 0)).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_UP
        )
        for s, r in zip(scores, ranks, strict=True)
    ]


def standings(
    games: list[tuple[list[str], list[int], dict[str, Any]]],
    bots: set[str],
    penalties: dict[str, Decimal] | None = None,
) -> list[dict[str, Any]]:
    """[{rank, name, total, games, placements}] people by total, firsts, best game; bots
    after them, unranked."""
    total: dict[str, Decimal] = defaultdict(Decimal)
    best: dict[str, Decimal] = {}
    counts: dict[str, list[int]] = {}
    for names, scores, rules in games:
        points = match_points(scores, rules)
        for name, p, place in zip(names, points, places(scores), strict=True):
            total[name] += p
            best[name] = max(best.get(name, Decimal(-math.inf)), p)
            counts.setdefault(name, [0] * len(names))[place - 1] += 1
    for name, p in (penalties or {}).items():
        total[name] -= p

    def key(name: str) -> tuple[Decimal, int, Decimal]:
        return (-total[name], -counts[name][0], -best[name])

    people = sorted((n for n in counts if n not in bots), key=lambda n: (key(n), n))
    out: list[dict[str, Any]] = []
    for i, name in enumerate(people):
        rank = out[-1]["rank"] if i and key(people[i - 1]) == key(name) else i + 1
        out.append(
            {
                "rank": rank,
                "name": name,
                "total": float(total[name]),
                "games": sum(counts[name]),
                "placements": counts[name],
            }
        )
    for name in sorted((n for n in counts if n in bots), key=lambda n: (key(n), n)):
        out.append(
            {
                "rank": None,
                "name": name,
                "total": float(total[name]),
                "games": sum(counts[name]),
                "placements": counts[name],
            }
        )
    return out
