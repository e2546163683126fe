"""The seat draw (engine.rules.bagime): the documented derivation, deterministic, a
permutation, uniform-looking over many seeds, independent of the seed's width and of the walls."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter

import pytest

from engine.rules.bagime import BAGIME_TAG, bagime


def _documented(seed: int, players: int) -> tuple[int, ...]:
    """The draw as the module docstring (and docs/protocol.md) spell it, written afresh:
    one word at a time, each digest hashed when its words are needed."""
    words: list[int] = []
    counter = 0

    def word() -> int:
        nonlocal counter
        if not words:
            digest = hashlib.sha256(f"riichi-bagime-v1:{seed}:{counter}".encode()).digest()
            words.extend(int.from_bytes(digest[k : k + 8], "big") for k in range(0, 32, 8))
            counter += 1
        return words.pop(0)

    draw = list(range(players))
    for i in range(players - 1, 0, -1):
        bound = 2**64 - 2**64 % (i + 1)
        w = word()
        while w >= bound:
            w = word()
        j = w % (i + 1)
        draw[i], draw[j] = draw[j], draw[i]
    return tuple(draw)


def test_the_label_is_versioned() -> None:
    assert BAGIME_TAG == "riichi-bagime-v1"


@pytest.mark.parametrize("players", [3, 4])
def test_the_draw_is_the_documented_derivation(players: int) -> None:
    seeds = [0, 1, 42, 2**63 - 1, 8_112_004_517_389_221_003, 2**127 + 12345, 2**128 - 1]
    seeds += list(range(1000, 1300))
    for seed in seeds:
        assert bagime(seed, players) == _documented(seed, players), seed


@pytest.mark.parametrize("players", [3, 4])
def test_the_draw_is_deterministic_and_a_permutation(players: int) -> None:
    for seed in range(500):
        draw = bagime(seed, players)
        assert sorted(draw) == list(range(players))
        assert bagime(seed, players) == draw


def test_the_draw_does_not_depend_on_the_seeds_width() -> None:
    """A 128-bit seed (issue 31's) draws from its own decimal text: not truncated to 64
    bits, so two seeds equal in their low 64 bits draw apart about as often as any two."""
    low = 987_654_321
    same = sum(bagime(low + (k << 64), 4) == bagime(low, 4) for k in range(1, 241))
    # equal by chance with probability 1/24: 10 expected of 240; truncation would give 240
    assert same < 30


@pytest.mark.parametrize("players", [3, 4])
def test_every_seating_is_about_equally_likely(players: int) -> None:
    """Chi-square over 24,000 consecutive seeds against the uniform distribution on the
    players! seatings; the bound is far past the 0.999 quantile (df 5: 20.5, df 23: 49.7)."""
    n = 24_000
    counts = Counter(bagime(seed, players) for seed in range(n))
    seatings = list(itertools.permutations(range(players)))
    assert set(counts) == set(seatings)
    expected = n / len(seatings)
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in seatings)
    assert chi2 < (20.5 if players == 3 else 49.7), (chi2, counts)
    # and the creator (place 0) is East a quarter (a third) of the time, not always
    east = sum(c for p, c in counts.items() if p[0] == 0)
    assert abs(east / n - 1 / players) < 0.015


def test_the_draw_is_not_the_first_walls_order() -> None:
    """The draw has its own label: a seed's seating says nothing of its walls' stream
    (a draw read from the wall hash would repeat its first swap)."""
    from engine.rules.wall import seed_bytes

    agree = 0
    for seed in range(2000):
        first = hashlib.sha256(seed_bytes(seed) + bytes(16)).digest()
        j = int.from_bytes(first[:8], "big") % 4
        agree += bagime(seed, 4)[3] == [0, 1, 2, 3][j]
    assert 350 < agree < 650  # a quarter of 2000, give or take chance
