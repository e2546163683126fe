"""Physical ids for a log's tiles: a pool of unseen copies and each seat's hand.

Logs name a tile by kind and red flag only. Every tile that enters the round (haipai, a
draw, an indicator) takes a fresh copy from the pool; every tile that leaves a hand (discard,
call, kan) is looked up in that hand, so one tile keeps one id from wall to river.
"""

from __future__ import annotations

from engine.replay.record import ReplayError
from engine.rules.tiles import NUM_TILES, SANMA_REMOVED, kind_to_str


class TileFlow:
    """The pool of unseen tiles and the concealed hands of one round."""

    def __init__(self, red: frozenset[int], players: int) -> None:
        self.red = red
        self.players = players
        self.free: dict[tuple[int, bool], list[int]] = {}
        for t in range(NUM_TILES):
            if players == 3 and t >> 2 in SANMA_REMOVED:
                continue
            self.free.setdefault((t >> 2, t in red), []).append(t)
        self.hands: list[list[int]] = [[] for _ in range(players)]

    def new(self, kind: int, is_red: bool) -> int:
        """A fresh copy from the pool (a tile the wall gives)."""
        copies = self.free.get((kind, is_red))
        if not copies:
            red = " red" if is_red else ""
            raise ReplayError(f"no{red} {kind_to_str(kind)} left: more than the set holds")
        return copies.pop(0)

    def draw(self, seat: int, kind: int, is_red: bool) -> int:
        tile = self.new(kind, is_red)
        self.hands[seat].append(tile)
        return tile

    def take(self, seat: int, kind: int, is_red: bool, avoid: int = -1) -> int:
        """Remove a matching tile from ``seat``'s hand; ``avoid`` (the tile just drawn) is
        chosen last, so a hand-tile discard of the drawn kind stays a tedashi."""
        hand = self.hands[seat]
        found = -1
        for t in hand:
            if t >> 2 == kind and (t in self.red) == is_red:
                found = t
                if t != avoid:
                    break
        if found < 0:
            red = " red" if is_red else ""
            raise ReplayError(f"seat {seat} has no{red} {kind_to_str(kind)} in hand")
        hand.remove(found)
        return found

    def take_id(self, seat: int, tile: int) -> int:
        hand = self.hands[seat]
        if tile not in hand:
            raise ReplayError(f"seat {seat} does not hold tile {tile}")
        hand.remove(tile)
        return tile

    def unused(self) -> list[int]:
        """Tiles no log entry named, ascending: they fill the unrecorded wall positions."""
        return sorted(t for copies in self.free.values() for t in copies)
