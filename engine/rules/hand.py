"""Hand analysis: decompositions, complete hands, waits, shanten and tenpai discards.

Every function takes a 34-slot count vector of the CONCEALED part only (melds belong to the
caller): a hand with k melds has 14 - 3k tiles when complete and 13 - 3k when waiting.
The work is table lookups (see ``agari_table``): a hand is cut into man, pin, sou and honours
and each part's count tuple is looked up, so no call searches recursively.

Four copies (Tenhou): a kind whose four copies are all in the concealed hand is not a wait,
and a hand waiting only on such kinds is not tenpai (``1111m`` + four groups is noten). Tiles
in melds do NOT count by default: Tenhou has scored ``12s44466688p`` beside a kan of 3s as
tenpai (riichi.wiki, "Karaten"), and xiangting's shanten, which the engine also uses, follows
the same concealed-hand rule, so ``is_tenpai`` and ``shanten(...) == 0`` always agree. A variant
that counts melds passes ``held`` (meld tiles per kind) to ``waits``/``tenpai_discards``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

import xiangting

from engine.rules.agari_table import HONOURS, PARTS, SUIT, Key, PartDecomp, part_code, shifted
from engine.rules.tiles import YAOCHUU_KINDS as _YAOCHUU
from engine.rules.tiles import Kind

_SUIT_COMPLETE = SUIT.complete
_HONOUR_COMPLETE = HONOURS.complete
_SUIT_DECOMPS = SUIT.decomps
_HONOUR_DECOMPS = HONOURS.decomps
#: offset tuples of pin, sou and honour readings -> absolute kinds (man needs no shift)
_TO_PIN = shifted(SUIT, 9)
_TO_SOU = shifted(SUIT, 18)
_TO_HONOUR = shifted(HONOURS, 27)
#: the part index of each kind
_PART_OF = tuple(min(k // 9, 3) for k in range(34))


class Decomposition(NamedTuple):
    """One standard-form reading of a complete concealed part: a pair and closed groups."""

    pair: Kind
    shuntsu: tuple[Kind, ...]
    koutsu: tuple[Kind, ...]


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
    c = tuple(counts)  # no copy of a tuple
    if _is_standard(c):
        return True
    empty = c.count(0)  # chiitoitsu holds 7 kinds, kokushi 13
    return (empty == 27 and c.count(2) == 7) or (empty == 21 and is_kokushi(c))


def decompose(counts: Sequence[int]) -> list[Decomposition]:
    """Every standard-form reading of a complete part (sum 3n+2), sorted; [] if there is none."""
    c = tuple(counts)  # no copy of a tuple
    man = _SUIT_DECOMPS.get(c[0:9])
    pin = _SUIT_DECOMPS.get(c[9:18])
    sou = _SUIT_DECOMPS.get(c[18:27])
    honours = _HONOUR_DECOMPS.get(c[27:34])
    if man is None or pin is None or sou is None or honours is None:
        return []
    # every reading of a part has the same pair-ness; honours have exactly one reading
    h = honours[0]
    if (man[0][0] >= 0) + (pin[0][0] >= 0) + (sou[0][0] >= 0) + (h[0] >= 0) != 1:
        return []
    out = [_join(m, p, s, h) for m in man for p in pin for s in sou]
    if len(out) > 1:
        out.sort()
    return out


def _join(m: PartDecomp, p: PartDecomp, s: PartDecomp, h: PartDecomp) -> Decomposition:
    """One hand reading from one reading per part (exactly one of which has the pair)."""
    if m[0] >= 0:
        pair = m[0]
    elif p[0] >= 0:
        pair = p[0] + 9
    elif s[0] >= 0:
        pair = s[0] + 18
    else:
        pair = h[0] + 27
    shuntsu = m[1] + _TO_PIN[p[1]] + _TO_SOU[s[1]]
    koutsu = m[2] + _TO_PIN[p[2]] + _TO_SOU[s[2]] + _TO_HONOUR[h[2]]
    return Decomposition(pair, shuntsu, koutsu)


# ---------------------------------------------------------------- waits


def _standard_waits(keys: Sequence[Key]) -> list[Kind]:
    """Kinds completing a standard-form hand whose four parts have these keys (sum 3n+1).

    At most one part may be incomplete: it takes the tile, and becomes the pair holder iff no
    other part holds a pair. With every part complete, two parts hold a pair each and either
    may turn its pair into a triplet (shanpon) or other groups (11m -> 111m).
    """
    flags = (
        _SUIT_COMPLETE.get(keys[0]),
        _SUIT_COMPLETE.get(keys[1]),
        _SUIT_COMPLETE.get(keys[2]),
        _HONOUR_COMPLETE.get(keys[3]),
    )
    missing = flags.count(None)
    pairs = flags.count(1)
    if missing == 1:
        i = flags.index(None)
        base, table = PARTS[i]
        if pairs > 1:
            return []
        found = (table.waits_plain if pairs else table.waits_pair).get(keys[i], ())
        return [base + x for x in found]
    if missing or pairs != 2:
        return []
    out: list[int] = []
    for i in (0, 1, 2, 3):
        if flags[i]:
            base, table = PARTS[i]
            out.extend(base + x for x in table.waits_plain.get(keys[i], ()))
    return out


def _special_waits(c: tuple[int, ...]) -> list[Kind]:
    """Chiitoitsu and kokushi waits of a fully concealed 13-tile hand (else [])."""
    if sum(c) != 13:  # cheaper than the counts below: an open hand stops here
        return []
    empty = c.count(0)
    if empty == 27 and c.count(2) == 6 and c.count(1) == 1:
        return [c.index(1)]
    if empty in (21, 22):
        yao = [c[k] for k in _YAOCHUU]
        if sum(yao) == 13:
            if empty == 21:  # thirteen kinds, all terminals and honours: 13-sided
                return list(_YAOCHUU)
            if yao.count(0) == 1:
                return [_YAOCHUU[yao.index(0)]]
    return []


def waits(counts: Sequence[int], held: Sequence[int] | None = None) -> list[Kind]:
    """Kinds that complete a waiting part (sum 3n+1), ascending.

    A kind whose four copies are in ``counts`` is never a wait. ``held`` (34 counts of meld
    tiles) also drops kinds whose four copies are in hand plus melds, for variants that want it.

    >>> from engine.rules.tiles import counts_from_str
    >>> waits(counts_from_str("123456789m1234p"))  # 1p or 4p (kinds 9 and 12)
    [9, 12]
    >>> waits(counts_from_str("1112345678999m"))  # junsei chuuren: all nine
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    >>> waits(counts_from_str("1111m"))  # the fifth 1m does not exist: noten
    []
    """
    c = tuple(counts)  # no copy of a tuple
    found = _standard_waits((c[0:9], c[9:18], c[18:27], c[27:34]))
    special = _special_waits(c)
    if special:
        found = sorted(set(found).union(special))
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
) -> dict[Kind, list[Kind]]:
    """Discard kind -> the waits it leaves, for each discard of a 3n+2 part that leaves tenpai.

    Only the part that loses the tile changes, so the other parts' keys and completeness are
    looked up once (a trial looks up one part, not four), and a discard cannot mend two
    incomplete parts, which rules out most far hands at once.
    """
    c = tuple(counts)  # no copy of a tuple
    keys = [c[0:9], c[9:18], c[18:27], c[27:34]]
    flags = [
        _SUIT_COMPLETE.get(keys[0]),
        _SUIT_COMPLETE.get(keys[1]),
        _SUIT_COMPLETE.get(keys[2]),
        _HONOUR_COMPLETE.get(keys[3]),
    ]
    missing = flags.count(None)  # most hands in play: all four, no trial at all
    if missing > 2:
        parts: Sequence[int] = ()
    elif missing == 2:
        parts = [i for i in (0, 1, 2, 3) if flags[i] is None]
    else:
        parts = (0, 1, 2, 3)
    out: dict[int, list[int]] = {}
    for part in parts:
        base, table = PARTS[part]
        key = keys[part]
        complete = table.complete
        for j, n in enumerate(key):
            if n:
                trial = (*key[:j], n - 1, *key[j + 1 :])
                found = _waits_after(keys, flags, part, trial, complete.get(trial))
                if found:
                    out[base + j] = found
    if _special_possible(c):
        for d in range(34):
            if c[d]:
                extra = _special_waits((*c[:d], c[d] - 1, *c[d + 1 :]))
                if extra:
                    out[d] = sorted(set(out.get(d, ())).union(extra))
        out = dict(sorted(out.items()))
    if held is not None:
        kept = {d: [k for k in w if c[k] - (k == d) + held[k] < 4] for d, w in out.items()}
        out = {d: w for d, w in kept.items() if w}
    return out


#: the complete parts' keys as ``part_code`` words: a set of these is tested without
#: building and hashing a tuple
_SUIT_COMPLETE_CODES: Final = frozenset(part_code(key) for key in _SUIT_COMPLETE)
_HONOUR_COMPLETE_CODES: Final = frozenset(part_code(key) for key in _HONOUR_COMPLETE)


def far_from_tenpai(counts: list[int], tiles: int = 14) -> bool:
    """No discard leaves this 3n+2 part tenpai: three of its four parts are incomplete (a
    discard mends one at most) and no chiitoitsu or kokushi shape is near. Four lookups of
    packed words: most hands in play pass, and their next waits are known to be none without
    a search (a seat's every discard asks). ``tiles`` is the part's size when the caller
    knows it: under 14 (a hand with melds) no chiitoitsu or kokushi can be near, so their
    count is skipped."""
    man = pin = sou = honours = 0  # ``part_code`` of each part, in one pass, no slices
    for i in range(9):
        shift = 3 * i
        man |= counts[i] << shift
        pin |= counts[i + 9] << shift
        sou |= counts[i + 18] << shift
        if i < 7:
            honours |= counts[i + 27] << shift
    missing = (
        (man not in _SUIT_COMPLETE_CODES)
        + (pin not in _SUIT_COMPLETE_CODES)
        + (sou not in _SUIT_COMPLETE_CODES)
        + (honours not in _HONOUR_COMPLETE_CODES)
    )
    return missing > 2 and (tiles < 14 or not _special_possible(tuple(counts)))


def _waits_after(
    keys: list[Key], flags: list[int | None], part: int, trial: Key, flag: int | None
) -> list[Kind]:
    """``_standard_waits`` of the hand with part ``part`` replaced by ``trial`` (whose
    completeness is ``flag``), from the other parts' flags looked up once."""
    missing = 0
    pairs = 0
    broken = -1
    for i in (0, 1, 2, 3):
        f = flag if i == part else flags[i]
        if f is None:
            missing += 1
            broken = i
        elif f:
            pairs += 1
    if missing == 1:
        if pairs > 1:
            return []
        base, table = PARTS[broken]
        key = trial if broken == part else keys[broken]
        return [base + x for x in (table.waits_plain if pairs else table.waits_pair).get(key, ())]
    if missing or pairs != 2:
        return []
    out: list[int] = []
    for i in (0, 1, 2, 3):
        if flag if i == part else flags[i]:
            base, table = PARTS[i]
            key = trial if i == part else keys[i]
            out.extend(base + x for x in table.waits_plain.get(key, ()))
    return out


def _special_possible(c: tuple[int, ...]) -> bool:
    """Whether some discard could leave a chiitoitsu or kokushi wait: a necessary condition.

    Chiitoitsu tenpai holds 7 kinds, so the 14 tiles before the discard hold 7 or 8; kokushi
    tenpai holds 12 or 13 terminal/honour kinds and nothing else, so 12 to 14 kinds before.
    """
    empty = 0
    for n in c:  # a compiled loop: ``tuple.count`` is a method call through Python
        if not n:
            empty += 1
    if empty in (26, 27):
        return c.count(4) == 0 and c.count(2) + c.count(3) >= 6
    # 12 terminal/honour kinds include at least 6 honours (there are 6 terminals): that
    # count, cheap, rules out nearly every hand before the full one
    if not 20 <= empty <= 22 or c[27:34].count(0) > 1:
        return False
    return sum(1 for k in _YAOCHUU if c[k]) >= 12
