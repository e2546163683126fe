"""Kyoku: the state of the hand being played, in one record.

The start of a hand replaces ``game.round`` whole (``engine.game.turn.setup_round``), so
nothing kept for one hand can leak into the next: a new per-hand field goes here, with its
starting value as the default, and is reset without anyone remembering to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rules.kinds import HandEnd
from engine.rules.meld import Meld
from engine.rules.wall import Wall


def _no_wall() -> Wall:
    return Wall([], [], [], [])


@dataclass(slots=True, eq=False)
class Kyoku:
    """One hand's table state (the seats' own state is on each Player)."""

    wall: Wall = field(default_factory=_no_wall)
    #: the indicators turned so far (the first at the deal)
    dora_indicators: list[int] = field(default_factory=list)
    #: open kans whose dora is revealed after the next discard (or the next kan)
    pending_dora: int = 0
    #: the seat of every kan made this hand, in order (four by several players: suukaikan)
    kan_seats: list[int] = field(default_factory=list)
    #: the seat whose turn it is (the last drawer, caller or discarder)
    turn: int = 0
    #: some call, kan or kita interrupted the first go-around
    any_call: bool = False
    #: the last discard: the tile a claim inquiry is about
    last_discard: int = -1
    #: the kinds of the uninterrupted first discards (suufon renda)
    first_discards: list[int] = field(default_factory=list)
    #: the abort after the discard following a fourth kan by several players
    suukaikan_pending: bool = False
    #: the kan or kita meld others may rob while its inquiry is open
    kan_meld: Meld | None = None
    #: the scores and riichi sticks when the hand started (its RoundResult books them)
    scores: tuple[int, ...] = ()
    kyotaku: int = 0
    #: how the hand ended, set by the ending listeners and read when the match advances
    renchan: bool = False
    end: HandEnd | None = None
