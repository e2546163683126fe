"""Actions a player may take, their priorities (seed 000) and the options they carry."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import IntEnum
from typing import Protocol, overload

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


class DiscardOptions(Sequence[Option]):
    """One discard option per tile of ``tiles``, each built on first read.

    A turn offers about eleven discards and a center reads one or two of them: building
    the Option objects only when read saves most of a turn's allocations. An option once
    read is kept, so its tenpai info is computed at most once."""

    __slots__ = ("_made", "_source", "tiles")

    def __init__(self, tiles: list[int], source: TenpaiSource) -> None:
        self.tiles = tiles
        self._source = source
        self._made: list[Option | None] | None = None

    def __len__(self) -> int:
        return len(self.tiles)

    @overload
    def __getitem__(self, index: int) -> Option: ...

    @overload
    def __getitem__(self, index: slice) -> list[Option]: ...

    def __getitem__(self, index: int | slice) -> Option | list[Option]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.tiles)))]
        made = self._made
        if made is None:
            made = self._made = [None] * len(self.tiles)
        option = made[index]  # raises IndexError past the end, as a list does
        if option is None:
            option = made[index] = Option((self.tiles[index],), source=self._source)
        return option

    def __iter__(self) -> Iterator[Option]:
        for i in range(len(self.tiles)):
            yield self[i]

    def tenpai_at(self, index: int) -> tuple[TenpaiInfo, ...]:
        """Option ``index``'s tenpai info, without building the option unless it was (a
        client's inquiry spells out every discard's waits: one lookup each, mostly none)."""
        made = self._made
        option = None if made is None else made[index]
        if option is not None:
            return option.tenpai
        return self._source.info(self.tiles[index])

    def __repr__(self) -> str:
        return repr(list(self))


#: the one option of an action that uses no own tiles (tsumo, ron, skip, kyuushu...): it is
#: never changed, so every such action shares it
NO_TILES: tuple[Option] = (Option(()),)


class Action:
    """One action type offered to one player, with every legal option."""

    __slots__ = ("options", "priority", "type")

    def __init__(self, type: ActionType, options: Sequence[Option] = NO_TILES) -> None:
        self.type = type
        self.priority = PRIORITY[type]
        self.options = options

    def __repr__(self) -> str:
        return f"Action({self.type.name}, {list(self.options)})"


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
