"""Seeded random winning hands, the common input of the differential test and the benches.

``random_hands(seed, n)`` yields ``Case``s: a complete hand (concealed ids including the winning
tile, melds) and a ``WinContext``. Most are plain four-groups-and-a-pair hands with random
calls and kans; a share is steered towards rarer yaku (flushes, outside hands, honours,
terminals, green tiles, seven pairs, kokushi) so every unit of scoring gets exercised.
Situational flags follow what a real table allows (riichi only closed, rinshan only after a
kan, haitei on a tsumo, houtei and chankan on a ron), so the oracle's own validation agrees.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from engine.rules.meld import Meld, MeldType
from engine.rules.scoring import WinContext
from engine.rules.tiles import GREEN as _GREEN
from engine.rules.tiles import HONOURS, NORTH, SANMA_REMOVED, TERMINALS
from engine.rules.tiles import YAOCHUU_KINDS as _YAOCHUU


class Case(NamedTuple):
    concealed: list[int]
    melds: list[Meld]
    ctx: WinContext


class _Pool:
    """The 136 tiles still free; a red five is taken first half of the time."""

    def __init__(self, rng: random.Random, sanma: bool = False) -> None:
        self.rng = rng
        self.sanma = sanma
        gone = SANMA_REMOVED if sanma else frozenset()
        self.free = [[] if k in gone else [4 * k + i for i in range(4)] for k in range(34)]

    def left(self, kind: int) -> int:
        return len(self.free[kind])

    def take(self, kind: int) -> int:
        copies = self.free[kind]
        i = 0 if copies[0] % 4 == 0 and self.rng.random() < 0.5 else self.rng.randrange(len(copies))
        return copies.pop(i)


def _group(
    rng: random.Random, pool: _Pool, kinds: tuple[int, ...], runs: tuple[int, ...]
) -> list[int] | None:
    """One random group (as kinds): a sequence starting in ``runs`` or a triplet of ``kinds``."""
    for _ in range(20):
        if runs and rng.random() < 0.6:
            s = rng.choice(runs)
            if all(pool.left(x) for x in (s, s + 1, s + 2)):
                return [s, s + 1, s + 2]
        k = rng.choice(kinds)
        if pool.left(k) >= 3:
            return [k, k, k]
    return None


def _theme(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kinds a hand may use and where its sequences may start."""
    every = tuple(range(34))
    roll = rng.random()
    if roll < 0.65:
        return every, tuple(k for k in range(27) if k % 9 < 7)
    s = rng.randrange(3) * 9
    suit_runs = tuple(range(s, s + 7))
    if roll < 0.72:  # honitsu
        return (*range(s, s + 9), *HONOURS), suit_runs
    if roll < 0.77:  # chinitsu
        return tuple(range(s, s + 9)), suit_runs
    if roll < 0.83:  # chanta / junchan / honroutou
        return _YAOCHUU, (0, 6, 9, 15, 18, 24)
    if roll < 0.89:  # ittsu
        return every, (s, s + 3, s + 6)
    if roll < 0.95:  # sanshoku
        n = rng.randrange(7)
        return every, (n, n + 9, n + 18)
    if roll < 0.97:
        return _GREEN, (19,)
    if roll < 0.985:
        return HONOURS, ()
    return TERMINALS, ()


def _standard(rng: random.Random, pool: _Pool) -> tuple[list[int], list[Meld]] | None:
    kinds, runs = _theme(rng)
    groups: list[list[int]] = []
    for _ in range(4):
        g = _group(rng, pool, kinds, runs)
        if g is None:
            return None
        groups.append([pool.take(k) for k in g])
    pair = [k for k in kinds if pool.left(k) >= 2]
    if not pair:
        return None
    pk = rng.choice(pair)
    concealed = [pool.take(pk), pool.take(pk)]
    melds: list[Meld] = []
    open_rate = rng.choice((0.0, 0.0, 0.2, 0.5))
    for g in groups:
        is_run = g[0] >> 2 != g[1] >> 2
        if rng.random() < open_rate and not (is_run and pool.sanma):  # no chii in sanma
            called = rng.choice(g)
            melds.append(Meld(MeldType.CHII if is_run else MeldType.PON, tuple(sorted(g)), called))
        elif not is_run and pool.left(g[0] >> 2) and rng.random() < 0.15:
            g = sorted([*g, pool.take(g[0] >> 2)])
            kan = rng.choice((MeldType.ANKAN, MeldType.ANKAN, MeldType.DAIMINKAN, MeldType.KAKAN))
            called = -1 if kan == MeldType.ANKAN else g[0]
            melds.append(Meld(kan, tuple(g), called))
        else:
            concealed.extend(g)
    return concealed, melds


def _chiitoitsu(rng: random.Random, pool: _Pool) -> list[int]:
    every = [k for k in range(34) if pool.left(k)]
    kinds = rng.sample(every, 7) if rng.random() < 0.7 else rng.sample(_YAOCHUU, 7)
    return [pool.take(k) for k in kinds for _ in range(2)]


def _kokushi(rng: random.Random, pool: _Pool) -> list[int]:
    return [pool.take(k) for k in (*_YAOCHUU, rng.choice(_YAOCHUU))]


def _kita(rng: random.Random, pool: _Pool) -> list[Meld]:
    """Sanma: some Norths set aside as nukidora."""
    n = rng.choice((0, 0, 1, 1, 2, 3, 4))
    return [Meld(MeldType.KITA, (pool.take(NORTH),)) for _ in range(min(n, pool.left(NORTH)))]


def _context(rng: random.Random, pool: _Pool, hand: list[int], melds: list[Meld]) -> WinContext:
    menzen = not any(m.opened for m in melds)
    kans = sum(m.is_kan for m in melds)
    tsumo = rng.random() < 0.5
    riichi = menzen and rng.random() < 0.5
    double = riichi and rng.random() < 0.1
    rinshan = tsumo and kans > 0 and rng.random() < 0.3
    chankan = not tsumo and rng.random() < 0.03
    last = rng.random() < 0.06 and not rinshan and not chankan
    seat_wind = 27 + rng.randrange(3 if pool.sanma else 4)
    blessed = tsumo and not melds and not riichi and rng.random() < 0.02
    free = [t for kind in pool.free for t in kind]
    rng.shuffle(free)
    n = 1 + kans
    return WinContext(
        win_tile=rng.choice(hand),
        tsumo=tsumo,
        seat_wind=seat_wind,
        round_wind=27 + rng.randrange(2),
        riichi=riichi and not double,
        double_riichi=double,
        ippatsu=riichi and rng.random() < 0.2,
        haitei=last and tsumo,
        houtei=last and not tsumo,
        rinshan=rinshan,
        chankan=chankan,
        tenhou=blessed and seat_wind == 27,
        chiihou=blessed and seat_wind != 27,
        dora_indicators=tuple(free[:n]),
        ura_indicators=tuple(free[n : 2 * n]) if riichi else (),
        kita=sum(m.type == MeldType.KITA for m in melds),
    )


def random_hands(seed: int, n: int, sanma: bool = False) -> Iterator[Case]:
    """``n`` seeded random winning hands (complete shapes; some have no yaku). ``sanma``:
    three-player tiles (no 2m-8m), no chii, seats East to West, Norths pulled as kita."""
    rng = random.Random(seed)
    made = 0
    while made < n:
        pool = _Pool(rng, sanma)
        roll = rng.random()
        melds: list[Meld] = []
        if roll < 0.04:
            hand = _chiitoitsu(rng, pool)
        elif roll < 0.05:
            hand = _kokushi(rng, pool)
        else:
            built = _standard(rng, pool)
            if built is None:
                continue
            hand, melds = built
        if sanma:
            melds = melds + _kita(rng, pool)
        yield Case(hand, melds, _context(rng, pool, hand, melds))
        made += 1
