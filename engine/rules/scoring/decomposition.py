"""A winning hand read the plain way: its pair, its groups, how the winning tile completed it,
and the circumstances of the win. This is what every yaku predicate (``yaku``) reads.

``readings`` lists every way a hand can be read, by brute force (no tables), in the order
ties between equally valuable readings go: seven pairs, thirteen orphans, then the standard
readings sorted by (pair, sequences, triplets), each with its possible waits in the order
tanki, ryanmen, kanchan, penchan, shanpon. It is slow and meant to be obviously right: the
fast scorer (``score``) is tested against it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import EAST, HONOURS, TERMINALS, YAOCHUU, Kind, Tile

if TYPE_CHECKING:
    from engine.rules.config import RuleConfig
    from engine.rules.scoring.result import WinContext

Shape = Literal["shuntsu", "koutsu", "kantsu"]
Form = Literal["standard", "chiitoitsu", "kokushi"]
Wait = Literal["tanki", "ryanmen", "kanchan", "penchan", "shanpon", "kokushi", "kokushi_13"]


@dataclass(frozen=True)
class Group:
    """A sequence, triplet or kan. ``melded``: called or declared (a kan); ``opened``: called
    from another player, so the hand is no longer closed (an ankan is melded, not opened);
    ``concealed``: a triplet or kan nobody gave (an ankou: not called, not completed by a
    ron)."""

    shape: Shape
    kind: Kind  # the lowest kind
    melded: bool = False
    opened: bool = False
    concealed: bool = True

    @property
    def kinds(self) -> tuple[Kind, ...]:
        if self.shape == "shuntsu":
            return (self.kind, self.kind + 1, self.kind + 2)
        return (self.kind,) * (4 if self.shape == "kantsu" else 3)

    @property
    def is_set(self) -> bool:
        """A triplet or a kan."""
        return self.shape != "shuntsu"

    @property
    def has_yaochuu(self) -> bool:
        return any(k in YAOCHUU for k in self.kinds)


@dataclass(frozen=True)
class Reading:
    """One reading of a winning hand in its circumstances."""

    form: Form
    #: standard: the pair; chiitoitsu: the seven pairs; kokushi: the kind held twice
    pairs: tuple[Kind, ...]
    #: concealed groups and melds (none for chiitoitsu and kokushi)
    groups: tuple[Group, ...]
    wait: Wait
    win: Kind
    #: every tile the hand holds, melds included (kita too: they count for dora)
    tiles: tuple[Tile, ...]
    #: the kinds of the hand's tiles, melds included, kita not (they are not part of the hand)
    kinds: tuple[Kind, ...]
    ctx: WinContext
    rules: RuleConfig

    @cached_property
    def menzen(self) -> bool:
        """Nothing called from another player (ankan allowed)."""
        return not any(g.opened for g in self.groups)

    @property
    def pair(self) -> Kind:
        return self.pairs[0]

    @property
    def runs(self) -> list[Kind]:
        """The first kinds of the sequences."""
        return [g.kind for g in self.groups if not g.is_set]

    @property
    def sets(self) -> list[Kind]:
        """The kinds of the triplets and kans."""
        return [g.kind for g in self.groups if g.is_set]

    @property
    def kans(self) -> int:
        return sum(g.shape == "kantsu" for g in self.groups)

    @property
    def concealed_sets(self) -> int:
        """Triplets and kans nobody gave: ankou and ankan."""
        return sum(g.is_set and g.concealed for g in self.groups)

    @property
    def melded(self) -> bool:
        """Some group was called or declared (an ankan too)."""
        return any(g.melded for g in self.groups)

    @property
    def dealer(self) -> bool:
        return self.ctx.seat_wind == EAST

    def has(self, kinds: Sequence[Kind] | frozenset[Kind]) -> bool:
        """Some tile of the hand is of these kinds."""
        return any(k in kinds for k in self.kinds)

    def only(self, kinds: Sequence[Kind] | frozenset[Kind]) -> bool:
        """Every tile of the hand is of these kinds."""
        return all(k in kinds for k in self.kinds)


#: the kinds a suit's sequence may start at: 1..7
_RUN_STARTS = frozenset(k for k in range(27) if k % 9 <= 6)
_MELD_SHAPES: dict[MeldType, Shape] = {
    MeldType.CHII: "shuntsu",
    MeldType.PON: "koutsu",
    MeldType.DAIMINKAN: "kantsu",
    MeldType.KAKAN: "kantsu",
    MeldType.ANKAN: "kantsu",
}


def readings(
    concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext, rules: RuleConfig
) -> Iterator[Reading]:
    """Every reading of a hand (``concealed`` includes the winning tile), in tie order; none
    when the hand is not complete."""
    called = [
        Group(_MELD_SHAPES[m.type], m.tiles[0] >> 2, True, m.opened, not m.opened)
        for m in melds
        if m.type != MeldType.KITA
    ]
    win = ctx.win_tile >> 2
    counts = Counter(t >> 2 for t in concealed)
    if not counts[win] or len(concealed) != 14 - 3 * len(called):
        return
    tiles = (*concealed, *(t for m in melds for t in m.tiles))
    kinds = (*counts.elements(), *(k for g in called for k in g.kinds))

    def reading(
        form: Form, pairs: tuple[Kind, ...], groups: tuple[Group, ...], wait: Wait
    ) -> Reading:
        return Reading(form, pairs, groups, wait, win, tiles, tuple(sorted(kinds)), ctx, rules)

    if not called and len(counts) == 7 and set(counts.values()) == {2}:
        yield reading("chiitoitsu", tuple(sorted(counts)), (), "tanki")
    if not called and set(counts) == set(TERMINALS + HONOURS):
        (twice,) = [k for k, n in counts.items() if n == 2]
        yield reading("kokushi", (twice,), (), "kokushi_13" if twice == win else "kokushi")
    for pair, runs, sets in sorted(_standard(counts, 4 - len(called))):
        for wait in _waits(win, pair, runs, sets):
            groups = tuple(Group("shuntsu", s) for s in runs) + tuple(
                # a triplet a ron completed is open for fu and for the concealed triplet yaku
                Group("koutsu", k, concealed=not (k == win and wait == "shanpon" and not ctx.tsumo))
                for k in sets
            )
            yield reading("standard", (pair,), groups + tuple(called), wait)


def _standard(
    counts: Counter[Kind], groups: int
) -> set[tuple[Kind, tuple[Kind, ...], tuple[Kind, ...]]]:
    """Every (pair, sequence starts, triplet kinds) of concealed tiles holding ``groups``
    groups and a pair."""
    found = set()
    for pair in [k for k, n in counts.items() if n >= 2]:
        rest = [counts[k] - 2 * (k == pair) for k in range(34)]
        for runs, sets in _groups(rest, 0):
            if len(runs) + len(sets) == groups:
                found.add((pair, tuple(sorted(runs)), tuple(sorted(sets))))
    return found


def _groups(counts: list[int], start: Kind) -> Iterator[tuple[list[Kind], list[Kind]]]:
    """Every way to cut ``counts`` into sequences and triplets: the lowest tile left is either
    in a triplet of its kind or starts a sequence."""
    k = next((k for k in range(start, 34) if counts[k]), None)
    if k is None:
        yield [], []
        return
    if counts[k] >= 3:
        counts[k] -= 3
        for runs, sets in _groups(counts, k):
            yield runs, [k, *sets]
        counts[k] += 3
    if k in _RUN_STARTS and counts[k + 1] and counts[k + 2]:
        for i in (k, k + 1, k + 2):
            counts[i] -= 1
        for runs, sets in _groups(counts, k):
            yield [k, *runs], sets
        for i in (k, k + 1, k + 2):
            counts[i] += 1


def _waits(win: Kind, pair: Kind, runs: Sequence[Kind], sets: Sequence[Kind]) -> list[Wait]:
    """How the winning tile can have completed this reading, each way once, in tie order."""
    found: set[Wait] = set()
    if pair == win:
        found.add("tanki")
    for s in runs:
        if win == s + 1:
            found.add("kanchan")
        elif win == s:  # the low end: 4 of 456 waited with 5-6; 7 of 789 with 8-9 only
            found.add("penchan" if s % 9 == 6 else "ryanmen")
        elif win == s + 2:
            found.add("penchan" if s % 9 == 0 else "ryanmen")
    if win in sets:
        found.add("shanpon")
    order: tuple[Wait, ...] = ("tanki", "ryanmen", "kanchan", "penchan", "shanpon")
    return [w for w in order if w in found]
