"""Actions a player may take and the options they carry (compiled by mypyc: engine.native).

Their types, priorities and msgspec records live in engine.actions.records (interpreted: a
compiled module would drop a Struct's class keywords) and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Final, Protocol, overload

from engine.actions.records import (
    PRIORITY,
    TOP,
    ActionType,
    Choice,
    Decision,
    InvalidResponse,
    TenpaiInfo,
)

__all__ = [
    "NO_TILES",
    "PRIORITY",
    "TOP",
    "Action",
    "ActionType",
    "Choice",
    "Decision",
    "DiscardOptions",
    "InvalidResponse",
    "Option",
    "TenpaiInfo",
    "TenpaiSource",
]


#: ``Final``: compiled, a C static (a plain module global is a dict lookup per read)
_PRIORITY: Final = PRIORITY


class TenpaiSource(Protocol):
    """Computes, on demand, what discarding ``tile`` would leave (see Option.tenpai)."""

    def info(self, tile: int) -> tuple[TenpaiInfo, ...]: ...

    def ready(self) -> dict[int, list[int]]:
        """Discard kind -> the waits it leaves: the kinds whose ``info`` may be non-empty."""
        ...


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

    def tenpai_by_index(self) -> dict[int, tuple[TenpaiInfo, ...]]:
        """``tenpai_at`` of the options that leave tenpai (most leave none), by index: a
        client's inquiry reads them all, and one call from outside the compiled engine costs
        what a dozen cost one by one."""
        found: dict[int, tuple[TenpaiInfo, ...]] = {}
        ready = self._source.ready()  # one call through the protocol, not one per discard
        for index, tile in enumerate(self.tiles):
            if tile >> 2 in ready and (tenpai := self.tenpai_at(index)):
                found[index] = tenpai
        return found

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
        self.priority = _PRIORITY[type]
        self.options = options

    def __repr__(self) -> str:
        return f"Action({self.type.name}, {list(self.options)})"
