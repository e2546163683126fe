"""Tenhou's rating R: a table-relative Elo-like number every account starts at 1500.

``ΔR = adj × (base + (table average − R) / 40) × scale``, the average over every seat of the
table including the player's own, ``adj = 1 − 0.002 × games`` before 400 games and 0.2 from
then on (``games``: the ranked games played before this one), base +30/+10/−10/−30 by
placement (sanma +30/0/−30), ``scale`` 1.0 for ranked games (docs/ranking.md).

The published worked examples (400+ games, last place, own R 2000; docs/ranking.md): the
first is -6 as printed; the page's -16 and -12.25 do not follow from its own formula and
averages (1600 and 1875), which give -8 and -6.625:

>>> delta(2000, 400, 4, (2000, 2100, 1900, 2000))
-6.0
>>> delta(2000, 400, 4, (2000, 1500, 1500, 1400))
-8.0
>>> delta(2000, 400, 4, (2000, 1500, 1900, 2100))
-6.625
"""

from __future__ import annotations

from collections.abc import Sequence

#: a new account's R
START = 1500.0
#: the games after which adj stops shrinking
SETTLED = 400
BASE_4 = (30, 10, -10, -30)
BASE_3 = (30, 0, -30)


def adjustment(games: int) -> float:
    """``1 − 0.002 × games`` under 400 games, else 0.2.

    >>> adjustment(0), adjustment(100), adjustment(399), adjustment(400)
    (1.0, 0.8, 0.202, 0.2)
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    return 0.2 if games >= SETTLED else round(1 - 0.002 * games, 3)


def base(placement: int, players: int) -> int:
    table = BASE_4 if players == 4 else BASE_3
    if players not in (3, 4) or not 1 <= placement <= players:
        raise ValueError(f"placement {placement} of {players} players")
    return table[placement - 1]


def delta(
    rating: float, games: int, placement: int, table: Sequence[float], scale: float = 1.0
) -> float:
    """One seat's change; ``table`` holds every seat's R, this seat's included."""
    average = sum(table) / len(table)
    return adjustment(games) * (base(placement, len(table)) + (average - rating) / 40) * scale


def table_deltas(
    ratings: Sequence[float],
    games: Sequence[int],
    placements: Sequence[int],
    scale: float = 1.0,
) -> tuple[float, ...]:
    """Every seat's change after one game (all from the ratings before it)."""
    return tuple(
        delta(r, g, p, ratings, scale) for r, g, p in zip(ratings, games, placements, strict=True)
    )
