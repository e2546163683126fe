"""The unit tables scoring walks, built once at import.

Conditions on the tiles and the situation are tested once per hand, grouped by gate so one
flag check skips a whole group; conditions on the shape are tested once per interpretation,
and only the units that can hold on a shape of that form and number of sequences.
"""

from __future__ import annotations

from engine.rules.yaku import REGULAR, YAKUMAN
from engine.rules.yaku.features import CHIITOITSU, KOKUSHI, STANDARD
from engine.rules.yaku.unit import Test, Yakuman

Units = tuple[tuple[int, Test, int], ...]
Gated = tuple[tuple[str, Units], ...]


def units_of(shape: bool, menzen: bool) -> Units:
    """(index, condition, han) of the regular units worth something with this hand."""
    out = []
    for i, y in enumerate(REGULAR):
        han = y.closed if menzen else y.opened
        if han and y.shape == shape:
            out.append((i, y.test, han))
    return tuple(out)


def gated(units: Units) -> Gated:
    """Hand-level units grouped by gate, so one flag check can skip a whole group."""
    gates = sorted({REGULAR[i].gate for i, _, _ in units})
    return tuple((g, tuple(u for u in units if REGULAR[u[0]].gate == g)) for g in gates)


def by_shape(units: Units) -> tuple[tuple[Units, ...], ...]:
    """Shape units by [form][number of sequences]: only those that can hold there."""
    return tuple(
        tuple(
            tuple(u for u in units if REGULAR[u[0]].form == form and n in REGULAR[u[0]].seqs)
            for n in range(5)
        )
        for form in (STANDARD, CHIITOITSU, KOKUSHI)
    )


#: [menzen] -> hand-level units by gate / shape units by form and sequence count
HAND_YAKU = (gated(units_of(False, False)), gated(units_of(False, True)))
SHAPE_YAKU = (by_shape(units_of(True, False)), by_shape(units_of(True, True)))
HAND_YAKUMAN: tuple[tuple[str, tuple[Yakuman, ...]], ...] = tuple(
    (g, tuple(y for y in YAKUMAN if not y.shape and y.gate == g))
    for g in sorted({y.gate for y in YAKUMAN if not y.shape})
)
SHAPE_YAKUMAN = tuple(y for y in YAKUMAN if y.shape)
PINFU = next(i for i, y in enumerate(REGULAR) if y.name == "pinfu")
