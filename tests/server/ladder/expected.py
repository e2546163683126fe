"""An independent account of the ladder's arithmetic for the tests (docs/ranking.md), written
from the documented tables and formulas, not by calling server.ladder: a test compares the
server's stored standings with what this says the final scores must give."""

from __future__ import annotations

from collections.abc import Sequence

#: promotion points of 新人, 9級 .. 1級 (docs/ranking.md)
KYU_UP = [20, 20, 20, 20, 40, 60, 80, 100, 100, 100]
#: 1st/2nd in 一般 (ippan): hanchan, East-only
IPPAN = {2: (30, 15), 1: (20, 10)}


def place_of(scores: Sequence[int]) -> list[int]:
    """Placements, ties to the lower seat (seat 0 deals first)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out = [0] * len(scores)
    for i, s in enumerate(order):
        out[s] = i + 1
    return out


def dan_after(dan: int, points: int, place: int, winds: int, players: int = 4) -> tuple[int, int]:
    """(rank, points) after one 一般 game; only the kyu ranks (0 = 新人 .. 9 = 1級) and 初段,
    which is as far as a test's few games climb."""
    first, second = IPPAN[winds]
    if players == 3:
        second = 0
    gain = {1: first, 2: second}.get(place, 0)
    last = players
    if place == last and dan >= 8:  # 2級 loses 15, 1級 30 in a hanchan (East-only: 2/3)
        loss = {8: 15, 9: 30}[dan] if dan < 10 else 45
        gain = -(loss if winds == 2 else loss * 2 // 3)
    points += gain
    if dan < 10 and points >= KYU_UP[dan]:
        return dan + 1, 200 if dan + 1 == 10 else 0
    return dan, max(points, 0) if dan < 10 else points


def r_delta(rating: float, games: int, place: int, table: Sequence[float]) -> float:
    """Tenhou's ΔR = adj × (base + (table average − R) / 40)."""
    adj = 0.2 if games >= 400 else 1 - 0.002 * games
    base = {4: [30, 10, -10, -30], 3: [30, 0, -30]}[len(table)][place - 1]
    return adj * (base + (sum(table) / len(table) - rating) / 40)
