"""Mahjong Soul's rank points: the formula with its rounding, promotion and demotion."""

from __future__ import annotations

import math

from server.ladder.majsoul import (
    MajsoulRank,
    MajsoulState,
    Room,
    apply,
    points_change,
    start,
)
from server.ladder.tenhou_dan import Length


def test_the_formula_rounds_up() -> None:
    # riichi.wiki Majsoul: (score - 25000)/1000 + uma + rank pts, always rounded up
    assert points_change(MajsoulRank.ADEPT1, 3, 23100, Room.BRONZE, Length.TONPUU) == -6
    assert points_change(MajsoulRank.ADEPT1, 1, 48200, Room.SILVER, Length.HANCHAN) == 79
    # Throne: +60/+30 East, +120/+60 South
    assert points_change(MajsoulRank.SAINT1, 2, 25000, Room.THRONE, Length.TONPUU) == 35
    assert points_change(MajsoulRank.SAINT1, 1, 25000, Room.THRONE, Length.HANCHAN) == 135
    assert points_change(MajsoulRank.ADEPT3, 4, 12000, Room.SILVER, Length.HANCHAN) == math.ceil(
        -13 - 15 - 60
    )


def test_promotion_and_demotion() -> None:
    assert apply(start(), 1, 30000, Room.BRONZE, Length.HANCHAN) == MajsoulState(
        MajsoulRank.NOVICE2, 0
    )
    assert apply(MajsoulState(MajsoulRank.NOVICE1, 0), 4, 0, Room.BRONZE, Length.HANCHAN) == (
        MajsoulState(MajsoulRank.NOVICE1, 0)
    )
    # Adept 1 never drops to Novice
    assert apply(MajsoulState(MajsoulRank.ADEPT1, 5), 4, 0, Room.BRONZE, Length.HANCHAN) == (
        MajsoulState(MajsoulRank.ADEPT1, 0)
    )
    assert apply(MajsoulState(MajsoulRank.EXPERT1, 10), 4, 0, Room.GOLD, Length.HANCHAN) == (
        MajsoulState(MajsoulRank.ADEPT3, 500)
    )
    assert apply(MajsoulState(MajsoulRank.EXPERT1, 1190), 2, 25000, Room.GOLD, Length.HANCHAN) == (
        MajsoulState(MajsoulRank.EXPERT2, 700)
    )
