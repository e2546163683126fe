"""Feature records of every complete part, packed into ints at import, so scoring a hand is a
few lookups and bitwise operations instead of a search.

A hand is a *code* of three bits of count per kind, kept in two halves that each fit a
machine word (so the compiled scorer never touches a big integer): ``lo`` holds man then pin,
``hi`` sou then the honours; a part's key is a 27-bit slice of one half, and hand-wide
questions (only simples? only honours?) are one mask test per part. ``CODE[tile]`` adds one
tile to its half, above the copy bits that mark a five's copy for the red-five count.
Each reading of a complete part becomes ``(add, bits, waits, order)``:

* ``add``: fields that SUM over the parts and the melds (see the ``F_*`` shifts): pairs, pair
  kind + 1, sequences, concealed triplets, identical-sequence pairs (peikou), groups without a
  terminal or honour (0 over the hand = an outside hand), the fu of triplets; and for melds
  (``MELD``) how many groups, open groups and kans they are.
* ``bits``: masks that OR over them: sequence starts per suit (7 bits each from bit 0) and
  triplet kinds per suit (9 bits each from bit 21), for sanshoku and ittsu.
* ``waits``: per kind offset in the part, 5 bits (at ``5 * offset``) of how the winning tile
  can sit in this reading (``W_*``).
* ``order``: the reading itself in part offsets (agari_table's ``PartDecomp``): when two
  readings of a hand tie with different yaku, the one ``hand.decompose`` lists first wins.

``READINGS[part][part code]`` is ``(add, bits, waits, readings)``: the first reading's
``add`` and ``bits`` flat (most parts read one way; ``add`` has ``F_MULTI`` set when there are
more), the waits of the part by offset (``waits[offset]``, a merged set over its readings only
matters for a part with one reading) and every reading, for a hand that has to try them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from engine.rules.agari_table import HONOURS, SUIT, PartDecomp, part_code
from engine.rules.tiles import FIVES, GREEN, YAOCHUU, YAOCHUU_KINDS, Tile

#: one half of a hand (``lo``: man, pin; ``hi``: sou, honours): 3 bits of count per kind,
#: the half's first kind lowest; a concealed hand's halves hold copy bits below the counts
HandCode: TypeAlias = int

#: the copy bits of the fives below each half's counts: man and pin (8), sou (4)
LO_COPY_BITS: Final = 8
HI_COPY_BITS: Final = 4
#: the first tile id of the high half (1s)
HI_TILE: Final = 72


def _tile_code(t: Tile) -> HandCode:
    """One count of the tile's kind in its half, above the copy bits; a five also sets the bit
    of its copy (``4 * suit + copy``, less 8 in the high half): red fives are the lowest
    copies, so a rule's red tiles are a mask of those bits (``RuleConfig.red_copies``)."""
    kind = t >> 2
    copy = 1 << 4 * (kind // 9) + (t & 3) if kind in FIVES else 0
    if t < HI_TILE:
        return 1 << LO_COPY_BITS + 3 * kind | copy
    return 1 << HI_COPY_BITS + 3 * (kind - 18) | copy >> 8


#: a tile's count (and copy bit) in its half: ``lo`` below ``HI_TILE``, else ``hi``
CODE: Final = tuple(_tile_code(t) for t in range(136))
PART_MASK: Final = (1 << 27) - 1
#: [kind] -> the shift of its count field in its half (counts only, no copy bits)
KIND_SHIFT: Final = tuple(3 * (k if k < 18 else k - 18) for k in range(34))


# summed fields of ``add``
F_PAIRS: Final = 0
F_PAIR: Final = 3
F_SEQ: Final = 9
F_ANKOU: Final = 12
F_PEIKOU: Final = 15
F_INNER: Final = 18
F_FU: Final = 21
#: summed over the melds only: groups called or declared, open ones, kans
F_GROUPS: Final = 29
F_OPEN: Final = 32
F_KANS: Final = 35
#: set in every reading of a part that has several, so a hand knows it has to try them all
F_MULTI: Final = 38
# OR-ed fields of ``bits``
B_SEQ: Final = 0
B_TRIP: Final = 21
# wait bits, in the order a hand's readings are tried
W_TANKI: Final = 1
W_RYANMEN: Final = 2
W_KANCHAN: Final = 4
W_PENCHAN: Final = 8
W_SHANPON: Final = 16


def _mask(offsets: Iterable[int], per_kind: int) -> int:
    return sum(per_kind << 3 * o for o in offsets)


#: a count field per offset of one suit part: its simples / its terminals
SIMPLE_PART: Final = _mask(range(1, 8), 7)
TERMINAL_PART: Final = _mask((0, 8), 7)
#: the green tiles of the sou part and of the honour part
GREEN_SOU: Final = _mask((k - 18 for k in GREEN if k < 27), 7)
GREEN_HONOUR: Final = _mask((k - 27 for k in GREEN if k >= 27), 7)
#: bits 0 and 2 of every count of a half: clear exactly when every count is 0 or 2
ODD_OR_FOUR_LO: Final = _mask(range(18), 5)
ODD_OR_FOUR_HI: Final = _mask(range(16), 5)
#: one of each terminal and honour of a half (kokushi holds at least this)
KOKUSHI_LO: Final = _mask((k for k in YAOCHUU_KINDS if k < 18), 1)
KOKUSHI_HI: Final = _mask((k - 18 for k in YAOCHUU_KINDS if k >= 18), 1)
#: the simples of a half
SIMPLE_LO: Final = SIMPLE_PART | SIMPLE_PART << 27
SIMPLE_HI: Final = SIMPLE_PART

Reading = tuple[int, int, int, PartDecomp]

_YAOCHUU: Final = tuple(k in YAOCHUU for k in range(34))
#: fu of a concealed triplet by kind (an open one is worth half)
ANKOU_FU: Final = tuple(8 if y else 4 for y in _YAOCHUU)


def _peikou(shuntsu: tuple[int, ...]) -> int:
    """Pairs of identical sequences in a sorted run list (2 = ryanpeikou)."""
    found = i = 0
    while i < len(shuntsu) - 1:
        if shuntsu[i] == shuntsu[i + 1]:
            found += 1
            i += 2
        else:
            i += 1
    return found


def _run_waits(s: int) -> int:
    """How the winning tile sits in the sequence starting at offset ``s``, per offset."""
    low = W_PENCHAN if s == 6 else W_RYANMEN
    high = W_PENCHAN if s == 0 else W_RYANMEN
    return low << 5 * s | W_KANCHAN << 5 * (s + 1) | high << 5 * (s + 2)


_RUN_WAITS = tuple(_run_waits(s) for s in range(7))


def _suit_reading(r: PartDecomp) -> tuple[int, int, int, int]:
    """(add, sequence mask, triplet mask, waits) of a suit reading, in offsets 0..8 (the
    pair kind and the masks are moved to their suit by ``_placed``)."""
    pair, shuntsu, koutsu = r
    # one plain pass over each group list (23,000 readings at import: no generator sums)
    inner = int(pair >= 0 and pair not in (0, 8))  # groups without a terminal, the pair counted
    seqs = trips = fu = 0
    waits = W_TANKI << 5 * pair if pair >= 0 else 0
    for s in shuntsu:
        inner += s not in (0, 6)
        seqs |= 1 << s
        waits |= _RUN_WAITS[s]
    for k in koutsu:
        inner += k not in (0, 8)
        trips |= 1 << k
        fu += ANKOU_FU[k]
        waits |= W_SHANPON << 5 * k
    add = (
        (pair >= 0) << F_PAIRS
        | (pair + 1 if pair >= 0 else 0) << F_PAIR
        | len(shuntsu) << F_SEQ
        | len(koutsu) << F_ANKOU
        | _peikou(shuntsu) << F_PEIKOU
        | inner << F_INNER
        | fu << F_FU
    )
    return add, seqs, trips, waits


def _honour_reading(r: PartDecomp) -> Reading:
    pair, _, koutsu = r
    add = (
        (pair >= 0) << F_PAIRS
        | (28 + pair if pair >= 0 else 0) << F_PAIR
        | len(koutsu) << F_ANKOU
        | 8 * len(koutsu) << F_FU
    )
    waits = 0
    for o in range(7):
        waits |= ((W_TANKI if pair == o else 0) | (W_SHANPON if o in koutsu else 0)) << 5 * o
    return add, 0, waits, r


_SUIT_RELATIVE = [
    (part_code(key), tuple((_suit_reading(r), r) for r in rs)) for key, rs in SUIT.decomps.items()
]


def _placed(suit: int) -> dict[int, tuple[Reading, ...]]:
    """The suit readings of man (0), pin (1) or sou (2)."""
    pair_base = 9 * suit << F_PAIR
    seq_shift, trip_shift = B_SEQ + 7 * suit, B_TRIP + 9 * suit
    return {
        code: tuple(
            (
                (add + pair_base if r[0] >= 0 else add) | (len(readings) > 1) << F_MULTI,
                seqs << seq_shift | trips << trip_shift,
                w,
                r,
            )
            for (add, seqs, trips, w), r in readings
        )
        for code, readings in _SUIT_RELATIVE
    }


Part = tuple[int, int, tuple[int, ...], tuple[Reading, ...]]


def _by_offset(readings: Iterable[tuple[Reading, ...]], size: int) -> dict[int, tuple[int, ...]]:
    """The first reading's waits of each part, split by offset: ``waits`` -> per offset."""
    firsts = {rs[0][2] for rs in readings}
    return {w: tuple(w >> 5 * o & 31 for o in range(size)) for w in firsts}


def _flat(
    readings: dict[int, tuple[Reading, ...]], by_offset: dict[int, tuple[int, ...]]
) -> dict[int, Part]:
    """Each part code's first reading flat beside all of them (see the module docstring)."""
    return {code: (rs[0][0], rs[0][1], by_offset[rs[0][2]], rs) for code, rs in readings.items()}


_HONOUR_READINGS = {
    part_code(key): tuple(_honour_reading(r) for r in rs) for key, rs in HONOURS.decomps.items()
}


def _suits() -> tuple[dict[int, Part], ...]:
    """Man, pin and sou. They place their readings apart but share the waits (offsets
    within the suit): 17,000 distinct waits are split once, not once a suit."""
    placed = [_placed(suit) for suit in range(3)]
    by_offset = _by_offset(placed[0].values(), 9)
    return tuple(_flat(readings, by_offset) for readings in placed)


#: [part] -> {part code: ``Part``}; part codes are the hand code's 27-bit slices
READINGS: Final = (
    *_suits(),
    _flat(_HONOUR_READINGS, _by_offset(_HONOUR_READINGS.values(), 7)),
)


# one int per suit part, its first reading suit-relative (``SUIT_PACKED``): the ``add``
# fields below ``P_MULTI``, sequence starts and triplets (7 + 9 bits) from ``P_BITS``, and
# from ``P_WAITS`` the index of the reading's waits in ``SUIT_WAITS``
P_MULTI: Final = 29
P_BITS: Final = 30
P_WAITS: Final = 46
P_ADD: Final = (1 << P_MULTI) - 1


def _packed() -> tuple[dict[int, int], tuple[int, ...]]:
    """Every suit part's first reading as one machine word, the same for man, pin and sou
    (the scorer places it in its suit with a few shifts), and the distinct waits: a third of
    the memory of ``READINGS``' suits, one int to read instead of a tuple of four."""
    waits = {0: 0}  # the empty part has no wait and packs to 0
    packed = {}
    for code, readings in _SUIT_RELATIVE:
        (add, seqs, trips, w), _ = readings[0]
        index = waits.setdefault(w, len(waits))
        several = len(readings) > 1
        packed[code] = add | several << P_MULTI | (seqs | trips << 7) << P_BITS | index << P_WAITS
    return packed, tuple(waits)


_PACKED = _packed()
#: [suit part code] -> its first reading, packed (see ``P_MULTI``); the empty part is 0
SUIT_PACKED: Final = _PACKED[0]
#: [index] -> the waits of a reading by offset (5 bits each)
SUIT_WAITS: Final = _PACKED[1]


def _meld_add(kind: int, run: bool, fu: int, concealed: bool) -> int:
    """The ``add`` of a called or declared group."""
    if run:
        return 1 << F_SEQ | (kind % 9 not in (0, 6)) << F_INNER
    return fu << F_FU | (not _YAOCHUU[kind]) << F_INNER | concealed << F_ANKOU


def _meld_bits(kind: int, run: bool) -> int:
    if kind >= 27:
        return 0
    suit, o = divmod(kind, 9)
    return 1 << (B_SEQ + 7 * suit + o) if run else 1 << (B_TRIP + 9 * suit + o)


def _meld(t: int, k: int) -> tuple[int, int, int, int, int, int, bool]:
    one = 1 << KIND_SHIFT[k]  # one count of kind k in its half (no copy bits)
    run = t == 0
    high = k >= 18
    if t == 5:  # kita: a tile set aside, for dora only
        return 0, 0, 0, 0, one * (not high), one * high, False
    fu = (0, 1, 4, 4, 8)[t] * ANKOU_FU[k] // 2  # pon, kans: open, open, closed
    shape = one * 0o111 if run else 3 * one
    tiles = shape + one if t >= 2 else shape
    five = any(k + i in FIVES for i in range(3 if run else 1))
    counts = 1 << F_GROUPS | (t != 4) << F_OPEN | (t >= 2) << F_KANS
    return (
        _meld_add(k, run, fu, t == 4) | counts,
        _meld_bits(k, run),
        shape * (not high),
        shape * high,
        tiles * (not high),
        tiles * high,
        five,
    )


#: [meld type][kind] -> (add, bits, the group in the shape's lo and hi halves (a kan as a
#: triplet), its tiles in the lo and hi halves (for dora), whether it can hold a red five);
#: by MeldType: chii, pon, daiminkan, kakan, ankan, kita
MELD: Final = tuple(tuple(_meld(t, k) for k in range(34)) for t in range(6))
#: sequence masks (7 bits) holding 123, 456 and 789 of one suit
ITTSU: Final = tuple(m & 0b1001001 == 0b1001001 for m in range(128))
