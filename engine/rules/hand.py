"""Hand analysis: decompositions, complete hands, waits, shanten and tenpai discards.

Every function takes a 34-slot count vector of the CONCEALED part only (melds belong to the
caller): a hand with k melds has 14 - 3k tiles when complete and 13 - 3k when waiting.
The work is table lookups (see ``agari_table``): a hand is cut into man, pin, sou and honours
and each part's count tuple is looked up, so no call searches recursively.

Four copies (Tenhou): a kind whose four copies are all in the concealed hand is not a wait,
and a hand waiting only on such kinds is not tenpai (``1111m`` + four groups is noten). Tiles
in melds do NOT count by default: Tenhou has scored a hand waiting on 3s beside an open kan of
3s as tenpai, and xiangting's shanten, which the engine also uses, follows the concealed-hand
rule too. A variant that counts melds passes ``held`` (meld tiles per kind) to ``waits``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

import xiangting

from engine.rules.agari_table import HONOURS, PARTS, SUIT, Key, PartDecomp

#: terminal and honour kinds in kind order (kokushi's thirteen)
_YAOCHUU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_SUIT_COMPLETE = SUIT.complete
_HONOUR_COMPLETE = HONOURS.complete
#: the part index of each kind
_PART_OF = tuple(min(k // 9, 3) for k in range(34))


class Decomposition(NamedTuple):
    """One standard-form reading of a complete concealed part: a pair and closed groups."""

    pair: int
    shuntsu: tuple[int, ...]
    koutsu: tuple[int, ...]


def _tuple(counts: Sequence[int]) -> tuple[int, ...]:
    return counts if type(counts) is tuple else tuple(counts)


def _keys(c: tuple[int, ...]) -> list[Key]:
    return [c[0:9], c[9:18], c[18:27], c[27:34]]


# ---------------------------------------------------------------- complete hands


def _is_standard(c: tuple[int, ...]) -> bool:
    m = _SUIT_COMPLETE.get(c[0:9])
    p = _SUIT_COMPLETE.get(c[9:18])
    s = _SUIT_COMPLETE.get(c[18:27])
    h = _HONOUR_COMPLETE.get(c[27:34])
    if m is None or p is None or s is None or h is None:
        return False
    return m + p + s + h == 1


def is_chiitoitsu(counts: Sequence[int]) -> bool:
    """Seven distinct pairs in a fully concealed hand; four of a kind is not two pairs."""
    return counts.count(2) == 7 and counts.count(0) == 27


def is_kokushi(counts: Sequence[int]) -> bool:
    """All thirteen terminal and honour kinds, one of them twice, and nothing else."""
    yao = [counts[k] for k in _YAOCHUU]
    return 0 not in yao and sum(yao) == 14 and sum(counts) == 14


def kokushi_13_sided(counts: Sequence[int]) -> bool:
    """A 13-tile hand holding each terminal and honour once: it waits on all thirteen."""
    return all(counts[k] == 1 for k in _YAOCHUU) and sum(counts) == 13


def is_agari(counts: Sequence[int]) -> bool:
    """A complete concealed part: standard form, chiitoitsu or kokushi."""
    c = _tuple(counts)
    return _is_standard(c) or is_chiitoitsu(c) or is_kokushi(c)


def decompose(counts: Sequence[int]) -> list[Decomposition]:
    """Every standard-form reading of a complete part (sum 3n+2), sorted; [] if there is none."""
    c = _tuple(counts)
    per_part: list[tuple[int, tuple[PartDecomp, ...]]] = []
    pairs = 0
    for (base, table), key in zip(PARTS, _keys(c), strict=True):
        readings = table.decomps.get(key)
        if readings is None:
            return []
        pairs += table.complete[key]
        if key.count(0) != table.size:
            per_part.append((base, readings))
    if pairs != 1:
        return []
    bases = [base for base, _ in per_part]
    out = [_join(bases, combo) for combo in product(*(r for _, r in per_part))]
    out.sort()
    return out


def _join(bases: list[int], readings: tuple[PartDecomp, ...]) -> Decomposition:
    """One reading of the hand from one reading per part, shifted to absolute kinds."""
    pair = -1
    shuntsu: list[int] = []
    koutsu: list[int] = []
    for base, (p, seqs, trips) in zip(bases, readings, strict=True):
        if p >= 0:
            pair = base + p
        shuntsu.extend(base + x for x in seqs)
        koutsu.extend(base + x for x in trips)
    return Decomposition(pair, tuple(shuntsu), tuple(koutsu))


# ---------------------------------------------------------------- waits


def _standard_waits(keys: list[Key]) -> list[int]:
    """Kinds completing a standard-form hand whose parts have these keys (sum 3n+1).

    At most one part may be incomplete: it takes the tile, and becomes the pair holder iff no
    other part holds a pair. With every part complete, two parts hold a pair each and either
    may turn its pair into a triplet (shanpon) or other groups (e.g. 11m -> 111m).
    """
    missing = -1
    pairs = 0
    status: list[int] = []
    for i in range(4):
        f = PARTS[i][1].complete.get(keys[i])
        if f is None:
            if missing >= 0:
                return []
            missing = i
            f = 0
        pairs += f
        status.append(f)
    if missing >= 0:
        base, table = PARTS[missing]
        found = (table.waits_pair if pairs == 0 else table.waits_plain).get(keys[missing])
        return [base + x for x in found] if found and pairs <= 1 else []
    if pairs != 2:
        return []
    out: list[int] = []
    for i in range(4):
        if status[i]:
            base, table = PARTS[i]
            out.extend(base + x for x in table.waits_plain.get(keys[i], ()))
    return out


def _special_waits(c: tuple[int, ...]) -> list[int]:
    """Chiitoitsu and kokushi waits of a fully concealed 13-tile hand."""
    out: list[int] = []
    if c.count(2) == 6 and c.count(1) == 1 and c.count(0) == 27:
        out.append(c.index(1))
    yao = [c[k] for k in _YAOCHUU]
    if sum(yao) == 13 and sum(c) == 13:
        if 0 not in yao:
            out.extend(_YAOCHUU)
        elif yao.count(0) == 1 and yao.count(2) == 1:
            out.append(_YAOCHUU[yao.index(0)])
    return out


def _merge(standard: list[int], special: list[int]) -> list[int]:
    return sorted(set(standard).union(special)) if special else standard


def waits(counts: Sequence[int], held: Sequence[int] | None = None) -> list[int]:
    """Kinds that complete a waiting part (sum 3n+1), ascending.

    A kind whose four copies are in ``counts`` is never a wait. ``held`` (34 counts of meld
    tiles) also drops kinds whose four copies are in hand plus melds, for variants that want it.
    """
    c = _tuple(counts)
    found = _standard_waits(_keys(c))
    if len(c) == 34 and sum(c) == 13:
        found = _merge(found, _special_waits(c))
    if held is not None:
        found = [k for k in found if c[k] + held[k] < 4]
    return found


def is_tenpai(counts: Sequence[int]) -> bool:
    """The part waits on at least one kind (not all four copies of which it holds)."""
    return bool(waits(counts))


def shanten(counts: Sequence[int], sanma: bool = False) -> int:
    """Tiles away from tenpai (0 = tenpai, -1 = complete), from xiangting's replacement number.

    Sanma hands must not hold 2m..8m (xiangting raises ValueError).
    """
    players = xiangting.PlayerCount.THREE if sanma else xiangting.PlayerCount.FOUR
    return int(xiangting.calculate_replacement_number(list(counts), players)) - 1


def tenpai_discards(
    counts: Sequence[int], held: Sequence[int] | None = None
) -> dict[int, list[int]]:
    """Discard kind -> the waits it leaves, for each discard of a 3n+2 part that leaves tenpai.

    Only the part that loses the tile changes, so the other parts' keys are reused; a discard
    cannot fix two incomplete parts, which prunes most candidates of a far-from-ready hand.
    """
    c = list(counts)
    keys = _keys(tuple(c))
    broken = [i for i in range(4) if PARTS[i][1].complete.get(keys[i]) is None]
    special = len(c) == 34 and sum(c) == 14 and _special_possible(c)
    out: dict[int, list[int]] = {}
    for d in range(34):
        if not c[d]:
            continue
        part = _PART_OF[d]
        found: list[int] = []
        if len(broken) <= 1 or (len(broken) == 2 and part in broken):
            base = PARTS[part][0]
            key = keys[part]
            j = d - base
            trial = keys.copy()
            trial[part] = (*key[:j], key[j] - 1, *key[j + 1 :])
            found = _standard_waits(trial)
        if special:
            c[d] -= 1
            found = _merge(found, _special_waits(tuple(c)))
            c[d] += 1
        if held is not None:
            found = [k for k in found if c[k] - (k == d) + held[k] < 4]
        if found:
            out[d] = found
    return out


def _special_possible(c: list[int]) -> bool:
    """Whether some discard could leave a chiitoitsu or kokushi wait (cheap pre-check)."""
    pairs = sum(1 for n in c if n >= 2)
    return pairs >= 6 or sum(1 for k in _YAOCHUU if c[k]) >= 12
