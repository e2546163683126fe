"""A hand's readings from its parts' (``tables``): every combination when some part
reads several ways, and the order ties between readings go by.

Most hands read one way and never come here; ``score_hand`` builds their one reading itself.
"""

from __future__ import annotations

from itertools import product

from engine.rules.scoring.tables import Reading

#: the man, pin and sou readings of one hand reading (the honour part reads one way)
Parts = tuple[Reading, Reading, Reading]


def every_reading(
    man: tuple[Reading, ...],
    pin: tuple[Reading, ...],
    sou: tuple[Reading, ...],
    h: Reading,
    add: int,
    bits: int,
    part: int,
    at: int,
) -> list[tuple[int, int, int, Parts | None]]:
    """(add, bits, waits of the winning kind, parts) of every reading of a hand with several;
    ``add`` and ``bits`` are the melds', the winning tile is at offset ``at`` of ``part``."""
    add += h[0]
    at *= 5
    return [
        (add + m[0] + p[0] + s[0], bits | m[1] | p[1] | s[1], (m, p, s, h)[part][2] >> at & 31, r)
        for r in product(man, pin, sou)
        for m, p, s in (r,)
    ]


def comes_first(parts: Parts | None, best: Parts | None) -> bool:
    """Whether a reading worth as much as the best so far, with other yaku, comes before it in
    ``hand.decompose``'s order (where chiitoitsu and kokushi come first): ties go as in the
    reference scorer whatever order the readings were tried in."""
    return best is not None and parts is not None and _order(parts) < _order(best)


def _order(parts: Parts) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A reading in absolute kinds (pair, sequences, triplets): the sort key of ``decompose``."""
    pair = -1
    runs: list[int] = []
    trips: list[int] = []
    for base, (_, _, _, (p, shuntsu, koutsu)) in zip((0, 9, 18), parts, strict=True):
        if p >= 0:
            pair = base + p
        runs.extend(base + x for x in shuntsu)
        trips.extend(base + x for x in koutsu)
    return pair, tuple(runs), tuple(trips)
