"""A tournament's standings from its finished games and its penalties (pure).

A game counts each seat's match points exactly as the preset's own end-of-match result gave
them (the engine's ``GameEnded.points``: whole thousands under Tenhou's rounding, tenths
otherwise). Totals are summed in integer tenths, so 0.1 + 0.2 is 0.3 and a standing never
drifts with float error; they are shown to one decimal.

Order: total, then the number of first places, then the best single game (points of that
game, penalties not counted), all descending. Players equal on all three share a rank
(1, 2, 2, 4) and are listed by name. A bot entrant is never ranked: bots come after every
person, in the same order among themselves, with ``rank`` None and ``bot`` True. A penalty
is ``points`` deducted from the total (a positive number lowers it), with its reason.

>>> games = [
...     GameResult(("ann", "bob", "cat", "dan"), (45.0, 5.0, -15.0, -35.0), (1, 2, 3, 4), 1),
...     GameResult(("ann", "bob", "cat", "dan"), (-35.0, 55.0, -5.0, -15.0), (4, 1, 2, 3), 2),
... ]
>>> for s in compute(games, [Penalty("bob", 20.0, "late")], {"dan"}):
...     print(s.rank, s.name, s.total, s.games, s.placements, s.average_placement, s.bot)
1 bob 40.0 2 [1, 1, 0, 0] 1.5 False
2 ann 10.0 2 [1, 0, 0, 1] 2.5 False
3 cat -20.0 2 [0, 1, 1, 0] 2.5 False
None dan -50.0 2 [0, 0, 1, 1] 3.5 True
>>> by_round(games, [], 2)["bob"]
[5.0, 60.0]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import msgspec


class GameResult(msgspec.Struct, frozen=True):
    """One finished game: names, match points and placements (1 = first), all by seat."""

    names: tuple[str, ...]
    points: tuple[float, ...]
    placements: tuple[int, ...]
    #: the tournament round it was played in (1, 2, ...), for the totals by round
    round: int = 0


class Penalty(msgspec.Struct, frozen=True):
    """Points an organiser deducted from a player's total, and why."""

    name: str
    points: float
    reason: str = ""
    #: the round it was given in (0: before the first), for the totals by round
    round: int = 0


class Standing(msgspec.Struct, frozen=True):
    """One line of the standings, as ``GET /api/tournaments/{id}`` serves it."""

    rank: int | None
    name: str
    total: float
    games: int
    #: how many 1st, 2nd, ... places (one count per seat of the preset's tables)
    placements: list[int]
    #: None before the first game
    average_placement: float | None
    bot: bool


def tenths(points: float) -> int:
    """Match points as an exact count of tenths (the finest any preset's result has)."""
    return round(points * 10)


def compute(
    games: Sequence[GameResult],
    penalties: Sequence[Penalty],
    bots: Collection[str],
    *,
    entrants: Sequence[str] = (),
    seats: int | None = None,
) -> list[Standing]:
    """The standings, people ranked first, then bots (unranked). ``entrants`` adds players
    who have no game yet (0 points); ``seats`` sizes ``placements`` (default: the games'
    table size, else 4)."""
    width = seats or max((len(g.names) for g in games), default=4)
    names = list(dict.fromkeys([*entrants, *(n for g in games for n in g.names)]))
    total = dict.fromkeys(names, 0)
    best: dict[str, int | None] = dict.fromkeys(names, None)
    places = {n: [0] * width for n in names}
    for game in games:
        for name, points, place in zip(game.names, game.points, game.placements, strict=True):
            t = tenths(points)
            total[name] += t
            top = best[name]
            best[name] = t if top is None else max(top, t)
            places[name][place - 1] += 1
    for penalty in penalties:
        total.setdefault(penalty.name, 0)
        total[penalty.name] -= tenths(penalty.points)
        places.setdefault(penalty.name, [0] * width)
        best.setdefault(penalty.name, None)

    def key(name: str) -> tuple[int, int, float]:
        top = best[name]
        return (total[name], places[name][0], float("-inf") if top is None else top)

    people = sorted((n for n in total if n not in bots), key=lambda n: (_neg(key(n)), n))
    machines = sorted((n for n in total if n in bots), key=lambda n: (_neg(key(n)), n))
    out: list[Standing] = []
    for i, name in enumerate(people):
        tied = i and key(people[i - 1]) == key(name)
        rank = out[-1].rank if tied else i + 1
        out.append(_standing(name, rank, total[name], places[name], False))
    out += [_standing(n, None, total[n], places[n], True) for n in machines]
    return out


def _neg(key: tuple[int, int, float]) -> tuple[float, ...]:
    return tuple(-x for x in key)


def _standing(
    name: str, rank: int | None, total: int, placements: list[int], bot: bool
) -> Standing:
    played = sum(placements)
    average = sum((i + 1) * c for i, c in enumerate(placements)) / played if played else None
    return Standing(rank, name, total / 10, played, placements, average, bot)


def by_round(
    games: Sequence[GameResult], penalties: Sequence[Penalty], rounds: int
) -> dict[str, list[float]]:
    """Each player's total after each round 1..rounds (the page's chart), penalties counted
    from the round they were given in."""
    step: dict[str, list[int]] = {}
    for game in games:
        for name, points in zip(game.names, game.points, strict=True):
            step.setdefault(name, [0] * (rounds + 1))[min(game.round, rounds)] += tenths(points)
    for penalty in penalties:
        step.setdefault(penalty.name, [0] * (rounds + 1))[min(penalty.round, rounds)] -= tenths(
            penalty.points
        )
    out: dict[str, list[float]] = {}
    for name, deltas in step.items():
        running, series = deltas[0], []
        for delta in deltas[1:]:
            running += delta
            series.append(running / 10)
        out[name] = series
    return out
