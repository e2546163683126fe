"""Actions a player may take, their priorities (seed 000) and the options they carry."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Protocol

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


class TenpaiSource(Protocol):
    """Computes, on demand, what discarding ``tile`` would leave (see Option.tenpai)."""

    def info(self, tile: int) -> tuple[TenpaiInfo, ...]: ...


class Option:
    """One way to take an action: the player's own tiles used (the called tile is the
    event's). A discard's tenpai info is computed on first read (read it while the inquiry
    is open), so centers that never look at it (benchmarks, random bots) never pay for the
    scoring previews."""

    __slots__ = ("_source", "_tenpai", "tiles")

    def __init__(
        self,
        tiles: tuple[int, ...],
        tenpai: Callable[[], tuple[TenpaiInfo, ...]] | tuple[TenpaiInfo, ...] = (),
        source: TenpaiSource | None = None,
    ) -> None:
        self.tiles = tiles
        self._source = source
        self._tenpai: tuple[TenpaiInfo, ...] | Callable[[], tuple[TenpaiInfo, ...]] | None = (
            None if source is not None else tenpai
        )

    @property
    def tenpai(self) -> tuple[TenpaiInfo, ...]:
        found = self._tenpai
        if isinstance(found, tuple):
            return found
        if found is None:
            assert self._source is not None
            value = self._source.info(self.tiles[0])
        else:
            value = found()
        self._tenpai = value
        self._source = None
        return value

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
