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
    rest = list(hand)
    for t in used:
        rest.remove(t)
    return any(t >> 2 not in banned for t in rest)


#: the two own tiles of a run, relative to the called tile
_SHAPES = ((-2, -1), (-1, 1), (1, 2))


def chii_options(hand: Sequence[int], tile: int, red: frozenset[int]) -> list[tuple[int, ...]]:
    """Pairs of own tiles that make a run with ``tile``, leaving a legal discard."""
    k = tile >> 2
    if k >= 27:
        return []
    n = k % 9
    have = {t >> 2 for t in hand}
    out: list[tuple[int, ...]] = []
    for a, b in _SHAPES:
        if not (0 <= n + a <= 8 and 0 <= n + b <= 8) or k + a not in have or k + b not in have:
            continue
        for ta in _variants(hand, k + a, 1, red):
            for tb in _variants(hand, k + b, 1, red):
                own = (ta[0], tb[0])
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
