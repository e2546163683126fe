"""Per-part tables behind hand analysis, built once at import.

A hand splits into four independent *parts*: man, pin, sou (nine kinds, sequences allowed) and
honours (seven kinds, triplets only). A hand is complete exactly when every part is complete
and exactly one part holds the pair, so everything the hot paths need is a lookup keyed by a
part's count tuple. Offsets are relative to the part (0..8 or 0..6), so the three suits share
one set of tables and the caller adds the part's first kind:

* ``PartTables.complete[key]``: 0 (groups only) or 1 (groups and the pair); absent = incomplete.
* ``PartTables.decomps[key]``: every reading of a complete part, sorted.
* ``PartTables.waits_pair[key]``: offsets that complete a part whose tile count is 3n+1 (the
  completed part holds the pair); ``waits_plain[key]`` the same for 3n+2 (no pair after).

Only complete shapes of at most 14 tiles are enumerated (four groups and a pair: 21,743 suit
shapes, 498 honour shapes; about 0.25 s at import); wait tables are derived from them by
removing one tile, so a kind whose four copies are already in the part can never be a wait
(no shape holds five).
"""

from __future__ import annotations

from typing import NamedTuple

#: a part's reading: pair kind (-1 = none), first kinds of sequences, kinds of triplets
PartDecomp = tuple[int, tuple[int, ...], tuple[int, ...]]
Key = tuple[int, ...]

MAX_GROUPS = 4


class PartTables(NamedTuple):
    size: int
    complete: dict[Key, int]
    decomps: dict[Key, tuple[PartDecomp, ...]]
    waits_pair: dict[Key, tuple[int, ...]]
    waits_plain: dict[Key, tuple[int, ...]]


def _groups(size: int, sequences: bool) -> list[tuple[int, int, int]]:
    """Each group of a part as the offsets it uses; sequences first, then triplets."""
    runs = [(i, i + 1, i + 2) for i in range(size - 2)] if sequences else []
    return runs + [(i, i, i) for i in range(size)]


def _complete_shapes(size: int, sequences: bool) -> dict[Key, list[PartDecomp]]:
    """Every complete part of at most MAX_GROUPS groups (+ optional pair), relative offsets."""
    groups = _groups(size, sequences)
    n_runs = size - 2 if sequences else 0
    shapes: dict[Key, list[PartDecomp]] = {}
    counts = [0] * size

    def add_pairs(chosen: list[int]) -> None:
        shuntsu = tuple(g for g in chosen if g < n_runs)
        koutsu = tuple(g - n_runs for g in chosen if g >= n_runs)
        shapes.setdefault(tuple(counts), []).append((-1, shuntsu, koutsu))
        for p in range(size):
            if counts[p] <= 2:
                counts[p] += 2
                shapes.setdefault(tuple(counts), []).append((p, shuntsu, koutsu))
                counts[p] -= 2

    def extend(chosen: list[int], start: int) -> None:
        add_pairs(chosen)
        if len(chosen) == MAX_GROUPS:
            return
        for g in range(start, len(groups)):
            tiles = groups[g]
            for t in tiles:
                counts[t] += 1
            if all(counts[t] <= 4 for t in tiles):
                chosen.append(g)
                extend(chosen, g)
                chosen.pop()
            for t in tiles:
                counts[t] -= 1

    extend([], 0)
    return shapes


def build(size: int, sequences: bool) -> PartTables:
    """The tables of a part of ``size`` kinds, in offsets 0..size-1 (the caller adds the base)."""
    complete: dict[Key, int] = {}
    decomps: dict[Key, tuple[PartDecomp, ...]] = {}
    pair_masks: dict[Key, int] = {}
    plain_masks: dict[Key, int] = {}
    for key, readings in _complete_shapes(size, sequences).items():
        has_pair = sum(key) % 3 == 2
        complete[key] = int(has_pair)
        decomps[key] = tuple(sorted(readings))
        target = pair_masks if has_pair else plain_masks
        less = list(key)
        for i, n in enumerate(key):
            if n:
                less[i] = n - 1
                t = tuple(less)
                target[t] = target.get(t, 0) | 1 << i
                less[i] = n
    # one shared tuple per wait set instead of one per key
    offsets = [tuple(i for i in range(size) if m >> i & 1) for m in range(1 << size)]
    return PartTables(
        size,
        complete,
        decomps,
        {k: offsets[m] for k, m in pair_masks.items()},
        {k: offsets[m] for k, m in plain_masks.items()},
    )


def part_code(key: Key) -> int:
    """A part's counts as one machine word: 3 bits a kind, the first lowest (the layout of
    the scorer's hand codes, and of ``hand.far_from_tenpai``'s words)."""
    code = 0
    for n in reversed(key):
        code = code << 3 | n
    return code


def shifted(tables: PartTables, base: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Each offset tuple used by a reading (runs or triplets) -> the same kinds plus ``base``.

    A few hundred tuples, so joining part readings into a hand reading is a lookup and a
    concatenation instead of arithmetic per group.
    """
    used = {t for readings in tables.decomps.values() for r in readings for t in (r[1], r[2])}
    return {t: tuple(base + x for x in t) for t in used}


#: the tables shared by man, pin and sou, and those of the honours
SUIT = build(9, True)
HONOURS = build(7, False)
#: (first kind, tables) of the four parts in kind order
PARTS = ((0, SUIT), (9, SUIT), (18, SUIT), (27, HONOURS))
