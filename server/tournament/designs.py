"""Resolvable designs from finite fields: rounds in which no two players meet twice.

With ``g`` tables of ``k`` seats and ``g`` a prime power at least ``k``, the players are
``k`` groups of ``g``, player ``(i, x)`` with ``x`` in GF(g). In round ``r`` (an element of
GF(g)) table ``t`` seats ``(i, t + a_i r)`` for each group ``i``, the ``a_i`` being distinct
field elements. Two players ``(i, x)`` and ``(j, y)`` of different groups sit together in
the round where ``(a_j - a_i) r = y - x``: exactly one. Two of one group never do. That is a
resolvable transversal design RTD(k, g): ``g`` rounds without a repeated pair. When
``g == k`` the groups themselves are one more round, and the ``k + 1`` rounds are the
parallel classes of the affine plane AG(2, k) (16 players, 5 rounds at 4 seats; 9 players,
4 rounds of sanma).

>>> rounds = resolvable(16, 4)
>>> len(rounds), [len(tables) for tables in rounds]
(5, [4, 4, 4, 4, 4])
>>> pairs = [frozenset((a, b)) for tables in rounds for t in tables for a in t for b in t if a < b]
>>> len(pairs), len(set(pairs))
(120, 120)
>>> resolvable(6, 4) is None  # 6 is no prime power
True
"""

from __future__ import annotations

from itertools import product


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``q == p ** e`` and ``p`` prime, or None.

    >>> prime_power(16), prime_power(9), prime_power(12), prime_power(1)
    ((2, 4), (3, 2), None, None)
    """
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    e = 0
    while q % p == 0:
        q //= p
        e += 1
    return (p, e) if q == 1 else None


def _poly_mod(a: list[int], m: list[int], p: int) -> list[int]:
    """``a`` modulo the monic ``m`` over GF(p) (coefficients lowest first)."""
    a = a[:]
    while len(a) >= len(m):
        lead = a[-1]
        shift = len(a) - len(m)
        for i, c in enumerate(m):
            a[shift + i] = (a[shift + i] - lead * c) % p
        a.pop()
    return a


def _monic(degree: int, p: int) -> list[list[int]]:
    return [[*low, 1] for low in product(range(p), repeat=degree)]


def _irreducible(p: int, e: int) -> list[int]:
    """The first monic polynomial of degree ``e`` over GF(p) with no factor of lower degree."""
    for m in _monic(e, p):
        if all(any(_poly_mod(m, d, p)) for deg in range(1, e // 2 + 1) for d in _monic(deg, p)):
            return m
    raise AssertionError("every degree has an irreducible polynomial")


class Field:
    """GF(q) on the integers ``0..q-1``: the base-p digits of an element are its polynomial's
    coefficients, so ``0`` and ``1`` are zero and one, and a prime ``q`` is arithmetic mod q."""

    def __init__(self, q: int) -> None:
        found = prime_power(q)
        if found is None:
            raise ValueError(f"{q} is not a prime power")
        p, e = found
        self.q = q
        modulus = _irreducible(p, e)
        digits = [[x // p**i % p for i in range(e)] for x in range(q)]

        def number(coefficients: list[int]) -> int:
            return sum(c * p**i for i, c in enumerate(coefficients))

        self.add = [
            [number([(u + v) % p for u, v in zip(a, b, strict=True)]) for b in digits]
            for a in digits
        ]
        self.mul = [
            [number(_poly_mod(_poly_times(a, b, p), modulus, p)) for b in digits] for a in digits
        ]


def _poly_times(a: list[int], b: list[int], p: int) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        for j, v in enumerate(b):
            out[i + j] = (out[i + j] + u * v) % p
    return out


def capacity(players: int, table_size: int) -> int:
    """How many rounds without a repeated pair ``resolvable`` gives (0: none for this size).

    >>> capacity(16, 4), capacity(9, 3), capacity(20, 4), capacity(24, 4), capacity(12, 3)
    (5, 4, 5, 0, 4)
    """
    if players % table_size or table_size < 2:
        return 0
    g = players // table_size
    if g < table_size or prime_power(g) is None:
        return 0
    return g + 1 if g == table_size else g


def resolvable(players: int, table_size: int) -> list[list[list[int]]] | None:
    """Every round of the design for ``players`` (indices 0..players-1; player ``(i, x)`` is
    ``i * g + x``), or None when ``players / table_size`` is no prime power >= table_size."""
    if capacity(players, table_size) == 0:
        return None
    g = players // table_size
    field = Field(g)
    rounds = [
        [[i * g + field.add[t][field.mul[i][r]] for i in range(table_size)] for t in range(g)]
        for r in range(g)
    ]
    if g == table_size:
        rounds.append([[i * g + x for x in range(g)] for i in range(table_size)])
    return rounds
