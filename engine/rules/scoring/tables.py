"""Feature records of every complete part, packed into ints at import, so scoring a hand is a
few lookups and bitwise operations instead of a search.

A hand is a 102-bit *code*: three bits of count per kind, so a part's key is a slice of it and
hand-wide questions (only simples? only honours?) are one mask test. ``CODE[tile]`` adds one
tile to ``code << COPY_BITS`` and marks a five's copy in the low bits, for the red-five count.
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
from typing import TypeAlias

from engine.rules.agari_table import HONOURS, SUIT, PartDecomp
from engine.rules.tiles import FIVES, GREEN, SIMPLES, TERMINALS, YAOCHUU, YAOCHUU_KINDS, Kind, Tile

#: a hand as one int: 3 bits of count per kind (``CODE``), kind 0 lowest; the low
#: ``COPY_BITS`` of a concealed hand's code mark which copies of the fives it holds
HandCode: TypeAlias = int

#: the copy bits of the fives, below the count fields in ``CODE``
COPY_BITS = 12


def _tile_code(t: Tile) -> HandCode:
    """One count of the tile's kind above ``COPY_BITS``; and a five also sets the bit of its
    copy (bit ``4 * suit + copy``): red fives are the lowest copies, so a rule's red tiles are a
    mask of those bits (``RuleConfig.red_copies``)."""
    kind = t >> 2
    copy = 1 << 4 * (kind // 9) + (t & 3) if kind in FIVES else 0
    return 1 << COPY_BITS + 3 * kind | copy


#: 3 bits of count per kind above the copy bits (``_tile_code``)
CODE = tuple(_tile_code(t) for t in range(136))
PART_MASK = (1 << 27) - 1


# summed fields of ``add``
F_PAIRS, F_PAIR, F_SEQ, F_ANKOU, F_PEIKOU, F_INNER, F_FU = 0, 3, 9, 12, 15, 18, 21
#: summed over the melds only: groups called or declared, open ones, kans
F_GROUPS, F_OPEN, F_KANS = 29, 32, 35
#: set in every reading of a part that has several, so a hand knows it has to try them all
F_MULTI = 38
# OR-ed fields of ``bits``
B_SEQ, B_TRIP = 0, 21
# wait bits, in the order a hand's readings are tried
W_TANKI, W_RYANMEN, W_KANCHAN, W_PENCHAN, W_SHANPON = 1, 2, 4, 8, 16


def _mask(kinds: Iterable[Kind], per_kind: int) -> HandCode:
    return sum(per_kind << 3 * k for k in kinds)


#: a count field per kind: terminals and honours / simples / the green tiles / terminals
YAOCHUU_MASK = _mask(YAOCHUU_KINDS, 7)
SIMPLE_MASK = _mask(SIMPLES, 7)
GREEN_MASK = _mask(GREEN, 7)
TERMINAL_MASK = _mask(TERMINALS, 7)
#: bits 0 and 2 of every count: clear exactly when every count is 0 or 2 (seven pairs)
ODD_OR_FOUR = _mask(range(34), 5)
#: one of each terminal and honour (kokushi holds at least this)
KOKUSHI_ONES = _mask(YAOCHUU_KINDS, 1)

Reading = tuple[int, int, int, PartDecomp]

_YAOCHUU = tuple(k in YAOCHUU for k in range(34))
#: fu of a concealed triplet by kind (an open one is worth half)
ANKOU_FU = tuple(8 if y else 4 for y in _YAOCHUU)


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


def _code(key: tuple[int, ...]) -> int:
    """A part's counts as its slice of the hand code: 3 bits a kind, the first lowest."""
    code = 0
    for n in reversed(key):
        code = code << 3 | n
    return code


_SUIT_RELATIVE = [
    (_code(key), tuple((_suit_reading(r), r) for r in rs)) for key, rs in SUIT.decomps.items()
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
    _code(key): tuple(_honour_reading(r) for r in rs) for key, rs in HONOURS.decomps.items()
}


def _suits() -> tuple[dict[int, Part], ...]:
    """Man, pin and sou. They place their readings apart but share the waits (offsets
    within the suit): 17,000 distinct waits are split once, not once a suit."""
    placed = [_placed(suit) for suit in range(3)]
    by_offset = _by_offset(placed[0].values(), 9)
    return tuple(_flat(readings, by_offset) for readings in placed)


#: [part] -> {part code: ``Part``}; part codes are the hand code's 27-bit slices
READINGS = (
    *_suits(),
    _flat(_HONOUR_READINGS, _by_offset(_HONOUR_READINGS.values(), 7)),
)


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


def _meld(t: int, k: int) -> tuple[int, int, int, int, bool]:
    one = 1 << 3 * k  # one count of kind k (the copy bits of CODE stay clear)
    run = t == 0
    if t == 5:  # kita: a tile set aside, for dora only
        return 0, 0, 0, one, False
    fu = (0, 1, 4, 4, 8)[t] * ANKOU_FU[k] // 2  # pon, kans: open, open, closed
    shape = one * 0o111 if run else 3 * one
    tiles = shape + one if t >= 2 else shape
    five = any(k + i in FIVES for i in range(3 if run else 1))
    counts = 1 << F_GROUPS | (t != 4) << F_OPEN | (t >= 2) << F_KANS
    return _meld_add(k, run, fu, t == 4) | counts, _meld_bits(k, run), shape, tiles, five


#: [meld type][kind] -> (add, bits, code of the group in the hand's shape (a kan as a
#: triplet), code of its tiles (for dora), whether it can hold a red five); by MeldType:
#: chii, pon, daiminkan, kakan, ankan, kita
MELD = tuple(tuple(_meld(t, k) for k in range(34)) for t in range(6))
#: sequence masks (7 bits) holding 123, 456 and 789 of one suit
ITTSU = tuple(m & 0b1001001 == 0b1001001 for m in range(128))
