"""Where a match starts and what each hand ended with: plain records, no game logic.

Their own module so the ending listeners (engine.game.endings) book a RoundResult without
importing engine.game.game, and replay code reads them without the Game.
"""

from __future__ import annotations

import msgspec

from engine.game.events import Win
from engine.rules.kinds import HandEnd


class RoundStart(msgspec.Struct, frozen=True):
    """Where a match starts when it does not start at East 1 (replays)."""

    kyoku: int
    honba: int
    kyotaku: int
    scores: tuple[int, ...]


class RoundResult(msgspec.Struct, frozen=True, kw_only=True):
    """One played hand as a record exporter needs it."""

    round_index: int
    kyoku: int
    honba: int
    kyotaku: int
    scores: tuple[int, ...]
    #: AGARI or the Ryuukyoku kind (EXHAUSTIVE, NAGASHI, KYUUSHU, ...)
    kind: HandEnd
    deltas: tuple[int, ...]
    wins: tuple[Win, ...] = ()
    tenpai: tuple[int, ...] = ()
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
