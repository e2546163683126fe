"""Actions a player may take, their priorities (seed 000) and the options they carry."""

from __future__ import annotations

from collections.abc import Callable
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


TOP = 10000
#: higher preempts lower when several players answer one inquiry
PRIORITY: dict[ActionType, int] = {
    ActionType.RON: TOP,
    ActionType.TSUMO: TOP,
    ActionType.RIICHI: TOP,
    ActionType.DISCARD: TOP,
    ActionType.KYUUSHU: TOP,
    ActionType.NEXT_ROUND: TOP,
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


class Option:
    """One way to take an action: the player's own tiles used (the called tile is the
    event's). A discard's tenpai info is computed on first read, so centers that never
    look at it (benchmarks, random bots) never pay for scoring previews."""

    __slots__ = ("_tenpai", "_tenpai_fn", "tiles")

    def __init__(
        self,
        tiles: tuple[int, ...],
        tenpai: Callable[[], tuple[TenpaiInfo, ...]] | tuple[TenpaiInfo, ...] = (),
    ) -> None:
        self.tiles = tiles
        if isinstance(tenpai, tuple):
            self._tenpai_fn: Callable[[], tuple[TenpaiInfo, ...]] | None = None
            self._tenpai: tuple[TenpaiInfo, ...] | None = tenpai
        else:
            self._tenpai_fn = tenpai
            self._tenpai = None

    @property
    def tenpai(self) -> tuple[TenpaiInfo, ...]:
        if self._tenpai is None:
            assert self._tenpai_fn is not None
            self._tenpai = self._tenpai_fn()
            self._tenpai_fn = None
        return self._tenpai

    def __repr__(self) -> str:
        return f"Option({self.tiles})"


class Action:
    """One action type offered to one player, with every legal option."""

    __slots__ = ("options", "priority", "type")

    def __init__(self, type: ActionType, options: list[Option] | None = None) -> None:
        self.type = type
        self.priority = PRIORITY[type]
        self.options = options if options is not None else [Option(())]

    def __repr__(self) -> str:
        return f"Action({self.type.name}, {self.options})"


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
