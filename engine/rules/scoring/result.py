"""What scoring returns: the win's circumstances in, one ``HandResult`` out.

``WinContext`` says how a hand was won; ``HandResult`` carries han, fu, every yaku with its
han, the dora counts, the yakuman multiplier and the payments, as msgspec structs ready for
the wire and for records. The tables here (``PAYMENTS``, ``ENTRY_CHUNKS``, the yakuman and dora
entries) let the fast scorer build one from the packed key it compares readings by, so no
result object exists until the best reading is known.
"""

from __future__ import annotations

import msgspec

from engine.rules.scoring.points import LIMIT_NAMES, LIMITS, MANGAN, YAKUMAN_BASE, payments
from engine.rules.scoring.yaku import REGULAR, YAKUMAN, YakuMask


class WinContext(msgspec.Struct, frozen=True, kw_only=True):
    """How the hand was won: the tile, the winds, the declared and lucky circumstances."""

    win_tile: int
    tsumo: bool
    seat_wind: int
    round_wind: int
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    kita: int = 0


#: a ``WinContext`` as ``msgspec.structs.astuple`` gives it, in field order: the compiled
#: scorer reads the fields so, in one call, instead of one generic attribute lookup each
CtxFields = tuple[
    int, bool, int, int, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool,
    tuple[int, ...], tuple[int, ...], int,
]  # fmt: skip
CTX_FIELDS = (
    "win_tile", "tsumo", "seat_wind", "round_wind", "riichi", "double_riichi", "ippatsu",
    "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou",
    "dora_indicators", "ura_indicators", "kita",
)  # fmt: skip
if WinContext.__struct_fields__ != CTX_FIELDS:
    raise RuntimeError("WinContext's fields changed: update result.CtxFields and CTX_FIELDS")


# gc=False: results hold only strings, ints and tuples of these, so they can never be part of a
# reference cycle, and untracked objects spare the collector a pass over every result.


class YakuHan(msgspec.Struct, frozen=True, gc=False):
    name: str
    han: int
    tenhou: str


class HandResult(msgspec.Struct, frozen=True, gc=False):
    han: int
    fu: int
    yaku: tuple[YakuHan, ...]
    yakuman: int
    dora: int
    aka: int
    ura: int
    kita: int
    base: int
    limit: str
    ron: int
    tsumo_dealer: int
    tsumo_other: int


#: the key bit that marks real yakuman (no dora, no fu): see ``score.yakuman_key``
YAKUMAN_BIT = 1 << 16
_CLOSED = tuple(YakuHan(y.name, y.closed, y.tenhou) for y in REGULAR)
_OPENED = tuple(YakuHan(y.name, y.opened, y.tenhou) for y in REGULAR)
YAKUMAN_ENTRIES = tuple(YakuHan(y.name, 13, y.tenhou) for y in YAKUMAN)
YAKUMAN_DOUBLE_ENTRIES = tuple(YakuHan(y.name, 26 if y.double else 13, y.tenhou) for y in YAKUMAN)

Chunks = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_Entries = tuple[tuple[YakuHan, ...], ...]

#: a yaku mask's han and entries are looked up in three 13-bit chunks
CHUNKS, CHUNK_BITS = 3, 13
if len(REGULAR) > CHUNKS * CHUNK_BITS:
    raise RuntimeError(
        f"{len(REGULAR)} regular yaku do not fit the {CHUNKS} x {CHUNK_BITS}-bit yaku mask "
        "tables: give result._chunked, result.mask_han and result.hand_result a fourth chunk "
        "(mask >> 39), and the han lookup inlined in score.score_hand too"
    )


def _chunked(menzen: bool) -> tuple[Chunks, tuple[_Entries, _Entries, _Entries]]:
    """Han and entries of a yaku mask in three 13-bit chunks, so a mask's han is three
    lookups and its entries three concatenations, in ``REGULAR``'s order."""
    entries = _CLOSED if menzen else _OPENED
    hans: list[tuple[int, ...]] = []
    yakus: list[_Entries] = []
    for chunk in range(3):
        han = [0] * 8192
        yaku: list[tuple[YakuHan, ...]] = [()] * 8192
        for m in range(1, 8192):
            i = 13 * chunk + (m & -m).bit_length() - 1
            rest = m & m - 1
            han[m] = han[rest] + (entries[i].han if i < len(entries) else 0)
            yaku[m] = (entries[i], *yaku[rest]) if i < len(entries) else yaku[rest]
        hans.append(tuple(han))
        yakus.append(tuple(yaku))
    return (hans[0], hans[1], hans[2]), (yakus[0], yakus[1], yakus[2])


_BY_MENZEN = (_chunked(False), _chunked(True))
#: [menzen] -> han of a yaku mask in three chunks: mask & 8191, mask >> 13 & 8191, mask >> 26
HAN_CHUNKS = (_BY_MENZEN[0][0], _BY_MENZEN[1][0])
ENTRY_CHUNKS = (_BY_MENZEN[0][1], _BY_MENZEN[1][1])


def mask_han(chunks: Chunks, mask: YakuMask) -> int:
    """The han of a yaku mask (``chunks`` from ``HAN_CHUNKS``)."""
    return chunks[0][mask & 8191] + chunks[1][mask >> 13 & 8191] + chunks[2][mask >> 26]


def _bases() -> set[int]:
    """Every base a hand can be worth: fu x 2^(han+2) below mangan, the limits, yakuman
    multiples."""
    below = {fu << han + 2 for fu in range(20, 180, 5) for han in range(0, 5)}
    return (
        {b for b in below if b < MANGAN}
        | {MANGAN}
        | {b for _, b, _ in LIMITS}
        | {YAKUMAN_BASE * n for n in range(1, 13)}
    )


#: [dealer][base] -> (*payments(base, dealer), limit name, yakuman multiplier of a kazoe)
PAYMENTS = tuple(
    {b: (*payments(b, dealer), LIMIT_NAMES.get(b, ""), int(b == YAKUMAN_BASE)) for b in _bases()}
    for dealer in (False, True)
)
#: [n] -> the ドラ / 赤ドラ / 裏ドラ entry of n dora, as a 1-tuple to add to a result's yaku
DORA_ENTRIES = tuple((YakuHan("dora", n, "ドラ"),) for n in range(64))
AKA_ENTRIES = tuple((YakuHan("aka", n, "赤ドラ"),) for n in range(13))
URA_ENTRIES = tuple((YakuHan("ura", n, "裏ドラ"),) for n in range(64))
