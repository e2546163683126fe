"""Yaku of one reading of a standard-form hand, over its feature record (``records``): the
summed ``add`` fields and the OR-ed ``bits`` masks of its parts and melds.

Pinfu and sanankou also depend on where the winning tile sits, so scoring tests them per wait.
"""

from __future__ import annotations

from engine.rules.yaku import (
    CHANTA,
    DOUKOU,
    IIPEIKOU,
    ITTSU,
    JUNCHAN,
    RYANPEIKOU,
    SANSHOKU,
    TOITOI,
)
from engine.rules.yaku.records import B_TRIP, F_INNER, F_PEIKOU, F_SEQ
from engine.rules.yaku.records import ITTSU as ITTSU_MASKS


def of_groups(add: int, bits: int, menzen: bool, honours: bool) -> int:
    """Iipeikou, ryanpeikou, sanshoku, ittsu, chanta, junchan, toitoi, sanshoku doukou."""
    mask = 0
    seqs = add >> F_SEQ & 7
    if menzen:
        peikou = add >> F_PEIKOU & 7  # pairs of identical sequences
        if peikou == 1:
            mask = IIPEIKOU
        elif peikou == 2:  # it replaces iipeikou and beats chiitoitsu on the same tiles
            mask = RYANPEIKOU
    if seqs >= 3:
        if bits & bits >> 7 & bits >> 14 & 127:  # one start in all three suits
            mask |= SANSHOKU
        if ITTSU_MASKS[bits & 127] or ITTSU_MASKS[bits >> 7 & 127] or ITTSU_MASKS[bits >> 14 & 127]:
            mask |= ITTSU
    if not seqs:
        mask |= TOITOI
    elif not add >> F_INNER & 7:  # every group and the pair hold a terminal or honour
        mask |= CHANTA if honours else JUNCHAN
    if seqs <= 1:  # three triplets at least
        trips = bits >> B_TRIP
        if trips & trips >> 9 & trips >> 18 & 511:
            mask |= DOUKOU
    return mask


def _possible(fields: int) -> bool:
    """Whether ``of_groups`` can find anything in a reading whose ``add`` holds these fields
    (sequences, concealed triplets, peikou, inner groups: 3 bits each from ``F_SEQ``)."""
    seqs, peikou, inner = fields & 7, fields >> 6 & 7, fields >> 9 & 7
    return seqs != 2 or peikou > 0 or inner == 0


#: [add >> F_SEQ & 0o7777] -> ``_possible``: most readings need not ask ``of_groups``
GROUP_YAKU_POSSIBLE = tuple(_possible(f) for f in range(1 << 12))
