"""Yaku of one reading of a standard-form hand, over its feature record (``tables``): the
summed ``add`` fields and the OR-ed ``bits`` masks of its parts and melds.

The yaku of the counts alone (iipeikou, ryanpeikou, toitoi, chanta, junchan) are a table
lookup by the ``add`` fields; the table also flags when the sequence or triplet masks can hold
more (sanshoku, ittsu, sanshoku doukou), which ``of_bits`` then reads. Pinfu and sanankou also
depend on where the winning tile sits, so scoring tests them per wait.
"""

from __future__ import annotations

from typing import Final

import engine.rules.scoring.yaku as y
from engine.rules.scoring.tables import B_TRIP
from engine.rules.scoring.tables import ITTSU as ITTSU_MASKS

# the yaku bits, Final here so the compiled module reads them as C constants
CHANTA: Final = y.CHANTA
DOUKOU: Final = y.DOUKOU
IIPEIKOU: Final = y.IIPEIKOU
ITTSU: Final = y.ITTSU
JUNCHAN: Final = y.JUNCHAN
RYANPEIKOU: Final = y.RYANPEIKOU
SANSHOKU: Final = y.SANSHOKU
TOITOI: Final = y.TOITOI

#: the flag bits' shift: just above every yaku bit, so a mask stays a small int
FLAG_SHIFT: Final = len(y.REGULAR)
#: flags: the reading has three sequences (sanshoku or ittsu possible) / three triplets
#: (sanshoku doukou possible); and both
RUNS: Final = 1 << FLAG_SHIFT
TRIPS: Final = 2 << FLAG_SHIFT
FLAGS: Final = RUNS | TRIPS


def _of_counts(fields: int, menzen: int, honours: int) -> int:
    """Yaku and flags of a reading whose ``add`` holds these fields (sequences, concealed
    triplets, peikou, inner groups: 3 bits each from ``F_SEQ``)."""
    seqs, peikou, inner = fields & 7, fields >> 6 & 7, fields >> 9 & 7
    mask = 0
    if menzen and peikou == 1:  # pairs of identical sequences
        mask = IIPEIKOU
    elif menzen and peikou == 2:  # it replaces iipeikou and beats chiitoitsu on the same tiles
        mask = RYANPEIKOU
    if not seqs:
        mask |= TOITOI
    elif not inner:  # every group and the pair hold a terminal or honour
        mask |= CHANTA if honours else JUNCHAN
    if seqs >= 3:
        mask |= RUNS
    if seqs <= 1:
        mask |= TRIPS
    return mask


#: [menzen][honours in the hand][add >> F_SEQ & 0o7777] -> (``_of_counts``, concealed
#: triplets, whether the hand has pinfu's shape: closed, all four groups sequences)
OF_COUNTS: Final = tuple(
    tuple(
        tuple(
            (_of_counts(f, menzen, honours), f >> 3 & 7, bool(menzen) and f & 7 == 4)
            for f in range(1 << 12)
        )
        for honours in (0, 1)
    )
    for menzen in (0, 1)
)


def of_bits(mask: int, bits: int) -> int:
    """``mask`` (from ``OF_COUNTS``) with sanshoku, ittsu and sanshoku doukou where its flags
    allow them, and the flags cleared."""
    if mask & RUNS:
        if bits & bits >> 7 & bits >> 14 & 127:  # one start in all three suits
            mask |= SANSHOKU
        if ITTSU_MASKS[bits & 127] or ITTSU_MASKS[bits >> 7 & 127] or ITTSU_MASKS[bits >> 14 & 127]:
            mask |= ITTSU
    if mask & TRIPS:  # three triplets at least
        trips = bits >> B_TRIP
        if trips & trips >> 9 & trips >> 18 & 511:
            mask |= DOUKOU
    return mask & ~FLAGS
