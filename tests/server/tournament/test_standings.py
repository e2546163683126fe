"""Standings: totals in exact tenths, tiebreaks in their order, bots never ranked
(server/tournament/standings.py)."""

from __future__ import annotations

import random

from server.tournament.standings import GameResult, Penalty, Standing, by_round, compute


def game(names: str, points: tuple[float, ...], rnd: int = 1) -> GameResult:
    order = sorted(range(len(points)), key=lambda s: -points[s])
    places = [0] * len(points)
    for place, seat in enumerate(order, 1):
        places[seat] = place
    return GameResult(tuple(names), points, tuple(places), rnd)


def order(standings: list[Standing]) -> list[tuple[int | None, str]]:
    return [(s.rank, s.name) for s in standings]


def test_total_decides_first() -> None:
    games = [game("abcd", (30.0, 10.0, -10.0, -30.0)), game("abcd", (-20.0, 40.0, -5.0, -15.0))]
    assert order(compute(games, [], set())) == [(1, "b"), (2, "a"), (3, "c"), (4, "d")]


def test_equal_totals_go_to_more_first_places_before_the_best_game() -> None:
    """a: a first at +20 and a third at -10; b: a second at +25 and a fourth at -15. Both
    total 10; b has the better single game, a the first place, which decides."""
    games = [
        game("axyz", (20.0, 15.0, -10.0, -25.0)),
        game("wbxy", (40.0, 25.0, -25.0, -40.0)),
        game("zyab", (30.0, 5.0, -10.0, -15.0)),
    ]
    standings = {s.name: s for s in compute(games, [], set())}
    a, b = standings["a"], standings["b"]
    assert a.total == b.total == 10.0
    assert (a.placements[0], b.placements[0]) == (1, 0)
    assert a.rank is not None and b.rank is not None and a.rank < b.rank


def test_equal_totals_and_firsts_go_to_the_best_single_game() -> None:
    # a and b: one first each, 15.0 in all; a's best game is 50, b's 30
    games = [
        game("abxy", (50.0, -10.0, -15.0, -25.0)),
        game("abxy", (-35.0, 30.0, 10.0, -5.0)),
        game("bcxy", (-5.0, 20.0, 10.0, -25.0)),
    ]
    standings = {s.name: s for s in compute(games, [], set())}
    assert standings["a"].total == standings["b"].total == 15.0
    assert standings["a"].placements[0] == standings["b"].placements[0] == 1
    assert standings["a"].rank == standings["b"].rank - 1  # type: ignore[operator]


def test_a_full_tie_shares_the_rank_and_the_next_rank_is_skipped() -> None:
    games = [game("abcd", (20.0, 20.0, -20.0, -20.0)), game("abcd", (20.0, 20.0, -20.0, -20.0))]
    games = [GameResult(g.names, g.points, (1, 1, 3, 3)) for g in games]
    assert order(compute(games, [], set())) == [(1, "a"), (1, "b"), (3, "c"), (3, "d")]


def test_bots_are_listed_after_every_person_and_never_ranked() -> None:
    games = [game("Xabc", (60.0, -10.0, -20.0, -30.0)), game("Xabc", (60.0, -10.0, -20.0, -30.0))]
    standings = compute(games, [], {"X"})
    assert order(standings) == [(1, "a"), (2, "b"), (3, "c"), (None, "X")]
    assert [s.bot for s in standings] == [False, False, False, True]
    assert standings[-1].total == 120.0  # shown, with its games, but not ranked


def test_tenths_sum_exactly() -> None:
    """A thousand WRC-style games of 0.1 each total 100.0, not 99.9999999."""
    games = [game("abcd", (0.1, 0.2, -0.1, -0.2)) for _ in range(1000)]
    totals = {s.name: s.total for s in compute(games, [], set())}
    assert totals == {"a": 100.0, "b": 200.0, "c": -100.0, "d": -200.0}
    assert sum(0.1 for _ in range(1000)) != 100.0  # what float sums would have shown


def test_a_penalty_is_deducted_and_can_reorder() -> None:
    games = [game("abcd", (30.0, 10.0, -10.0, -30.0))]
    standings = compute(games, [Penalty("a", 25.0, "late")], set())
    assert order(standings)[:2] == [(1, "b"), (2, "a")]
    assert standings[1].total == 5.0 and standings[1].games == 1


def test_entrants_without_games_stand_at_zero() -> None:
    standings = compute([], [], {"bot1"}, entrants=["ann", "bob", "bot1"], seats=3)
    assert order(standings) == [(1, "ann"), (1, "bob"), (None, "bot1")]
    assert standings[0].placements == [0, 0, 0] and standings[0].average_placement is None


def test_placements_and_average() -> None:
    games = [game("abc", (40.0, 0.0, -40.0)), game("abc", (-40.0, 0.0, 40.0))]
    b = next(s for s in compute(games, [], set()) if s.name == "b")
    assert b.placements == [0, 2, 0] and b.average_placement == 2.0 and b.games == 2


def test_against_a_plain_recount() -> None:
    """Random events: every line equals a count made from the games directly."""
    rng = random.Random(7)
    players = [f"p{i}" for i in range(12)]
    games = []
    for _ in range(60):
        seated = rng.sample(players, 4)
        points = tuple(rng.randint(-600, 600) / 10 for _ in range(4))
        games.append(game("".join(chr(65 + players.index(p)) for p in seated), points))
    names = {chr(65 + i): p for i, p in enumerate(players)}
    penalties = [Penalty("A", 12.3, "phone"), Penalty("C", 0.1, "slow")]
    standings = compute(games, penalties, {"L"})
    for s in standings:
        mine = [
            (g.points[i], g.placements[i])
            for g in games
            for i, n in enumerate(g.names)
            if n == s.name
        ]
        deducted = sum(p.points for p in penalties if p.name == s.name)
        assert s.total == round(sum(p for p, _ in mine) - deducted, 1), names[s.name]
        assert s.placements == [sum(1 for _, pl in mine if pl == k) for k in (1, 2, 3, 4)]
    ranked = [s for s in standings if not s.bot]
    keys = [(s.total, s.placements[0]) for s in ranked]
    assert keys == sorted(keys, reverse=True)
    assert standings[-1].name == "L" and standings[-1].rank is None


def test_totals_by_round_accumulate() -> None:
    games = [game("abcd", (30.0, 10.0, -10.0, -30.0), 1), game("abcd", (-5.5, 5.5, 0.0, 0.0), 3)]
    series = by_round(games, [Penalty("b", 1.0, "", round=2)], 3)
    assert series["a"] == [30.0, 30.0, 24.5]
    assert series["b"] == [10.0, 9.0, 14.5]
