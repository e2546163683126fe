"""Tenhou's dan and points: the published tables, promotion and demotion at their edges, and
long random runs against a plain re-computation written here from docs/ranking.md."""

from __future__ import annotations

import random

import pytest

from engine.rules.scoring.points import placement_ranks
from server.ladder.placement import placements
from server.ladder.tenhou_dan import (
    NAMES,
    START,
    THRESHOLD,
    Dan,
    DanState,
    Length,
    Lobby,
    apply,
    change,
    start,
)

# mahjong-dora2.com/game/02-07.html: dan k starts at 200k, promotes at 400k, last loses
# 30 + 15k in a hanchan; 02-11.html: the kyu thresholds
DAN_ROWS = [(200 * k, 400 * k, 30 + 15 * k) for k in range(1, 11)]
KYU_THRESHOLDS = [20, 20, 20, 20, 40, 60, 80, 100, 100, 100]


def test_the_tables_are_the_published_ones() -> None:
    dans = [d for d in Dan if Dan.SHODAN <= d <= Dan.JUUDAN]
    got = [(START[d], THRESHOLD[d], -change(d, 4, Lobby.HOUOU, Length.HANCHAN)) for d in dans]
    assert got == DAN_ROWS
    assert [THRESHOLD[Dan(i)] for i in range(10)] == KYU_THRESHOLDS
    assert NAMES[Dan.SHODAN] == "初段" and NAMES[Dan.TENHOUI] == "天鳳位"
    hanchan = {
        lobby: [change(Dan.SHODAN, p, lobby, Length.HANCHAN) for p in (1, 2, 3)] for lobby in Lobby
    }
    assert hanchan == {
        Lobby.IPPAN: [30, 15, 0],
        Lobby.JOUKYUU: [60, 15, 0],
        Lobby.TOKUJOU: [75, 30, 0],
        Lobby.HOUOU: [90, 45, 0],
    }
    # East only: riichi.wiki's Ippan +20/+10, and two thirds of every loss
    assert change(Dan.SHINJIN, 1, Lobby.IPPAN, Length.TONPUU) == 20
    assert change(Dan.SHINJIN, 2, Lobby.IPPAN, Length.TONPUU) == 10
    assert change(Dan.JUUDAN, 4, Lobby.HOUOU, Length.TONPUU) == -120
    assert change(Dan.KYU2, 4, Lobby.IPPAN, Length.TONPUU) == -10
    assert change(Dan.KYU3, 4, Lobby.IPPAN, Length.HANCHAN) == 0


def test_promotion_at_the_threshold_resets_to_the_next_start() -> None:
    assert apply(DanState(Dan.SANDAN, 1110), 1, Lobby.TOKUJOU, Length.HANCHAN) == DanState(
        Dan.SANDAN, 1185
    )
    # 1125 + 75 = 1200 meets the threshold: 四段 at 800, the excess dropped
    assert apply(DanState(Dan.SANDAN, 1125), 1, Lobby.TOKUJOU, Length.HANCHAN) == DanState(
        Dan.YONDAN, 800
    )
    assert apply(DanState(Dan.KYU1, 90), 2, Lobby.JOUKYUU, Length.HANCHAN) == DanState(
        Dan.SHODAN, 200
    )
    assert apply(DanState(Dan.JUUDAN, 3990), 1, Lobby.HOUOU, Length.HANCHAN) == DanState(
        Dan.TENHOUI, 0
    )


def test_demotion_below_zero_from_shodan_up_and_never_for_kyu() -> None:
    # exactly 0 stays
    assert apply(DanState(Dan.SHODAN, 45), 4, Lobby.JOUKYUU, Length.HANCHAN) == DanState(
        Dan.SHODAN, 0
    )
    assert apply(DanState(Dan.SHODAN, 44), 4, Lobby.JOUKYUU, Length.HANCHAN) == DanState(
        Dan.KYU1, 0
    )
    assert apply(DanState(Dan.HACHIDAN, 100), 4, Lobby.HOUOU, Length.HANCHAN) == DanState(
        Dan.NANADAN, 1400
    )
    # a kyu rank loses points but never the rank, never below 0
    assert apply(DanState(Dan.KYU1, 10), 4, Lobby.IPPAN, Length.HANCHAN) == DanState(Dan.KYU1, 0)
    assert apply(DanState(Dan.KYU2, 50), 4, Lobby.IPPAN, Length.HANCHAN) == DanState(Dan.KYU2, 35)
    top = DanState(Dan.TENHOUI, 0)
    assert apply(top, 4, Lobby.HOUOU, Length.HANCHAN) == top


def test_bad_placements_are_refused() -> None:
    with pytest.raises(ValueError):
        apply(start(), 5, Lobby.IPPAN, Length.HANCHAN)
    with pytest.raises(ValueError):
        apply(start(), 4, Lobby.IPPAN, Length.HANCHAN, sanma=True)


# --- an independent re-computation: rank as a number 0..20, tables typed out by hand ---

PLAIN_KYU = {0: 20, 1: 20, 2: 20, 3: 20, 4: 40, 5: 60, 6: 80, 7: 100, 8: 100, 9: 100}
PLAIN_GAINS = {0: (30, 15), 1: (60, 15), 2: (75, 30), 3: (90, 45)}


def plain_step(rank: int, pt: int, place: int, lobby: int, east: bool) -> tuple[int, int]:
    if rank == 20:
        return rank, pt
    g1, g2 = PLAIN_GAINS[lobby]
    loss = 0 if rank <= 7 else {8: 15, 9: 30}.get(rank, 30 + 15 * (rank - 9))
    delta = {1: g1, 2: g2, 3: 0, 4: -loss}[place]
    if east:
        delta = delta * 2 // 3
    pt += delta
    target = PLAIN_KYU[rank] if rank < 10 else 400 * (rank - 9)
    if pt >= target:
        rank += 1
        return rank, (200 * (rank - 9) if 10 <= rank <= 19 else 0)
    if pt < 0:
        if rank >= 10:
            rank -= 1
            return rank, (200 * (rank - 9) if rank >= 10 else 0)
        return rank, 0
    return rank, pt


@pytest.mark.parametrize("seed", range(20))
def test_long_random_careers_match_a_plain_recomputation(seed: int) -> None:
    rng = random.Random(seed)
    state, plain = start(), (0, 0)
    for _ in range(3000):
        place = rng.choices((1, 2, 3, 4), weights=(30, 26, 24, 20))[0]
        lobby = rng.randrange(4)
        east = rng.random() < 0.5
        length = Length.TONPUU if east else Length.HANCHAN
        state = apply(state, place, Lobby(lobby), length)
        plain = plain_step(*plain, place, lobby, east)
        assert (int(state.dan), state.points) == plain


def test_placements_break_ties_by_seat_order_from_the_first_dealer() -> None:
    assert placements((30000, 30000, 20000, 20000), (0, 1, 2, 3)) == (1, 2, 3, 4)
    assert placements((30000, 30000, 20000, 20000), (1, 2, 3, 0)) == (2, 1, 3, 4)
    assert placements((35000, 35000, 35000), (2, 0, 1)) == (2, 3, 1)
    with pytest.raises(ValueError):
        placements((1, 2, 3, 4), (0, 1, 2, 2))
    rng = random.Random(1)
    for _ in range(500):
        scores = tuple(rng.choice((10000, 25000, 30000)) for _ in range(4))
        assert list(placements(scores, (0, 1, 2, 3))) == placement_ranks(scores)
