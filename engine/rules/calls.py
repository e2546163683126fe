"""Which tiles a player may call with: chii, pon, kans, and kuikae (swap-calling) limits.

Pure functions of tile lists; the game's resolvers wrap them. A red five and a plain five
are different options (a chii with 0p is not the same as one with 5p)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.meld import Meld, MeldType


def _variants(hand: Sequence[int], k: int, n: int, red: frozenset[int]) -> list[tuple[int, ...]]:
    """Distinct ways to take ``n`` tiles of kind ``k``: how many reds differ, not which copy."""
    first, end = k << 2, (k + 1) << 2
    same = sorted([t for t in hand if first <= t < end])  # the kind's copies
    if not same or same[0] not in red:  # no red copy held (reds are the lowest copies)
        return [tuple(same[:n])] if len(same) >= n else []
    plain = [t for t in same if t not in red]
    reds = [t for t in same if t in red]
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


#: more tiles left than the banned kinds (two at most) have copies: one may surely go
_SURELY_FREE = 8


def _singles(hand: Sequence[int], lo: int, hi: int, red: frozenset[int]) -> dict[int, list[int]]:
    """For each kind lo..hi held: the distinct ways to take one copy (the lowest red copy,
    then the lowest plain one), from one pass over the hand."""
    out: dict[int, list[int]] = {}
    # sorted, the lowest copy of a kind comes first, and red fives are the lowest copies
    first, end = lo << 2, (hi + 1) << 2
    for t in sorted([t for t in hand if first <= t < end]):
        ways = out.get(t >> 2)
        if ways is None:
            out[t >> 2] = [t]
        elif len(ways) == 1 and ways[0] in red and t not in red:
            ways.append(t)
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
                if len(hand) - 2 > _SURELY_FREE or _can_discard_after(
                    hand, own, kuikae_kinds(k, own)
                ):
                    out.append(own)
    return out


def pon_options(hand: Sequence[int], tile: int, red: frozenset[int]) -> list[tuple[int, ...]]:
    k = tile >> 2
    return [
        own
        for own in _variants(hand, k, 2, red)
        if len(hand) - 2 > _SURELY_FREE or _can_discard_after(hand, own, frozenset((k,)))
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
