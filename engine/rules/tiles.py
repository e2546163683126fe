"""Tiles: 136 physical ids, 34 kinds, red fives, and the one notation parser/printer.

A physical tile is an int 0..135; its kind is ``tile >> 2`` (0..33):
0-8 man 1-9, 9-17 pin 1-9, 18-26 sou 1-9, 27-33 East South West North Haku Hatsu Chun.
Red fives are the lowest copies of a five (5m = ids 16..19, the red one is 16), the same
convention as the ``mahjong`` package, so a hand needs no translation at the test boundary.
Strings exist only at the edges: mpsz (``"123m406p11z"``, 0 = red five), mjai names
(``"5mr"``, ``"E"``, ``"P"``) and Tenhou codes (11..47, 51..53).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

#: a physical tile, 0..135 (four copies per kind)
Tile: TypeAlias = int
#: a tile kind, 0..33 (``tile >> 2``)
Kind: TypeAlias = int

NUM_KINDS = 34
NUM_TILES = 136
MAN, PIN, SOU, HONOR = 0, 1, 2, 3
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
#: the five of each suit; its lowest copies are the red ones (``red_tiles``)
FIVES = (4, 13, 22)

# The tile sets, written once: every other module (scoring tables, hand analysis, the bench's
# hand generator) derives its own form from these.
#: 1 and 9 of each suit
TERMINALS: tuple[Kind, ...] = (0, 8, 9, 17, 18, 26)
#: the winds and dragons
HONOURS: tuple[Kind, ...] = (*WINDS, *DRAGONS)
#: terminals and honours in kind order: kokushi's thirteen
YAOCHUU_KINDS: tuple[Kind, ...] = (*TERMINALS, *HONOURS)
#: kinds that are terminals or honours (yaochuuhai)
YAOCHUU = frozenset(YAOCHUU_KINDS)
#: kinds 2..8 of each suit (tanyao tiles)
SIMPLES = frozenset(k for k in range(27) if k not in YAOCHUU)
#: 2 3 4 6 8 sou and hatsu (ryuuiisou)
GREEN: tuple[Kind, ...] = (19, 20, 21, 23, 25, HATSU)
#: kinds used only in sanma (3-player): man 2..8 are removed
SANMA_REMOVED = frozenset(range(1, 8))

_SUIT_LETTERS = "mpsz"
_MJAI_HONORS = ("E", "S", "W", "N", "P", "F", "C")


def suit(k: Kind) -> int:
    """The suit of a kind: MAN, PIN, SOU or HONOR."""
    return k // 9 if k < 27 else HONOR


def number(k: Kind) -> int:
    """The face number 1..9 of a suited kind (1..7 for honours)."""
    return k % 9 + 1 if k < 27 else k - 26


def red_tiles(aka: Sequence[int] = (1, 1, 1)) -> frozenset[Tile]:
    """The physical ids that are red under a rule with ``aka[s]`` red fives in suit s."""
    return frozenset(FIVES[s] * 4 + i for s in range(3) for i in range(aka[s]))


#: the Tenhou default: one red five per suit (ids 16, 52, 88)
DEFAULT_RED = red_tiles()


def dora_of(indicator_kind: Kind, sanma: bool = False) -> Kind:
    """The dora kind an indicator kind points to (9→1, N→E, Chun→Haku; sanma 1m→9m)."""
    if indicator_kind < 27:
        if sanma and indicator_kind == 0:
            return 8
        base = indicator_kind - indicator_kind % 9
        return base + (indicator_kind % 9 + 1) % 9
    if indicator_kind < 31:
        return 27 + (indicator_kind - 27 + 1) % 4
    return 31 + (indicator_kind - 31 + 1) % 3


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """A 34-slot count vector of physical tiles."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t >> 2] += 1
    return counts


# ---------------------------------------------------------------- mpsz notation


def parse_kinds(text: str) -> list[tuple[Kind, bool]]:
    """Parse mpsz into (kind, is_red) pairs in written order; '0' is a red five."""
    out: list[tuple[int, bool]] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(ch)
            continue
        s = _SUIT_LETTERS.find(ch)
        if s < 0 or not digits:
            raise ValueError(f"bad tile notation {text!r} at {ch!r}")
        for d in digits:
            n = int(d)
            if s == HONOR and not 1 <= n <= 7:
                raise ValueError(f"bad honour {d}z in {text!r}")
            if s == HONOR:
                out.append((27 + n - 1, False))
            else:
                out.append((s * 9 + (4 if n == 0 else n - 1), n == 0))
        digits = []
    if digits:
        raise ValueError(f"tile notation {text!r} ends without a suit letter")
    return out


def parse(text: str, red: frozenset[Tile] = DEFAULT_RED) -> list[Tile]:
    """Parse mpsz into distinct physical ids: red fives take a red copy, others a plain one.

    >>> parse("123m")
    [0, 4, 8]
    >>> parse("505m")  # 0 is the red five: id 16, the lowest copy of 5m
    [17, 16, 18]
    >>> parse("11111z")
    Traceback (most recent call last):
    ...
    ValueError: too many copies of 1z in '11111z'
    """
    used: set[int] = set()
    out: list[int] = []
    for k, is_red in parse_kinds(text):
        copies = [k * 4 + i for i in range(4) if (k * 4 + i in red) == is_red]
        free = [t for t in copies if t not in used]
        if not free:
            raise ValueError(f"too many copies of {to_str([k * 4 + 3])} in {text!r}")
        used.add(free[0])
        out.append(free[0])
    return out


def to_str(tiles: Iterable[Tile], red: frozenset[Tile] = DEFAULT_RED, sort: bool = True) -> str:
    """Print physical ids as mpsz; red fives print as 0."""
    items = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    run_suit = -1
    for t in items:
        k = t >> 2
        s = suit(k)
        if s != run_suit and run_suit >= 0:
            out.append(_SUIT_LETTERS[run_suit])
        run_suit = s
        out.append("0" if t in red else str(number(k)))
    if run_suit >= 0:
        out.append(_SUIT_LETTERS[run_suit])
    return "".join(out)


def kind_to_str(k: Kind) -> str:
    """One kind in mpsz, e.g. ``'5m'``, ``'7z'``."""
    return f"{number(k)}{_SUIT_LETTERS[suit(k)]}"


def kinds_from_str(text: str) -> list[Kind]:
    """Parse mpsz into kinds only (red fives become plain fives)."""
    return [k for k, _ in parse_kinds(text)]


def counts_from_str(text: str) -> list[int]:
    """Parse mpsz into a 34-slot count vector."""
    counts = [0] * NUM_KINDS
    for k, _ in parse_kinds(text):
        counts[k] += 1
    return counts


# ---------------------------------------------------------------- mjai names


def to_mjai(tile: Tile, red: frozenset[Tile] = DEFAULT_RED) -> str:
    """The mjai name of a physical tile: ``1m``..``9s``, ``5mr``, ``E S W N P F C``."""
    k = tile >> 2
    if k >= 27:
        return _MJAI_HONORS[k - 27]
    name = kind_to_str(k)
    return name + "r" if tile in red else name


def mjai_kind(name: str) -> tuple[Kind, bool]:
    """Parse an mjai tile name into (kind, is_red)."""
    if name in _MJAI_HONORS:
        return 27 + _MJAI_HONORS.index(name), False
    is_red = name.endswith("r")
    core = name[:-1] if is_red else name
    if len(core) != 2 or core[1] not in "mps" or not core[0].isdigit() or core[0] == "0":
        raise ValueError(f"bad mjai tile {name!r}")
    return "mps".index(core[1]) * 9 + int(core[0]) - 1, is_red


# ---------------------------------------------------------------- Tenhou codes


def to_tenhou(tile: Tile, red: frozenset[Tile] = DEFAULT_RED) -> int:
    """Tenhou's code of a physical tile: 11..19 man, 21..29 pin, 31..39 sou, 41..47, 51..53 red."""
    k = tile >> 2
    if tile in red:
        return 51 + suit(k)
    return (suit(k) + 1) * 10 + number(k)


def tenhou_kind(code: int) -> tuple[Kind, bool]:
    """Parse a Tenhou tile code into (kind, is_red)."""
    if 51 <= code <= 53:
        return FIVES[code - 51], True
    s, n = divmod(code, 10)
    if not (1 <= s <= 4 and 1 <= n <= (7 if s == 4 else 9)):
        raise ValueError(f"bad Tenhou tile code {code}")
    return (s - 1) * 9 + n - 1, False
