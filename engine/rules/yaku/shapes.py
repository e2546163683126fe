"""Every interpretation of a complete hand: its form, its groups, and how the winning tile
completed it (the wait), with what fu needs to know about concealed triplets."""

from __future__ import annotations

from engine.rules.hand import decompose, is_chiitoitsu, is_kokushi
from engine.rules.yaku.features import (
    CHIITOITSU,
    KANCHAN,
    KOKUSHI,
    PENCHAN,
    RYANMEN,
    SHANPON,
    STANDARD,
    TANKI,
    HandInfo,
    Shape,
)

#: a shape with (closed triplets, the triplet a ron completed or -1), for fu
Reading = tuple[Shape, tuple[tuple[int, ...], int]]


def interpretations(
    h: HandInfo, closed: list[int], meld_shuntsu: list[int], meld_koutsu: list[int], ankans: int
) -> list[Reading]:
    """Every interpretation, with (closed triplets, triplet completed by ron) for fu."""
    out: list[Reading] = []
    if h.no_melds:
        n_kinds = len(h.kinds)  # 13 for kokushi, 7 for chiitoitsu: skip both tests otherwise
        if n_kinds == 13 and is_kokushi(closed):
            return [(Shape(KOKUSHI, -1, (), (), 0, TANKI), ((), -1))]
        if n_kinds == 7 and is_chiitoitsu(closed):
            out.append((Shape(CHIITOITSU, -1, (), (), 0, TANKI), ((), -1)))
    w = h.win_kind
    for d in decompose(closed):
        seqs = tuple(sorted(d.shuntsu + tuple(meld_shuntsu))) if meld_shuntsu else d.shuntsu
        trips = tuple(sorted(d.koutsu + tuple(meld_koutsu))) if meld_koutsu else d.koutsu
        ankou = len(d.koutsu) + ankans
        if d.pair == w:
            out.append((Shape(STANDARD, d.pair, seqs, trips, ankou, TANKI), (d.koutsu, -1)))
        seen = set()
        for s in d.shuntsu:
            if s <= w <= s + 2:
                wait = seq_wait(s, w)
                if wait not in seen:
                    seen.add(wait)
                    out.append((Shape(STANDARD, d.pair, seqs, trips, ankou, wait), (d.koutsu, -1)))
        if w in d.koutsu:
            if h.tsumo:
                out.append((Shape(STANDARD, d.pair, seqs, trips, ankou, SHANPON), (d.koutsu, -1)))
            else:
                rest = list(d.koutsu)
                rest.remove(w)
                shape = Shape(STANDARD, d.pair, seqs, trips, ankou - 1, SHANPON)
                out.append((shape, (tuple(rest), w)))
    return out


def seq_wait(start: int, win: int) -> int:
    """How the winning tile completed the sequence starting at ``start``."""
    pos = win - start
    if pos == 1:
        return KANCHAN
    if (pos == 2 and start % 9 == 0) or (pos == 0 and start % 9 == 6):
        return PENCHAN
    return RYANMEN
