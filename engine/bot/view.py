"""What one seat knows of the table: the only state a bot is given.

A ``SeatView`` holds the public table plus that seat's own concealed tiles;
engine/bot/seen.py's ``seat_view(game, seat)`` copies one out of a running Game.
"""

from __future__ import annotations

import msgspec

from engine.rules.config import RuleConfig
from engine.rules.meld import Meld
from engine.rules.tiles import NUM_KINDS, dora_of


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's knowledge at a decision. Seats are absolute (0..n-1); tiles physical ids."""

    seat: int
    rules: RuleConfig
    #: own concealed tiles, the drawn one included
    hand: tuple[int, ...]
    #: the tile just drawn, None when none is held (after a call, or on others' turns)
    drawn: int | None
    #: every seat's melds and river (called discards included, in discard order)
    melds: tuple[tuple[Meld, ...], ...]
    rivers: tuple[tuple[int, ...], ...]
    #: per seat: index in its river of the riichi declaring discard, -1 without riichi
    riichi: tuple[int, ...]
    dora_indicators: tuple[int, ...]
    scores: tuple[int, ...]
    #: kyoku counts from 0 (East 1) on; the dealer is kyoku % players
    kyoku: int
    honba: int
    kyotaku: int
    round_wind: int
    seat_wind: int
    #: ordinary draws left in the wall
    remaining: int

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def dealer(self) -> int:
        return self.kyoku % len(self.scores)

    def dora_kinds(self) -> list[int]:
        """The dora kind of each revealed indicator (a kind appears once per indicator)."""
        return [dora_of(t >> 2, self.rules.sanma) for t in self.dora_indicators]

    def visible(self) -> list[int]:
        """34 counts of every tile this seat can see: own hand, rivers, melds, indicators."""
        counts = [0] * NUM_KINDS
        for t in self.hand:
            counts[t >> 2] += 1
        for river in self.rivers:
            for t in river:
                counts[t >> 2] += 1
        for melds in self.melds:
            for m in melds:
                for t in m.tiles:
                    counts[t >> 2] += 1
                if m.called >= 0:  # the called tile is in the river and in the meld
                    counts[m.called >> 2] -= 1
        for t in self.dora_indicators:
            counts[t >> 2] += 1
        return counts
