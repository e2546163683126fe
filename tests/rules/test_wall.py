"""The seeded wall: reproducible, a permutation, and laid out as documented."""

from collections.abc import Callable

import pytest

import engine.rules.wall as wall_module
from engine.rules.wall import (
    DEAD_WALL,
    _shuffled_slowly,
    seed_bytes,
    seeded_wall,
    shuffled_tiles,
)
from tests.interpreted import interpreted


def test_same_seed_same_wall_and_different_rounds_differ() -> None:
    assert shuffled_tiles(42, 0) == shuffled_tiles(42, 0)
    assert shuffled_tiles(42, 0) != shuffled_tiles(42, 1)
    assert shuffled_tiles(42, 0) != shuffled_tiles(43, 0)


def test_wall_is_a_permutation_of_all_tiles() -> None:
    assert sorted(shuffled_tiles("abc", 3)) == list(range(136))
    sanma = shuffled_tiles("abc", 3, sanma=True)
    assert len(sanma) == 108 and all(not 1 <= t >> 2 <= 7 for t in sanma)


def test_known_first_tiles_pin_the_algorithm() -> None:
    # Golden value: changing the shuffle breaks every stored game's reproducibility.
    assert shuffled_tiles(0, 0)[:8] == GOLDEN


def test_deal_draw_and_kan_shrink_the_live_wall() -> None:
    wall = seeded_wall(7, 0)
    hands = wall.deal(4, dealer=1)
    assert [len(h) for h in hands] == [13] * 4
    assert hands[1] == wall.live[:13]  # the dealer takes first
    assert wall.remaining == 136 - DEAD_WALL - 52
    wall.draw()
    wall.draw_rinshan()
    assert wall.remaining == 136 - DEAD_WALL - 52 - 2
    assert len(wall.dora) == 5 and len(wall.ura) == 5 and len(wall.rinshan) == 4


GOLDEN = [16, 122, 97, 28, 31, 130, 98, 51]


def test_the_one_bound_test_shuffles_as_the_word_by_word_reference() -> None:
    # shuffled_tiles checks every word against the lowest rejection bound at once; below it
    # no swap rejects, so it must lay out exactly what the stream-fed reference does
    for seed in range(40):
        for sanma in (False, True):
            assert shuffled_tiles(seed, seed % 7, sanma) == _shuffled_slowly(
                seed_bytes(seed), seed % 7, sanma
            )


def test_the_high_half_bound_is_below_the_lowest_limit() -> None:
    # the fast shuffle tests only each word's high half: a word under _BOUND_HIGH there is
    # under the lowest rejection bound, and the bound is as tight as a high half can say
    assert wall_module._BOUND_HIGH << 32 <= wall_module._LOWEST_LIMIT
    assert (wall_module._BOUND_HIGH + 1) << 32 > wall_module._LOWEST_LIMIT


def test_a_word_over_the_bound_takes_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    wall = interpreted(wall_module)  # a compiled module's globals cannot be patched
    monkeypatch.setattr(wall, "_BOUND_HIGH", 0)  # every word may be over the bound now
    calls: list[int] = []
    slow: Callable[[bytes, int, bool], list[int]] = wall._shuffled_slowly

    def counted(seed: bytes, round_index: int, sanma: bool) -> list[int]:
        calls.append(round_index)
        return slow(seed, round_index, sanma)

    monkeypatch.setattr(wall, "_shuffled_slowly", counted)
    assert wall.shuffled_tiles(0, 0)[:8] == GOLDEN
    assert calls == [0]
