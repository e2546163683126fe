"""A seat's state: plain fields only, so a snapshot or a restart needs no closures."""

from __future__ import annotations

from engine.rules.hand import far_from_tenpai
from engine.rules.hand import waits as hand_waits
from engine.rules.meld import Meld
from engine.rules.tiles import to_counts

#: no kind barred from discard: one shared empty set for every seat and every discard
NO_KUIKAE: frozenset[int] = frozenset()


class Player:
    """One seat. The hand is a list of physical ids; waits are cached until it changes."""

    __slots__ = (
        "_waits",
        "counts",
        "discard_waits",
        "discards_called",
        "double_riichi",
        "drawn",
        "first_turn",
        "furiten_riichi",
        "furiten_temp",
        "hand",
        "ippatsu",
        "karaten_melds",
        "kuikae",
        "melds",
        "noten_declared",
        "pao_seat",
        "pao_yaku",
        "riichi",
        "riichi_discard",
        "riichi_pending",
        "rinshan",
        "river",
        "score",
        "seat",
        "tsumo_waits",
    )

    def __init__(self, seat: int, score: int, karaten_melds: bool = False) -> None:
        self.seat = seat
        self.score = score
        #: ``rules.karaten_melds``: copies in the melds count against a wait too
        self.karaten_melds = karaten_melds
        self.new_round([])

    def new_round(self, hand: list[int]) -> None:
        self.hand = hand
        #: the concealed hand as 34 kind counts, kept in step with ``hand``
        self.counts = to_counts(hand)
        self.melds: list[Meld] = []
        #: every tile this seat discarded, called ones included (furiten looks at all)
        self.river: list[int] = []
        #: some discard of this seat was called (no nagashi mangan)
        self.discards_called = False
        self.drawn = -1
        #: waits of the hand before the tile in ``drawn`` came (what tsumo checks)
        self.tsumo_waits: list[int] = []
        self.rinshan = False
        self.riichi = False
        self.double_riichi = False
        self.riichi_pending = False
        #: index in the river of the declaring discard, -1 without riichi
        self.riichi_discard = -1
        self.ippatsu = False
        #: passed a winning tile since the last own discard
        self.furiten_temp = False
        #: passed a winning tile after riichi: furiten for the rest of the hand
        self.furiten_riichi = False
        #: no discard made yet this hand
        self.first_turn = True
        #: kinds that may not be discarded right after a chii/pon
        self.kuikae = NO_KUIKAE
        self.pao_seat = -1
        self.pao_yaku = ""
        #: declared noten at the exhaustive draw though tenpai (``tenpai_declaration``)
        self.noten_declared = False
        #: the waits of the concealed hand once worked out, None until ``waits()`` does
        self._waits: list[int] | None = None
        #: discard kind -> the waits it leaves, when this turn's riichi check worked them
        #: out (``tenpai_discards`` of this very hand); None otherwise
        self.discard_waits: dict[int, list[int]] | None = None

    def changed(self) -> None:
        """The concealed hand changed: drop cached waits."""
        self._waits = None
        self.discard_waits = None

    def menzen(self) -> bool:
        """No meld breaks the closed hand (a method, not a property: Python 3.11 inlines a
        method's call, a property's it does not)."""
        for m in self.melds:  # noqa: SIM110 (a plain loop: a generator costs 3x here)
            if m.opened:
                return False
        return True

    def waits(self) -> list[int]:
        """Kinds completing the concealed hand (call when it holds 3n+1 tiles). A wait whose
        four copies are all concealed is none; one whose fourth copy is in a meld (a tanki
        on the kind of one's own pon) is a wait unless ``karaten_melds`` (Tenhou: it is)."""
        found = self._waits
        if found is None:
            found = hand_waits(self.counts)
            if self.karaten_melds and found and self.melds:
                found = [k for k in found if self.counts[k] + self._melded(k) < 4]
            self._waits = found
        return found

    def _melded(self, kind: int) -> int:
        return sum(1 for m in self.melds for t in m.tiles if t >> 2 == kind)

    def furiten(self) -> bool:
        """Discard, temporary or riichi furiten: no ron at all."""
        if self.furiten_temp or self.furiten_riichi:
            return True
        river = {t >> 2 for t in self.river}
        return any(k in river for k in self.waits())

    def draw(self, tile: int) -> None:
        """Take ``tile`` into the hand; the cached waits stay those of the hand before it."""
        self.hand.append(tile)
        self.counts[tile >> 2] += 1
        self.drawn = tile
        self.discard_waits = None

    def discard(self, tile: int) -> None:
        if tile != self.drawn:  # a tsumogiri leaves the hand (and its waits) as before the draw
            self._waits = self._waits_after(tile)
        self.hand.remove(tile)
        self.counts[tile >> 2] -= 1
        self.drawn = -1
        self.discard_waits = None

    def _waits_after(self, tile: int) -> list[int] | None:
        """The waits after discarding ``tile`` (the hand still holds it) if the turn already
        worked them out or no discard can leave the hand tenpai (most hands in play: four
        lookups instead of a search), else None (computed when first asked)."""
        known = self.discard_waits
        if known is not None and not (self.karaten_melds and self.melds):  # those: meld check
            return known.get(tile >> 2, [])
        return [] if far_from_tenpai(self.counts, len(self.hand)) else None

    def take(self, tiles: tuple[int, ...] | list[int]) -> None:
        """Tiles leave the hand for a meld."""
        for t in tiles:
            self.hand.remove(t)
            self.counts[t >> 2] -= 1
        self.changed()
