"""Which tiles a player may call with: chii, pon, kans, and kuikae (swap-calling) limits.

Pure functions of tile lists; the game's resolvers wrap them. A red five and a plain five
are different options (a chii with 0p is not the same as one with 5p)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.meld import Meld, MeldType


def _variants(hand: Sequence[int], k: int, n: int, red: frozenset[int]) -> list[tuple[int, ...]]:
    """Distinct ways to take ``n`` tiles of kind ``k``: how many reds differ, not which copy."""
    plain = sorted(t for t in hand if t >> 2 == k and t not in red)
    reds = sorted(t for t in hand if t >> 2 == k and t in red)
    out: list[tuple[int, ...]] = []
    for r in range(min(len(reds), n), -1, -1):
        if n - r <= len(plain):
            out.append(tuple(sorted(reds[:r] + plain[: n - r])))
    return out


def kuikae_kinds(called: int, own: Sequence[int]) -> frozenset[int]:
    """Kinds the caller may not discard right after: the called kind (genbutsu) and, for a
    chii on a side of the run, the kind at the other end (suji)."""
    banned = {called}
    kinds = sorted(t >> 2 for t in own)
    if len(kinds) == 2 and kinds[0] != kinds[1]:
        lo, hi = kinds
        if hi == lo + 1:
            if called == lo - 1 and hi % 9 != 8:
                banned.add(hi + 1)
            if called == hi + 1 and lo % 9 != 0:
                banned.add(lo - 1)
    return frozenset(banned)


def _can_discard_after(hand: Sequence[int], used: Sequence[int], banned: frozenset[int]) -> bool:
    """Some tile outside ``used`` (distinct physical ids) is not a banned kind."""
    return any(t >> 2 not in banned for t in hand if t not in used)


def _singles(hand: Sequence[int], lo: int, hi: int, red: frozenset[int]) -> dict[int, list[int]]:
    """For each kind lo..hi held: the distinct ways to take one copy (the lowest red copy,
    then the lowest plain one), from one pass over the hand."""
    reds: dict[int, int] = {}
    plains: dict[int, int] = {}
    for t in hand:
        k = t >> 2
        if lo <= k <= hi:
            lowest = reds if t in red else plains
            if t < lowest.get(k, 136):
                lowest[k] = t
    out: dict[int, list[int]] = {}
    for k in range(lo, hi + 1):
        ways = [found for found in (reds.get(k), plains.get(k)) if found is not None]
        if ways:
            out[k] = ways
    return out


#: the two own tiles of a run, relative to the called tile
_SHAPES = ((-2, -1), (-1, 1), (1, 2))


def chii_options(hand: Sequence[int], tile: int, red: frozenset[int]) -> list[tuple[int, ...]]:
    """Pairs of own tiles that make a run with ``tile``, leaving a legal discard."""
    k = tile >> 2
    if k >= 27:
        return []
    n = k % 9
    singles = _singles(hand, k - min(n, 2), k + min(8 - n, 2), red)
    out: list[tuple[int, ...]] = []
    for a, b in _SHAPES:
        if not (0 <= n + a <= 8 and 0 <= n + b <= 8):
            continue
        for ta in singles.get(k + a, ()):
            for tb in singles.get(k + b, ()):
                own = (ta, tb)
                if _can_discard_after(hand, own, kuikae_kinds(k, own)):
                    out.append(own)
    return out


def pon_options(hand: Sequence[int], tile: int, red: frozenset[int]) -> list[tuple[int, ...]]:
    k = tile >> 2
    return [
        own for own in _variants(hand, k, 2, red) if _can_discard_after(hand, own, frozenset((k,)))
    ]


def daiminkan_option(hand: Sequence[int], tile: int) -> tuple[int, ...] | None:
    own = tuple(sorted(t for t in hand if t >> 2 == tile >> 2))
    return own if len(own) == 3 else None


def ankan_options(hand: Sequence[int]) -> list[tuple[int, ...]]:
    counts: dict[int, list[int]] = {}
    for t in hand:
        counts.setdefault(t >> 2, []).append(t)
    return [tuple(sorted(ts)) for k, ts in sorted(counts.items()) if len(ts) == 4]


def kakan_options(hand: Sequence[int], melds: Sequence[Meld]) -> list[tuple[int, ...]]:
    """The fourth tile of each pon the hand can upgrade."""
    out: list[tuple[int, ...]] = []
    for meld in melds:
        if meld.type == MeldType.PON:
            out.extend((t,) for t in hand if t >> 2 == meld.kind)
    return out
