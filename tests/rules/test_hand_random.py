"""Hand analysis against independent oracles on seeded random hands.

Oracles: the ``mahjong`` package (Agari, Shanten, HandDivider), xiangting's necessary tiles,
a brute-force wait search (try every kind with mahjong's Agari) and a plain recursive
decomposition. Hands come from a shuffled wall (mostly far from
ready) and from random groups + pair (complete, or one tile short: ready or nearly), with
concealed parts of every size a hand with melds can have.
"""

import random
from collections.abc import Callable

import pytest
import xiangting
from mahjong.agari import Agari
from mahjong.hand_calculating.divider import HandDivider
from mahjong.shanten import Shanten

from engine.rules import hand as H
from engine.rules.agari_table import HONOURS, SUIT
from engine.rules.tiles import YAOCHUU_KINDS as YAOCHUU

N_HANDS = 3000
SANMA_KINDS = [k for k in range(34) if not 1 <= k <= 7]
AGARI = Agari()
SHANTEN = Shanten()


def wall_hand(rng: random.Random, size: int) -> list[int]:
    counts = [0] * 34
    for t in rng.sample(range(136), size):
        counts[t >> 2] += 1
    return counts


def built_hand(rng: random.Random, groups: int) -> list[int]:
    """Random groups + a pair, at most four copies of a kind; runs are favoured near each other."""
    while True:
        counts = [0] * 34
        suit = rng.randrange(3)
        for _ in range(groups):
            if rng.random() < 0.6:
                s = suit if rng.random() < 0.6 else rng.randrange(3)
                first = s * 9 + rng.randrange(7)
                for kind in (first, first + 1, first + 2):
                    counts[kind] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def special_hand(rng: random.Random) -> list[int]:
    """Seven pairs (sometimes with a quad) or kokushi, to exercise the special forms."""
    counts = [0] * 34
    if rng.random() < 0.5:
        for kind in YAOCHUU:
            counts[kind] = 1
        counts[rng.choice(YAOCHUU)] += 1
    else:
        kinds = rng.sample(range(34), 7)
        for kind in kinds:
            counts[kind] = 2
        if rng.random() < 0.3:
            counts[kinds[0]] = 4
            counts[kinds[1]] = 0
    return counts


def drop_one(rng: random.Random, counts: list[int]) -> list[int]:
    out = counts.copy()
    out[rng.choice([k for k in range(34) if out[k]])] -= 1
    return out


def complete_hands(rng: random.Random) -> list[list[int]]:
    """3n+2 parts: a quarter each from the wall, built with 4 groups, built smaller, special."""
    hands: list[list[int]] = []
    for i in range(N_HANDS):
        pick = i % 4
        if pick == 0:
            hands.append(wall_hand(rng, 14))
        elif pick == 1:
            hands.append(built_hand(rng, 4))
        elif pick == 2:
            hands.append(built_hand(rng, rng.randrange(4)))
        else:
            hands.append(special_hand(rng))
    return hands


def add(counts: list[int], kind: int) -> list[int]:
    out = counts.copy()
    out[kind] += 1
    return out


def brute_waits(counts: list[int]) -> list[int]:
    """Every kind whose extra copy exists and completes the hand, per mahjong's Agari."""
    return [k for k in range(34) if counts[k] < 4 and AGARI.is_agari(add(counts, k))]


def mahjong_readings(counts: list[int]) -> list[H.Decomposition]:
    """HandDivider's standard-form readings (seven-pair readings dropped) in our shape."""
    out = set()
    for blocks in HandDivider.divide_hand(counts):
        if len(blocks) == 7:
            continue
        pair = next(b[0] for b in blocks if len(b) == 2)
        shuntsu = tuple(sorted(b[0] for b in blocks if len(b) == 3 and b[0] != b[1]))
        koutsu = tuple(sorted(b[0] for b in blocks if len(b) == 3 and b[0] == b[1]))
        out.add(H.Decomposition(pair, shuntsu, koutsu))
    return sorted(out)


def brute_readings(counts: list[int]) -> list[H.Decomposition]:
    """Every standard reading by plain recursion: a pair, then groups from the lowest kind."""
    out: set[H.Decomposition] = set()

    def groups(c: list[int], runs: tuple[int, ...], sets: tuple[int, ...], pair: int) -> None:
        first = next((k for k in range(34) if c[k]), -1)
        if first < 0:
            out.add(H.Decomposition(pair, runs, sets))
            return
        if c[first] >= 3:
            c[first] -= 3
            groups(c, runs, (*sets, first), pair)
            c[first] += 3
        if first < 27 and first % 9 <= 6 and c[first + 1] and c[first + 2]:
            for k in (first, first + 1, first + 2):
                c[k] -= 1
            groups(c, (*runs, first), sets, pair)
            for k in (first, first + 1, first + 2):
                c[k] += 1

    if sum(counts) % 3 == 2:
        for pair in range(34):
            if counts[pair] >= 2:
                c = counts.copy()
                c[pair] -= 2
                groups(c, (), (), pair)
    return sorted(out)


@pytest.fixture(scope="module")
def hands() -> list[list[int]]:
    return complete_hands(random.Random(20261129))


def _mismatches(
    items: list[list[int]], mine: Callable[[list[int]], object], theirs: Callable[..., object]
) -> list[tuple[list[int], object, object]]:
    out = []
    for counts in items:
        a, b = mine(counts), theirs(counts)
        if a != b:
            out.append((counts, a, b))
    return out[:3]


def test_is_agari_agrees_with_mahjong_agari(hands: list[list[int]]) -> None:
    assert sum(map(H.is_agari, hands)) > N_HANDS // 3  # the sample holds many complete hands
    assert _mismatches(hands, H.is_agari, AGARI.is_agari) == []


def test_decompose_agrees_with_mahjong_hand_divider(hands: list[list[int]]) -> None:
    fourteen = [h for h in hands if sum(h) == 14 and AGARI.is_agari(h)]
    assert sum(len(H.decompose(h)) > 1 for h in fourteen) >= 3  # ambiguous readings occur
    assert _mismatches(fourteen, H.decompose, mahjong_readings) == []


def test_decompose_of_every_part_size_agrees_with_recursion(hands: list[list[int]]) -> None:
    rng = random.Random(5)
    sample = hands + [wall_hand(rng, rng.choice((2, 5, 8, 11))) for _ in range(N_HANDS // 4)]
    assert sum(bool(H.decompose(h)) for h in sample if sum(h) < 14) > N_HANDS // 10
    assert _mismatches(sample, H.decompose, brute_readings) == []


def test_waits_agree_with_brute_force(hands: list[list[int]]) -> None:
    rng = random.Random(7)
    ready = [drop_one(rng, h) for h in hands]
    ready += [wall_hand(rng, rng.choice((1, 4, 7, 10, 13))) for _ in range(N_HANDS // 4)]
    assert sum(map(H.is_tenpai, ready)) > N_HANDS // 2
    assert _mismatches(ready, H.waits, brute_waits) == []


def test_is_tenpai_agrees_with_both_shanten_oracles(hands: list[list[int]]) -> None:
    rng = random.Random(11)
    ready = [drop_one(rng, h) for h in hands[: N_HANDS // 2]]
    assert _mismatches(ready, H.is_tenpai, lambda c: H.shanten(c) == 0) == []
    assert _mismatches(ready, H.is_tenpai, lambda c: SHANTEN.calculate_shanten(c) == 0) == []


def test_shanten_agrees_with_mahjong_shanten() -> None:
    rng = random.Random(13)
    sample = [wall_hand(rng, rng.choice((13, 14, 10, 11))) for _ in range(N_HANDS // 2)]
    assert len({H.shanten(h) for h in sample}) >= 4
    assert _mismatches(sample, H.shanten, SHANTEN.calculate_shanten) == []


def test_tenpai_discards_agree_with_brute_force(hands: list[list[int]]) -> None:
    rng = random.Random(17)
    sample = [add(drop_one(rng, h), rng.randrange(34)) for h in hands]
    sample = [h for h in sample if max(h) <= 4]

    def brute(counts: list[int]) -> dict[int, list[int]]:
        out = {}
        for d in range(34):
            if counts[d]:
                left = counts.copy()
                left[d] -= 1
                if found := brute_waits(left):
                    out[d] = found
        return out

    assert sum(bool(H.tenpai_discards(h)) for h in sample) > len(sample) // 4
    assert _mismatches(sample[: N_HANDS // 5], H.tenpai_discards, brute) == []
    assert _mismatches(sample, H.tenpai_discards, xiangting_discards) == []


def test_far_from_tenpai_is_three_incomplete_parts_and_never_hides_a_tenpai_discard(
    hands: list[list[int]],
) -> None:
    """The packed-word test is the four tuple lookups it replaced, and a hand it calls far
    has no discard that leaves tenpai (a wrong "far" would hide waits: a missed furiten)."""
    rng = random.Random(19)
    sample = [add(drop_one(rng, h), rng.randrange(34)) for h in hands]
    sample = [h for h in sample if max(h) <= 4]
    sample += [wall_hand(rng, rng.choice((2, 5, 8, 11, 14))) for _ in range(N_HANDS)]
    sample += [special_hand(rng) for _ in range(N_HANDS // 10)]
    complete = (SUIT.complete, SUIT.complete, SUIT.complete, HONOURS.complete)

    def three_incomplete(counts: list[int]) -> bool:
        parts = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
        missing = sum(tuple(part) not in table for part, table in zip(parts, complete, strict=True))
        near = sum(counts) == 14 and H._special_possible(tuple(counts))
        return missing > 2 and not near

    far = [h for h in sample if H.far_from_tenpai(h, sum(h))]
    assert len(sample) // 4 < len(far) < len(sample) * 3 // 4  # it tells hands apart
    assert _mismatches(sample, lambda h: H.far_from_tenpai(h, sum(h)), three_incomplete) == []
    assert [h for h in far if H.tenpai_discards(h)] == []


def xiangting_discards(counts: list[int]) -> dict[int, list[int]]:
    """Per discard, xiangting's necessary tiles when it leaves a replacement number of 1."""
    out = {}
    for d in range(34):
        if counts[d]:
            left = counts.copy()
            left[d] -= 1
            rn, necessary = xiangting.calculate_necessary_tiles(left, xiangting.PlayerCount.FOUR)
            if rn == 1:
                out[d] = [k for k in range(34) if necessary >> k & 1]
    return out


def test_sanma_tenpai_and_shanten_agree_with_both_oracles() -> None:
    """Sanma hands (no 2m..8m): is_tenpai, xiangting's THREE shanten and mahjong's agree."""
    rng = random.Random(19)
    sanma_tiles = [t for t in range(136) if t >> 2 in SANMA_KINDS]
    sample: list[list[int]] = []
    while len(sample) < N_HANDS // 2:
        if len(sample) % 2:
            counts = [0] * 34
            for t in rng.sample(sanma_tiles, 13):
                counts[t >> 2] += 1
        else:
            counts = built_hand(rng, 4)
            if any(counts[1:8]):
                continue
            counts = drop_one(rng, drop_one(rng, counts))
            counts = add(counts, rng.choice([k for k in SANMA_KINDS if counts[k] < 4]))
        sample.append(counts)
    assert sum(map(H.is_tenpai, sample)) > N_HANDS // 20
    assert _mismatches(sample, H.is_tenpai, lambda c: H.shanten(c, sanma=True) == 0) == []
    three = lambda c: SHANTEN.calculate_shanten(c, is_three_player=True)  # noqa: E731
    assert _mismatches(sample, lambda c: H.shanten(c, sanma=True), three) == []
