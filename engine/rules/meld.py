"""Melds (fuuro): chii, pon, the three kans and kita, as plain immutable data."""

from __future__ import annotations

from enum import IntEnum

import msgspec


class MeldType(IntEnum):
    CHII = 0
    PON = 1
    DAIMINKAN = 2
    KAKAN = 3
    ANKAN = 4
    KITA = 5  # sanma nukidora: a North set aside, not a group of the hand


#: the member sets the properties below test (Python 3.11 reads an enum member through a
#: descriptor, 0.1-0.2 us a time; menzen checks run on every turn)
_CLOSED = frozenset((MeldType.ANKAN, MeldType.KITA))
_KANS = frozenset((MeldType.DAIMINKAN, MeldType.KAKAN, MeldType.ANKAN))


class Meld(msgspec.Struct, frozen=True, array_like=True):
    """One meld. ``tiles`` are physical ids, sorted; ``called`` is the id taken from
    ``from_seat`` (absolute seat), -1 for an ankan or kita; ``added`` is the kakan's fourth tile."""

    type: MeldType
    tiles: tuple[int, ...]
    called: int = -1
    from_seat: int = -1
    added: int = -1

    @property
    def kind(self) -> int:
        """The lowest kind in the meld (the kind of a pon/kan)."""
        return self.tiles[0] >> 2

    @property
    def opened(self) -> bool:
        """Whether the meld breaks menzen (an ankan and kita do not)."""
        return self.type not in _CLOSED

    @property
    def is_kan(self) -> bool:
        return self.type in _KANS
