"""Stable dan (安定段位): the dan at which a player's placement rates would neither gain nor
lose points on average, so the dan they would settle at by playing on forever.

At dan ``k`` (初段 = 1) the expected points per game are ``g1·p1 + g2·p2 − (a + b·k)·p_last``
with the lobby's gains ``g1, g2`` and last place's loss ``a + b·k``; it is zero at
``k = ((g1·n1 + g2·n2) / n_last − a) / b``. For 鳳凰 hanchan that is the published
``((60·n1 + 30·n2) / n4 − 20) / 10`` (docs/ranking.md). Built from the dan tables, so the
lobby and length are the ones the player's games were played in.

>>> stable_dan((3, 4, 3, 3), Lobby.HOUOU, Length.HANCHAN)
8.0
>>> stable_dan((1, 1, 1, 1), Lobby.HOUOU, Length.HANCHAN)
7.0
"""

from __future__ import annotations

from collections.abc import Sequence

from server.ladder.tenhou_dan import Dan, Length, Lobby, change


def stable_dan(
    counts: Sequence[int], lobby: Lobby, length: Length, sanma: bool = False
) -> float | None:
    """``counts``: games at each placement (1st first); None before any last place (the
    number is unbounded then) or with no games."""
    last = len(counts)
    if last != (3 if sanma else 4):
        raise ValueError(f"{last} placement counts for {'sanma' if sanma else '4 players'}")
    if counts[-1] <= 0:
        return None
    first = change(Dan.SHODAN, 1, lobby, length, sanma)
    second = change(Dan.SHODAN, 2, lobby, length, sanma)
    loss_1 = -change(Dan.SHODAN, last, lobby, length, sanma)
    step = -change(Dan.NIDAN, last, lobby, length, sanma) - loss_1
    gained = (first * counts[0] + second * counts[1]) / counts[-1]
    return (gained - (loss_1 - step)) / step
