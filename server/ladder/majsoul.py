"""Mahjong Soul's rank points, the operator's alternative to Tenhou's dan (4 players).

A game moves ``ceil((final score − 25000) / 1000 + uma + rank pts)`` points: uma
+15/+5/−5/−15, rank pts the room's gain for 1st and 2nd, 0 for 3rd and the rank's penalty
for last. Reaching the rank's upgrade points promotes to the next rank's start; falling below
0 demotes to the previous rank's start, except in Novice and from Adept 1 (docs/ranking.md).
Celestial's separate level system is not modelled: Saint 3's promotion ends the climb.

>>> apply(MajsoulState(MajsoulRank.EXPERT1, 600), 1, 42000, Room.GOLD, Length.HANCHAN)
MajsoulState(rank=<MajsoulRank.EXPERT1: 6>, points=712)
>>> points_change(MajsoulRank.EXPERT1, 4, 8100, Room.GOLD, Length.HANCHAN)
-111
"""

from __future__ import annotations

import math
from enum import IntEnum

import msgspec

from server.ladder.tenhou_dan import Length


class MajsoulRank(IntEnum):
    NOVICE1 = 0
    NOVICE2 = 1
    NOVICE3 = 2
    ADEPT1 = 3
    ADEPT2 = 4
    ADEPT3 = 5
    EXPERT1 = 6
    EXPERT2 = 7
    EXPERT3 = 8
    MASTER1 = 9
    MASTER2 = 10
    MASTER3 = 11
    SAINT1 = 12
    SAINT2 = 13
    SAINT3 = 14
    CELESTIAL = 15


class Room(IntEnum):
    BRONZE = 0
    SILVER = 1
    GOLD = 2
    JADE = 3
    THRONE = 4


class MajsoulState(msgspec.Struct, frozen=True, array_like=True):
    rank: MajsoulRank
    points: int


#: (start, upgrade, last-place penalty East, South) by rank, Novice 1 .. Saint 3
_TABLE = (
    (0, 20, 0, 0),
    (0, 80, 0, 0),
    (0, 200, 0, 0),
    (300, 600, 10, 20),
    (400, 800, 20, 40),
    (500, 1000, 30, 60),
    (600, 1200, 40, 80),
    (700, 1400, 50, 100),
    (1000, 2000, 60, 120),
    (1400, 2800, 80, 165),
    (1600, 3200, 90, 180),
    (1800, 3600, 100, 195),
    (2000, 4000, 110, 210),
    (3000, 6000, 120, 225),
    (4500, 9000, 130, 240),
)
START = {MajsoulRank(i): row[0] for i, row in enumerate(_TABLE)}
UPGRADE = {MajsoulRank(i): row[1] for i, row in enumerate(_TABLE)}
PENALTY = {
    (MajsoulRank(i), length): row[2 if length == Length.TONPUU else 3]
    for i, row in enumerate(_TABLE)
    for length in Length
}
#: the room's (1st, 2nd) rank pts in an East game; a South game doubles them
_EAST_GAINS = {
    Room.BRONZE: (10, 5),
    Room.SILVER: (20, 10),
    Room.GOLD: (40, 20),
    Room.JADE: (55, 30),
    Room.THRONE: (60, 30),
}
GAINS = {
    (room, length): (a * length, b * length)
    for room, (a, b) in _EAST_GAINS.items()
    for length in Length
}
UMA = (15, 5, -5, -15)
START_SCORE = 25000


def points_change(
    rank: MajsoulRank, placement: int, final_score: int, room: Room, length: Length
) -> int:
    """The rank points one game moves (rounded up, as the client shows them)."""
    if not 1 <= placement <= 4:
        raise ValueError(f"placement {placement} out of 1..4")
    first, second = GAINS[(room, length)]
    rank_pts = {1: first, 2: second, 3: 0, 4: -PENALTY[(rank, length)]}[placement]
    raw = (final_score - START_SCORE) / 1000 + UMA[placement - 1] + rank_pts
    return math.ceil(raw)


def start() -> MajsoulState:
    return MajsoulState(MajsoulRank.NOVICE1, 0)


def apply(
    state: MajsoulState, placement: int, final_score: int, room: Room, length: Length
) -> MajsoulState:
    """The state after one ranked game."""
    if state.rank == MajsoulRank.CELESTIAL:
        return state
    points = state.points + points_change(state.rank, placement, final_score, room, length)
    if points >= UPGRADE[state.rank]:
        up = MajsoulRank(state.rank + 1)
        return MajsoulState(up, START.get(up, 0))
    if points < 0:
        if state.rank > MajsoulRank.ADEPT1:
            down = MajsoulRank(state.rank - 1)
            return MajsoulState(down, START[down])
        return MajsoulState(state.rank, 0)
    return MajsoulState(state.rank, points)
