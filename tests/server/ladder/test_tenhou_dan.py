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


# Tenhou's own web client (tenhou.net/3 script, "Copyrights C-EGG inc.", copies stored in public
# GitHub repositories) holds two per-rank arrays, 新人 .. 十段 then 天鳳位: the East-only pt of
# last place, and the pt that promotes (0: none). Index 8 is ２級, the first rank that loses.
CLIENT_EAST_LAST = [0] * 8 + [-10 * k for k in range(1, 13)] + [0]
CLIENT_PROMOTE = [20, 20, 20, 20, 40, 60, 80, 100, 100, 100]
CLIENT_PROMOTE += [400 * k for k in range(1, 11)] + [0]


def test_the_tables_are_the_ones_in_tenhous_client() -> None:
    assert len(CLIENT_EAST_LAST) == len(CLIENT_PROMOTE) == len(Dan) == 21
    for dan in Dan:
        for sanma in (False, True):
            last = 3 if sanma else 4
            east = change(dan, last, Lobby.IPPAN, Length.TONPUU, sanma)
            hanchan = change(dan, last, Lobby.HOUOU, Length.HANCHAN, sanma)
            assert east == CLIENT_EAST_LAST[dan]
            assert 2 * hanchan == 3 * east  # a hanchan moves 3/2 of an East-only game
        assert (THRESHOLD[dan] or 0) == CLIENT_PROMOTE[dan]
    # 3級 is the last rank that loses nothing, 2級 the first that loses
    assert change(Dan.KYU3, 4, Lobby.IPPAN, Length.HANCHAN) == 0
    assert change(Dan.KYU2, 4, Lobby.IPPAN, Length.HANCHAN) == -15


# nodocchi.moe's published rules (tenhoulog base.js / main.js, as reproduced in a public Python
# module that cites them): East-only gains, 4 players (1st, 2nd) by lobby and sanma 1st by lobby
# (2nd 0); last place -10 per rank above 3級, players alike; a hanchan moves 1.5 times as much
NODOCCHI_EAST_4 = [(20, 10), (40, 10), (50, 20), (60, 30)]
NODOCCHI_EAST_3 = [30, 50, 70, 90]


def nodocchi_delta(rank: int, place: int, lobby: int, east: bool, players: int) -> float:
    if rank == 20:
        return 0
    if place == players:
        delta = -max(0, rank - 7) * 10
    elif players == 4:
        delta = NODOCCHI_EAST_4[lobby][place - 1] if place <= 2 else 0
    else:
        delta = NODOCCHI_EAST_3[lobby] if place == 1 else 0
    return delta if east else delta * 1.5


def test_every_change_is_nodocchis() -> None:
    for dan in Dan:
        for lobby in Lobby:
            for length in Length:
                east = length == Length.TONPUU
                for players in (3, 4):
                    for place in range(1, players + 1):
                        got = change(dan, place, lobby, length, players == 3)
                        assert got == nodocchi_delta(dan, place, lobby, east, players)


def test_sanma_gains() -> None:
    hanchan = {lobby: change(Dan.SHODAN, 1, lobby, Length.HANCHAN, True) for lobby in Lobby}
    assert list(hanchan.values()) == [45, 75, 105, 135]
    assert [change(Dan.SHODAN, 2, lobby, Length.HANCHAN, True) for lobby in Lobby] == [0] * 4
    assert apply(DanState(Dan.KYU1, 60), 1, Lobby.JOUKYUU, Length.TONPUU, True) == DanState(
        Dan.SHODAN, 200
    )
    assert apply(DanState(Dan.SHODAN, 10), 3, Lobby.IPPAN, Length.TONPUU, True) == DanState(
        Dan.KYU1, 0
    )


def test_promotion_on_reaching_the_threshold_exactly() -> None:
    # riichi.wiki ("meet/surpass") and nodocchi (pt >= threshold) agree
    assert apply(DanState(Dan.KYU1, 85), 2, Lobby.IPPAN, Length.HANCHAN) == DanState(
        Dan.SHODAN, 200
    )
    assert apply(DanState(Dan.KYU1, 84), 2, Lobby.IPPAN, Length.HANCHAN) == DanState(Dan.KYU1, 99)
    assert apply(DanState(Dan.SHINJIN, 10), 2, Lobby.IPPAN, Length.TONPUU) == DanState(Dan.KYU9, 0)


def test_bad_placements_are_refused() -> None:
    with pytest.raises(ValueError):
        apply(start(), 5, Lobby.IPPAN, Length.HANCHAN)
    with pytest.raises(ValueError):
        apply(start(), 4, Lobby.IPPAN, Length.HANCHAN, sanma=True)


# --- an independent re-computation: rank as a number 0..20, tables typed out by hand ---

PLAIN_KYU = {0: 20, 1: 20, 2: 20, 3: 20, 4: 40, 5: 60, 6: 80, 7: 100, 8: 100, 9: 100}
PLAIN_GAINS = {0: (30, 15), 1: (60, 15), 2: (75, 30), 3: (90, 45)}
PLAIN_SANMA_FIRST = {0: 45, 1: 75, 2: 105, 3: 135}


def plain_step(
    rank: int, pt: int, place: int, lobby: int, east: bool, sanma: bool = False
) -> tuple[int, int]:
    if rank == 20:
        return rank, pt
    g1, g2 = (PLAIN_SANMA_FIRST[lobby], 0) if sanma else PLAIN_GAINS[lobby]
    loss = 0 if rank <= 7 else {8: 15, 9: 30}.get(rank, 30 + 15 * (rank - 9))
    delta = {1: g1, 2: g2, 3: 0, 4: 0}[place]
    if place == (3 if sanma else 4):
        delta = -loss
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


@pytest.mark.parametrize("sanma", [False, True])
@pytest.mark.parametrize("seed", range(20))
def test_long_random_careers_match_a_plain_recomputation(seed: int, sanma: bool) -> None:
    rng = random.Random(seed)
    state, plain = start(), (0, 0)
    places, weights = ((1, 2, 3), (36, 34, 30)) if sanma else ((1, 2, 3, 4), (30, 26, 24, 20))
    for _ in range(3000):
        place = rng.choices(places, weights=weights)[0]
        lobby = rng.randrange(4)
        east = rng.random() < 0.5
        length = Length.TONPUU if east else Length.HANCHAN
        state = apply(state, place, Lobby(lobby), length, sanma)
        plain = plain_step(*plain, place, lobby, east, sanma)
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
