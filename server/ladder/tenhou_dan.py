"""Tenhou's dan (段位) and rank points (pt): what one ranked game does to them.

The tables are built by small builders from the published rules (docs/ranking.md):

- a kyu rank (新人..1級) starts at 0 pt and is promoted at 20..100 pt; it is never demoted
  and its points never go below 0;
- a dan ``k`` (初段 = 1 .. 十段 = 10) starts at ``200·k`` and is promoted at ``400·k``; below
  0 pt it drops one rank, to that rank's start;
- promotion on reaching the threshold (``>=``), the excess dropped;
- 1st and 2nd gain by lobby (一般/上級/特上/鳳凰), 3rd nothing, last loses by rank (nothing up
  to 3級, then 2級 15, 1級 30, dan ``k`` ``30 + 15·k``; Tenhou's own web client lists the
  East-only two thirds of these);
- an East-only game (東風戦) moves two thirds of a hanchan's points;
- 天鳳位 is the top and never changes.

Sanma is a separate ladder with the same ranks, thresholds and last-place (3rd) losses; 1st
gains 45/75/105/135 in a hanchan by lobby and 2nd nothing. Those gains come from one source
only (nodocchi's published rules), so docs/ranking.md still marks them for checking.

>>> s = start()
>>> s
DanState(dan=<Dan.SHINJIN: 0>, points=0)
>>> apply(s, 1, Lobby.IPPAN, Length.HANCHAN)
DanState(dan=<Dan.KYU9: 1>, points=0)
>>> apply(DanState(Dan.JUUDAN, 100), 4, Lobby.HOUOU, Length.HANCHAN)
DanState(dan=<Dan.KYUUDAN: 18>, points=1800)
"""

from __future__ import annotations

from enum import IntEnum

import msgspec


class Dan(IntEnum):
    SHINJIN = 0
    KYU9 = 1
    KYU8 = 2
    KYU7 = 3
    KYU6 = 4
    KYU5 = 5
    KYU4 = 6
    KYU3 = 7
    KYU2 = 8
    KYU1 = 9
    SHODAN = 10
    NIDAN = 11
    SANDAN = 12
    YONDAN = 13
    GODAN = 14
    ROKUDAN = 15
    NANADAN = 16
    HACHIDAN = 17
    KYUUDAN = 18
    JUUDAN = 19
    TENHOUI = 20


#: Tenhou's names, for docs and the browser
NAMES = [
    "新人",
    "9級",
    "8級",
    "7級",
    "6級",
    "5級",
    "4級",
    "3級",
    "2級",
    "1級",
    "初段",
    "二段",
    "三段",
    "四段",
    "五段",
    "六段",
    "七段",
    "八段",
    "九段",
    "十段",
    "天鳳位",
]


class Lobby(IntEnum):
    IPPAN = 0  # 一般
    JOUKYUU = 1  # 上級
    TOKUJOU = 2  # 特上
    HOUOU = 3  # 鳳凰


class Length(IntEnum):
    TONPUU = 1  # 東風戦: East only
    HANCHAN = 2  # 東南戦


class DanState(msgspec.Struct, frozen=True, array_like=True):
    dan: Dan
    points: int


def dan_number(dan: Dan) -> int:
    """1 for 初段 .. 10 for 十段, 0 for a kyu rank (11 for 天鳳位)."""
    return max(0, dan - Dan.SHODAN + 1)


def _kyu_threshold(dan: Dan) -> int:
    """新人..7級 need 20 pt, then 6級 40, 5級 60, 4級 80, 3級..1級 100."""
    steps = {Dan.KYU6: 40, Dan.KYU5: 60, Dan.KYU4: 80}
    if dan in steps:
        return steps[dan]
    return 20 if dan < Dan.KYU6 else 100


def _threshold(dan: Dan) -> int | None:
    if dan == Dan.TENHOUI:
        return None
    return _kyu_threshold(dan) if dan < Dan.SHODAN else 400 * dan_number(dan)


def _start(dan: Dan) -> int:
    return 200 * dan_number(dan) if Dan.SHODAN <= dan <= Dan.JUUDAN else 0


def _hanchan_loss(dan: Dan) -> int:
    """Last place's loss in a hanchan: none up to 3級, 2級 15, 1級 30, dan k 30 + 15·k."""
    if dan <= Dan.KYU3 or dan == Dan.TENHOUI:
        return 0
    return 15 * (dan - Dan.KYU3)


#: start pt (初期pt) and promotion pt (昇段pt, None at the top) of each rank
START = {dan: _start(dan) for dan in Dan}
THRESHOLD = {dan: _threshold(dan) for dan in Dan}
#: (1st, 2nd) gains in a 4-player hanchan, by lobby
GAINS = {
    Lobby.IPPAN: (30, 15),
    Lobby.JOUKYUU: (60, 15),
    Lobby.TOKUJOU: (75, 30),
    Lobby.HOUOU: (90, 45),
}
#: sanma (1st, 2nd) gains in a hanchan, by lobby: East-only 30/50/70/90 for 1st and 0 for
#: 2nd in nodocchi's rules (docs/ranking.md; one source, still to be confirmed)
SANMA_GAINS = {
    Lobby.IPPAN: (45, 0),
    Lobby.JOUKYUU: (75, 0),
    Lobby.TOKUJOU: (105, 0),
    Lobby.HOUOU: (135, 0),
}
LOSS = {dan: _hanchan_loss(dan) for dan in Dan}


def _scaled(points: int, length: Length) -> int:
    """An East-only game moves two thirds of a hanchan's points (exact: every entry of the
    hanchan tables is a multiple of 15)."""
    return points if length == Length.HANCHAN else points * 2 // 3


def change(dan: Dan, placement: int, lobby: Lobby, length: Length, sanma: bool = False) -> int:
    """The points one game moves, before promotion or demotion.

    >>> change(Dan.SHODAN, 4, Lobby.JOUKYUU, Length.HANCHAN)
    -45
    >>> change(Dan.SHODAN, 4, Lobby.JOUKYUU, Length.TONPUU)
    -30
    >>> change(Dan.YONDAN, 1, Lobby.TOKUJOU, Length.TONPUU)
    50
    >>> change(Dan.NANADAN, 1, Lobby.HOUOU, Length.TONPUU, sanma=True)
    90
    >>> change(Dan.NANADAN, 3, Lobby.HOUOU, Length.HANCHAN, sanma=True)
    -135
    """
    last = 3 if sanma else 4
    if not 1 <= placement <= last:
        raise ValueError(f"placement {placement} out of 1..{last}")
    if dan == Dan.TENHOUI:
        return 0
    first, second = (SANMA_GAINS if sanma else GAINS)[lobby]
    by_place = {1: first, 2: second, last: -LOSS[dan]}
    return _scaled(by_place.get(placement, 0), length)


def start() -> DanState:
    """A new account: 新人, 0 pt."""
    return DanState(Dan.SHINJIN, 0)


def apply(
    state: DanState, placement: int, lobby: Lobby, length: Length, sanma: bool = False
) -> DanState:
    """The state after one ranked game: promoted at the threshold (to the next rank's start,
    the excess dropped), demoted below 0 from 初段 up (to the lower rank's start), a kyu
    rank's points never below 0."""
    if state.dan == Dan.TENHOUI:
        return state
    points = state.points + change(state.dan, placement, lobby, length, sanma)
    threshold = THRESHOLD[state.dan]
    if threshold is not None and points >= threshold:
        up = Dan(state.dan + 1)
        return DanState(up, START[up])
    if points < 0:
        if state.dan >= Dan.SHODAN:
            down = Dan(state.dan - 1)
            return DanState(down, START[down])
        return DanState(state.dan, 0)
    return DanState(state.dan, points)
