"""The yaku unit: a named condition with its han, and the decorators that make one."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.rules.yaku.features import STANDARD, HandInfo, Shape

Test = Callable[[HandInfo, Shape], bool]


class Yaku(NamedTuple):
    """A regular yaku. ``opened`` is its han with an open hand, 0 when it needs menzen.
    ``shape`` says whether the condition reads the Shape; the others are tested once a hand.
    ``gate`` names a HandInfo flag the yaku cannot hold without ("" = none): scoring skips a
    whole group of units on one cheap check. A shape yaku is tried only on shapes of its
    ``form`` holding a number of sequences in ``seqs`` (e.g. toitoi: none)."""

    name: str
    tenhou: str
    closed: int
    opened: int
    test: Test
    shape: bool
    gate: str
    form: int
    seqs: range


class Yakuman(NamedTuple):
    """A yakuman; ``double`` ones count twice when ``RuleConfig.double_yakuman`` is on."""

    name: str
    tenhou: str
    double: bool
    test: Test
    shape: bool
    gate: str


def yaku(
    name: str,
    tenhou: str,
    closed: int,
    opened: int = 0,
    *,
    shape: bool = False,
    gate: str = "",
    form: int = STANDARD,
    seqs: range = range(5),
) -> Callable[[Test], Yaku]:
    """Turn a condition into a ``Yaku`` worth ``closed`` han (``opened`` when open)."""

    def wrap(test: Test) -> Yaku:
        return Yaku(name, tenhou, closed, opened, test, shape, gate, form, seqs)

    return wrap


def yakuman(
    name: str, tenhou: str, double: bool = False, *, shape: bool = False, gate: str = ""
) -> Callable[[Test], Yakuman]:
    """Turn a condition into a ``Yakuman``."""

    def wrap(test: Test) -> Yakuman:
        return Yakuman(name, tenhou, double, test, shape, gate)

    return wrap
