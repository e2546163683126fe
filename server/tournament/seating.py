"""Who sits where in each round of a tournament: ``balanced`` (every round at once, before
round 1) and ``swiss`` (each round from the standings).

``balanced(players, rounds, table_size)`` gives, per round, the tables with the names in
seat order (seat 0 is East, the first dealer: the winds are fixed, so no seat draw follows).
It minimises, in this order:

1. repeated meetings, ``repeats`` = the sum over pairs of m(m-1)/2 for a pair that meets m
   times (every pair meets at most once whenever the search reaches 0). Where a finite-field
   design exists (``designs.resolvable``: ``players / table_size`` a prime power at least
   ``table_size``, e.g. 16 players at 4 seats, 5 rounds, the affine plane of order 4) its
   rounds are taken as they are; otherwise, and for the rounds past the design's, a greedy
   draw is improved by a tabu search (swap a player who meets someone again with one of
   another table, the best swap not made recently), seeded deterministically and bounded by
   a count of steps, not by time, so the same entrants always get the same seating. It
   stops early at ``lower_bound``, which is then proven optimal;
2. uneven winds (``winds.even_winds``): always exact, each player sits at each wind
   floor(R/k) or ceil(R/k) times.

``swiss(standings_order, previous_tables, table_size, ranks=None)`` seats the first
``table_size`` of the standings at table 1, and so on. Players tied in the standings (equal
``ranks``) may trade places, across the tables their tie spans, to lower the repeats with
``previous_tables``. Its tables are in standing order, not seat order: the seats are drawn
from the round's seed as at ranked tables.

>>> rounds = balanced([f"p{i}" for i in range(16)], 5, 4)
>>> repeats(rounds), rounds[0][0]
(0, ['p0', 'p8', 'p4', 'p12'])
>>> swiss(list("abcdefgh"), [list("abcd"), list("efgh")], 4)
[['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'h']]
>>> swiss(list("abcdefgh"), [list("abcd"), list("efgh")], 4, ranks=[1, 2, 3, 3, 3, 3, 7, 8])
[['a', 'b', 'e', 'f'], ['c', 'd', 'g', 'h']]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, permutations
from math import comb

from server.tournament.designs import resolvable
from server.tournament.winds import even_winds

#: swaps the tabu search may evaluate: its only bound (a count, not a time, so the same
#: entrants always get the same seating), about 2-3 s of one core at worst
WORK = 1_000_000
#: how many steps (drawn in this range) a swap made stays forbidden
TABU_STEPS = (4, 20)
#: steps without a new best before a shake, and the random swaps a shake makes
SHAKE_AFTER = 300
SHAKE_SWAPS = 3

Schedule = list[list[list[int]]]


def balanced(
    players: list[str], rounds: int, table_size: int, *, seed: int = 0
) -> list[list[list[str]]]:
    """Every round's tables, names in seat order; ``len(players)`` must fill whole tables
    (bots first fill the empty seats). The same arguments always give the same seating."""
    n = len(players)
    if table_size < 2 or n == 0 or n % table_size or rounds < 1:
        raise ValueError(f"{n} players do not fill tables of {table_size}")
    schedule = even_winds(_meetings(n, rounds, table_size, seed), table_size)
    return [[[players[p] for p in table] for table in tables] for tables in schedule]


def _meetings(n: int, rounds: int, k: int, seed: int) -> Schedule:
    """Every round's tables as index sets, repeats minimised."""
    rng = random.Random(f"balanced:{n}:{rounds}:{k}:{seed}")
    design = resolvable(n, k) or []
    schedule = [[t[:] for t in tables] for tables in design[:rounds]]
    counts = [[0] * n for _ in range(n)]
    for tables in schedule:
        _count(counts, tables, 1)
    while len(schedule) < rounds:
        tables = _greedy_round(n, k, counts, rng)
        _count(counts, tables, 1)
        schedule.append(tables)
    if _cost(counts) > lower_bound(n, rounds, k):
        _tabu(schedule, counts, k, rng, lower_bound(n, rounds, k))
    return schedule


def _count(counts: list[list[int]], tables: list[list[int]], step: int) -> None:
    for table in tables:
        for p, q in combinations(table, 2):
            counts[p][q] += step
            counts[q][p] += step


def _cost(counts: list[list[int]]) -> int:
    return sum(comb(m, 2) for row in counts for m in row) // 2


def _greedy_round(n: int, k: int, counts: list[list[int]], rng: random.Random) -> list[list[int]]:
    """One round, each table filled by the unseated player who has met its members least."""
    order = list(range(n))
    rng.shuffle(order)
    tables: list[list[int]] = []
    while order:
        table = [order.pop(0)]
        while len(table) < k:
            best, best_cost = 0, -1
            for i, p in enumerate(order):
                cost = sum(counts[p][q] for q in table)
                if best_cost < 0 or cost < best_cost:
                    best, best_cost = i, cost
                    if cost == 0:
                        break
            table.append(order.pop(best))
        tables.append(table)
    return tables


def _tabu(
    schedule: Schedule, counts: list[list[int]], k: int, rng: random.Random, bound: int
) -> None:
    """Tabu search (after Dotú and Van Hentenryck's for the social golfer problem): each
    step makes the best swap of a player who meets someone again with a player of another
    table of that round, unless it was made lately and does not beat the best schedule seen;
    a long run without a new best shakes the schedule with a few random swaps. It keeps the
    best schedule seen, and stops at ``bound`` or after ``WORK`` evaluated swaps."""
    where = [{p: ti for ti, table in enumerate(tables) for p in table} for tables in schedule]
    cost = _cost(counts)
    best_cost, best = cost, [[t[:] for t in tables] for tables in schedule]
    tabu: dict[tuple[int, int, int], int] = {}
    work = stale = step = 0
    while work < WORK:
        step += 1
        found, work = _best_swaps(schedule, counts, tabu, step, cost - best_cost, work)
        if not found:
            break
        delta, moves = found
        r, p, q = moves[rng.randrange(len(moves))]
        _swap(schedule, where, counts, r, p, q)
        tabu[(r, p, q)] = tabu[(r, q, p)] = step + rng.randint(*TABU_STEPS)
        cost += delta
        if cost < best_cost:
            best_cost, best, stale = cost, [[t[:] for t in ts] for ts in schedule], 0
            if cost <= bound:
                break
        else:
            stale += 1
        if stale >= SHAKE_AFTER:
            stale = 0
            for _ in range(SHAKE_SWAPS):
                r = rng.randrange(len(schedule))
                a, b = rng.sample(range(len(schedule[r])), 2)
                _swap(
                    schedule,
                    where,
                    counts,
                    r,
                    rng.choice(schedule[r][a]),
                    rng.choice(schedule[r][b]),
                )
            cost = _cost(counts)
    schedule[:] = best


def _best_swaps(
    schedule: Schedule,
    counts: list[list[int]],
    tabu: dict[tuple[int, int, int], int],
    step: int,
    above_best: int,
    work: int,
) -> tuple[tuple[int, list[tuple[int, int, int]]] | None, int]:
    """The least change of ``repeats`` over the allowed swaps, the swaps that make it, and
    the work count after evaluating them."""
    best: int | None = None
    moves: list[tuple[int, int, int]] = []
    for r, tables in enumerate(schedule):
        for home, table in enumerate(tables):
            for p in table:
                cp = counts[p]
                mine = [x for x in table if x != p]
                if all(cp[x] < 2 for x in mine):
                    continue
                leave = sum(cp[x] - 1 for x in mine)
                for ti, other in enumerate(tables):
                    if ti == home:
                        continue
                    join = sum(cp[x] for x in other)
                    for q in other:
                        cq = counts[q]
                        delta = (
                            join
                            - cp[q]
                            - leave
                            + sum(cq[x] for x in mine)
                            - sum(cq[x] - 1 for x in other if x != q)
                        )
                        work += 1
                        if tabu.get((r, p, q), 0) >= step and above_best + delta >= 0:
                            continue
                        if best is None or delta < best:
                            best, moves = delta, [(r, p, q)]
                        elif delta == best:
                            moves.append((r, p, q))
    return (None if best is None else (best, moves)), work


def _swap(
    schedule: Schedule,
    where: list[dict[int, int]],
    counts: list[list[int]],
    r: int,
    p: int,
    q: int,
) -> None:
    a, b = where[r][p], where[r][q]
    tables = schedule[r]
    _count(counts, [tables[a], tables[b]], -1)
    tables[a][tables[a].index(p)] = q
    tables[b][tables[b].index(q)] = p
    where[r][p], where[r][q] = b, a
    _count(counts, [tables[a], tables[b]], 1)


def pair_counts(rounds: Sequence[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """How many times each pair that met sat at one table."""
    met: dict[frozenset[str], int] = {}
    for tables in rounds:
        for table in tables:
            for pair in combinations(table, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met


def repeats(rounds: Sequence[Sequence[Sequence[str]]]) -> int:
    """The sum over pairs of m(m-1)/2, m the times they met: 0 when no pair met twice."""
    return sum(comb(m, 2) for m in pair_counts(rounds).values())


def lower_bound(players: int, rounds: int, table_size: int) -> int:
    """A floor under ``repeats`` that no seating can beat; the larger of two counts.

    - Spread: there are R g C(k, 2) meetings over C(n, 2) pairs, and m(m-1)/2 is convex, so
      the repeats are least when every pair meets floor or ceil of the mean times.
    - Two rounds: the g x g table of how many players table ``i`` of one round and table
      ``j`` of another share has rows of sum k; with k > g some cell holds 2 or more, and
      the C(cell, 2) pairs of every pair of rounds are repeats. Spread evenly, a row of
      k = a g + b holds b cells of a + 1 and g - b of a.

    >>> lower_bound(16, 5, 4), lower_bound(16, 6, 4), lower_bound(8, 2, 4), lower_bound(4, 3, 4)
    (0, 24, 4, 18)
    """
    k = table_size
    g = players // k
    meetings, pairs = rounds * g * comb(k, 2), comb(players, 2)
    q, r = divmod(meetings, pairs)
    spread = (pairs - r) * comb(q, 2) + r * comb(q + 1, 2)
    a, b = divmod(k, g)
    per_round_pair = g * (b * comb(a + 1, 2) + (g - b) * comb(a, 2))
    return max(spread, comb(rounds, 2) * per_round_pair)


def swiss(
    standings_order: list[str],
    previous_tables: list[list[str]],
    table_size: int,
    *,
    ranks: Sequence[int | None] | None = None,
) -> list[list[str]]:
    """Tables of the standings in order, ties (equal ``ranks``, as ``standings.compute``
    gives them; bots' None ranks tie with each other) reordered to avoid repeat pairs."""
    n = len(standings_order)
    if table_size < 2 or n % table_size:
        raise ValueError(f"{n} players do not fill tables of {table_size}")
    order = standings_order[:]
    if ranks is None or len(ranks) != n:
        ranks = list(range(n))
    met: dict[str, dict[str, int]] = {}
    for table in previous_tables:
        for a, b in permutations(table, 2):
            row = met.setdefault(a, {})
            row[b] = row.get(b, 0) + 1
    groups: dict[int | None, list[int]] = {}
    for i, rank in enumerate(ranks):
        groups.setdefault(rank, []).append(i)

    def gain(i: int, j: int) -> int:
        """How many fewer repeats trading places i and j (at different tables) makes."""
        p, q = order[i], order[j]
        mp, mq = met.get(p, {}), met.get(q, {})
        here = [order[x] for x in _seats(i, table_size) if x != i]
        there = [order[x] for x in _seats(j, table_size) if x != j]
        before = sum(mp.get(x, 0) for x in here) + sum(mq.get(x, 0) for x in there)
        after = sum(mq.get(x, 0) for x in here) + sum(mp.get(x, 0) for x in there)
        return before - after

    def repeating(i: int) -> bool:
        mine = met.get(order[i], {})
        return any(mine.get(order[x], 0) for x in _seats(i, table_size) if x != i)

    improved = True
    while improved:  # each swap lowers the repeats: this ends
        improved = False
        for places in groups.values():
            for i in places:
                if not repeating(i):
                    continue
                gains = [(gain(i, j), -j) for j in places if j // table_size != i // table_size]
                best, j = max(gains, default=(0, 0))
                if best > 0:
                    order[i], order[-j] = order[-j], order[i]
                    improved = True
    return [_slice(order, t, table_size) for t in range(n // table_size)]


def _seats(i: int, size: int) -> range:
    """The places of the table that place ``i`` is at."""
    return range(i - i % size, i - i % size + size)


def _slice(order: list[str], table: int, size: int) -> list[str]:
    return order[table * size : (table + 1) * size]
