"""The engine's plain records of actions: their types and priorities (seed 000), and the
msgspec structs a decision is recorded and resolved as.

Kept apart from engine.actions.types, which mypyc compiles: a msgspec Struct made in a
compiled module loses its class keywords (``frozen``, ``array_like``: a Decision would
encode as an object and could be changed), so the structs are defined here, interpreted,
and types re-exports them.
"""

from __future__ import annotations

from enum import IntEnum

import msgspec


class ActionType(IntEnum):
    DISCARD = 0
    RIICHI = 1
    TSUMO = 2
    RON = 3
    CHII = 4
    PON = 5
    DAIMINKAN = 6
    ANKAN = 7
    KAKAN = 8
    KITA = 9
    KYUUSHU = 10
    SKIP = 11
    NEXT_ROUND = 12
    #: at an exhaustive draw under ``tenpai_declaration`` (M-League): show the tenpai hand,
    #: or hide it and be treated as noten
    TENPAI = 13
    NOTENPAI = 14


TOP = 10000
#: higher preempts lower when several players answer one inquiry
PRIORITY: dict[ActionType, int] = {
    ActionType.RON: TOP,
    ActionType.TSUMO: TOP,
    ActionType.RIICHI: TOP,
    ActionType.DISCARD: TOP,
    ActionType.KYUUSHU: TOP,
    ActionType.NEXT_ROUND: TOP,
    ActionType.TENPAI: TOP,
    ActionType.NOTENPAI: TOP,
    ActionType.ANKAN: 4000,
    ActionType.KAKAN: 4000,
    ActionType.DAIMINKAN: 4000,
    ActionType.KITA: 4000,
    ActionType.PON: 3000,
    ActionType.CHII: 2000,
    ActionType.SKIP: 1000,
}


class InvalidResponse(ValueError):
    """A response that names no legal choice; the inquiry and game are unchanged."""


class TenpaiInfo(msgspec.Struct, frozen=True, array_like=True):
    """One wait a discard leaves, with its guaranteed minimum value (a ron, no luck yaku)."""

    kind: int
    han: int
    fu: int
    yakuman: int
    points: int


class Decision(msgspec.Struct, frozen=True, array_like=True):
    """One answer as recorded: with the seed, the list of these reproduces a game."""

    inquiry_id: int
    seat: int
    action_index: int
    option_index: int = 0


class Choice(msgspec.Struct, frozen=True):
    """A resolved answer: who chose which action and option."""

    seat: int
    action: ActionType
    tiles: tuple[int, ...]
    priority: int
