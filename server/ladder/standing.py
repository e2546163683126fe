"""One finished ranked game applied to every seat's standing: placements from the final
scores, then each seat's dan and points and R, all from the standings before the game.

This is the one call the server makes in the transaction that marks a ranked game finished;
it is pure, so the same final scores always give the same new standings (a restart that
applies the game again from the same old standings computes the same result).

>>> even = (Standing(),) * 4
>>> after = after_game(even, (40000, 30000, 20000, 10000), (0, 1, 2, 3), LobbyRules())
>>> for s in after:
...     print(s.dan.name, s.points, s.rating, s.games)
KYU9 0 1530.0 1
SHINJIN 15 1510.0 1
SHINJIN 0 1490.0 1
SHINJIN 0 1470.0 1
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from server.ladder import rating, tenhou_dan
from server.ladder.placement import placements
from server.ladder.tenhou_dan import Dan, DanState, Length, Lobby


class LobbyRules(msgspec.Struct, frozen=True):
    """What a ranked lobby's games move: its Tenhou room level (the 1st/2nd gains), its
    length and its player count (sanma has its own ladder)."""

    lobby: Lobby = Lobby.IPPAN
    length: Length = Length.HANCHAN
    players: int = 4


class Standing(msgspec.Struct, frozen=True):
    """An account's standing on one ladder (4-player or sanma): dan, points, R and the
    ranked games played on it."""

    dan: Dan = Dan.SHINJIN
    points: int = 0
    rating: float = rating.START
    games: int = 0


#: the least dan and R a Tenhou room admits (上級: 1級; 特上: 四段 and R1800; 鳳凰: 七段 and
#: R2000; docs/ranking.md); an operator may gate its lobbies by them or not
ENTRY = {
    Lobby.IPPAN: (Dan.SHINJIN, 0.0),
    Lobby.JOUKYUU: (Dan.KYU1, 0.0),
    Lobby.TOKUJOU: (Dan.YONDAN, 1800.0),
    Lobby.HOUOU: (Dan.NANADAN, 2000.0),
}


def may_enter(lobby: Lobby, standing: Standing) -> bool:
    """The standing meets the room's entry floor.

    >>> may_enter(Lobby.TOKUJOU, Standing(Dan.YONDAN, 800, 1799.99, 300))
    False
    >>> may_enter(Lobby.TOKUJOU, Standing(Dan.YONDAN, 800, 1800.0, 300))
    True
    """
    dan, floor = ENTRY[lobby]
    return standing.dan >= dan and standing.rating >= floor


def after_game(
    standings: Sequence[Standing],
    final_scores: Sequence[int],
    seat_order: Sequence[int],
    rules: LobbyRules,
) -> tuple[Standing, ...]:
    """Each seat's standing after the game (seat-indexed like ``standings``)."""
    if not len(standings) == len(final_scores) == rules.players:
        raise ValueError(f"{len(standings)} standings, {len(final_scores)} scores")
    places = placements(final_scores, seat_order)
    ratings = [s.rating for s in standings]
    deltas = rating.table_deltas(ratings, [s.games for s in standings], places)
    sanma = rules.players == 3
    out = []
    for s, place, d in zip(standings, places, deltas, strict=True):
        dan = tenhou_dan.apply(DanState(s.dan, s.points), place, rules.lobby, rules.length, sanma)
        out.append(Standing(dan.dan, dan.points, s.rating + d, s.games + 1))
    return tuple(out)
