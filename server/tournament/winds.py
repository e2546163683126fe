"""Seat winds spread evenly: every player sits at each wind floor(R/k) or ceil(R/k) times.

Who meets whom depends only on which table a player sits at, so the order within each table
is free, and this module picks it. Players and tables are the two sides of a bipartite
graph, one edge per seat, and a wind is a colour of the edges with each table's ``k`` edges
all different. De Werra's theorem (1971: every bipartite graph has an equitable edge
colouring with any number of colours) says such an even spread always exists, and his proof
finds it: while two winds ``a`` and ``b`` are uneven at some player, the edges of those two
colours are split into trails and recoloured alternately along each trail, which evens
``a`` against ``b`` at every vertex (a table keeps one of each) and lowers the sum of squared
counts, so the loop ends.

>>> tables = [[[0, 1, 2, 3]], [[0, 1, 2, 3]], [[0, 1, 2, 3]], [[0, 1, 2, 3]]]
>>> seated = even_winds(tables, 4)
>>> [sorted(r[0].index(p) for r in seated) for p in range(4)]
[[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]]
"""

from __future__ import annotations

from itertools import combinations


def wind_counts(rounds: list[list[list[int]]], players: int, table_size: int) -> list[list[int]]:
    """``counts[p][w]``: how many times player ``p`` sits at seat ``w`` (0 = East)."""
    counts = [[0] * table_size for _ in range(players)]
    for tables in rounds:
        for table in tables:
            for wind, p in enumerate(table):
                counts[p][wind] += 1
    return counts


def even_winds(rounds: list[list[list[int]]], table_size: int) -> list[list[list[int]]]:
    """The same tables, each reordered so that every player's winds are even."""
    seats = [[table[:] for table in tables] for tables in rounds]
    players = 1 + max((p for tables in rounds for t in tables for p in t), default=-1)
    changed = True
    while changed:
        changed = False
        for a, b in combinations(range(table_size), 2):
            counts = wind_counts(seats, players, table_size)
            if any(abs(c[a] - c[b]) > 1 for c in counts):
                _rebalance(seats, players, a, b)
                changed = True
    return seats


def _rebalance(seats: list[list[list[int]]], players: int, a: int, b: int) -> None:
    """Recolour the seats ``a`` and ``b`` of every table along alternating trails."""
    tables = [table for tables in seats for table in tables]
    # edge e = (player, table index); player vertices 0..players-1, table vertices after
    edges = [(table[w], i) for i, table in enumerate(tables) for w in (a, b)]
    incident: list[list[int]] = [[] for _ in range(players + len(tables))]
    for e, (p, i) in enumerate(edges):
        incident[p].append(e)
        incident[players + i].append(e)
    used = [False] * len(edges)
    left = [len(es) for es in incident]
    nxt = [0] * len(incident)

    def walk(start: int) -> None:
        vertex, colour = start, a
        while True:
            es = incident[vertex]
            while nxt[vertex] < len(es) and used[es[nxt[vertex]]]:
                nxt[vertex] += 1
            if nxt[vertex] == len(es):
                return
            e = es[nxt[vertex]]
            used[e] = True
            p, i = edges[e]
            left[p] -= 1
            left[players + i] -= 1
            tables[i][colour] = p
            vertex = players + i if vertex == p else p
            colour = b if colour == a else a

    for v in range(len(incident)):
        if left[v] % 2:
            walk(v)
    for v in range(len(incident)):
        if left[v]:
            walk(v)
