"""Whole tables of ranked games: eight accounts, random seats and final scores, every
standing checked against the plain re-computations of the dan and R tests."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from server.ladder.standing import LobbyRules, Standing, after_game, may_enter
from server.ladder.tenhou_dan import Dan, Length, Lobby
from tests.server.ladder.test_rating import plain as plain_r
from tests.server.ladder.test_tenhou_dan import plain_step


@pytest.mark.parametrize("seed", range(4))
def test_a_season_of_four_player_games(seed: int) -> None:
    rng = random.Random(seed)
    rules = LobbyRules(Lobby(rng.randrange(4)), rng.choice(list(Length)), 4)
    standings = {a: Standing() for a in range(8)}
    plain = {a: (0, 0, Fraction(1500), 0) for a in range(8)}
    for _ in range(400):
        seats = rng.sample(range(8), 4)
        scores = [rng.choice((8000, 17000, 25000, 25000, 32000, 41000)) for _ in range(4)]
        new = after_game([standings[a] for a in seats], scores, (0, 1, 2, 3), rules)
        for a, s in zip(seats, new, strict=True):
            standings[a] = s
        # plain: placements by (-score, seat), the dan steps, exact R
        order = sorted(range(4), key=lambda i: (-scores[i], i))
        places = [order.index(i) + 1 for i in range(4)]
        old = [plain[a] for a in seats]
        rs = plain_r([o[2] for o in old], [o[3] for o in old], places)
        for a, o, p, d in zip(seats, old, places, rs, strict=True):
            rank, pt = plain_step(o[0], o[1], p, int(rules.lobby), rules.length == Length.TONPUU)
            plain[a] = (rank, pt, o[2] + d, o[3] + 1)
    for a in range(8):
        s, (rank, pt, r, games) = standings[a], plain[a]
        assert (int(s.dan), s.points, s.games) == (rank, pt, games)
        assert s.rating == pytest.approx(float(r), abs=1e-6)
    assert sum(s.games for s in standings.values()) == 1600


def test_sanma_uses_its_bases_and_the_third_place_loss() -> None:
    table = (Standing(Dan.SANDAN, 700, 1800.0, 500),) * 3
    after = after_game(table, (45000, 35000, 25000), (0, 1, 2), LobbyRules(players=3))
    assert [s.rating for s in after] == pytest.approx([1806.0, 1800.0, 1794.0])
    # 一般 sanma hanchan: 1st +45, 2nd 0, 3rd at 三段 -75 (docs/ranking.md)
    assert [s.points for s in after] == [745, 700, 625]


def test_mismatched_tables_are_refused() -> None:
    with pytest.raises(ValueError):
        after_game((Standing(),) * 4, (1, 2, 3), (0, 1, 2, 3), LobbyRules())


def test_room_entry_floors() -> None:
    def s(dan: Dan, r: float) -> Standing:
        return Standing(dan, 0, r, 100)

    assert may_enter(Lobby.IPPAN, s(Dan.SHINJIN, 1200))
    assert not may_enter(Lobby.JOUKYUU, s(Dan.KYU2, 2200))
    assert may_enter(Lobby.JOUKYUU, s(Dan.KYU1, 1200))
    assert not may_enter(Lobby.HOUOU, s(Dan.ROKUDAN, 2300))
    assert not may_enter(Lobby.HOUOU, s(Dan.NANADAN, 1999.99))
    assert may_enter(Lobby.HOUOU, s(Dan.TENHOUI, 2000))
