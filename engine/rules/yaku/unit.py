"""The yaku unit: a named condition with its han, and the decorators that make one."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.rules.yaku.features import HandInfo, Shape

Test = Callable[[HandInfo, Shape], bool]


class Yaku(NamedTuple):
    """A regular yaku. ``opened`` is its han with an open hand, 0 when it needs menzen."""

    name: str
    tenhou: str
    closed: int
    opened: int
    test: Test


class Yakuman(NamedTuple):
    """A yakuman; ``double`` ones count twice when ``RuleConfig.double_yakuman`` is on."""

    name: str
    tenhou: str
    double: bool
    test: Test


def yaku(name: str, tenhou: str, closed: int, opened: int = 0) -> Callable[[Test], Yaku]:
    """Turn a condition into a ``Yaku`` worth ``closed`` han (``opened`` when open)."""

    def wrap(test: Test) -> Yaku:
        return Yaku(name, tenhou, closed, opened, test)

    return wrap


def yakuman(name: str, tenhou: str, double: bool = False) -> Callable[[Test], Yakuman]:
    """Turn a condition into a ``Yakuman``."""

    def wrap(test: Test) -> Yakuman:
        return Yakuman(name, tenhou, double, test)

    return wrap
