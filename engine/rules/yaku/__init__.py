"""Every yaku of Tenhou's rules as one small named unit, grouped by han.

``REGULAR`` and ``YAKUMAN`` are the tables scoring walks; each unit is a predicate over a
``HandInfo`` (fixed per hand) and a ``Shape`` (one interpretation of it).
"""

from engine.rules.yaku.features import (
    CHIITOITSU,
    KANCHAN,
    KOKUSHI,
    PENCHAN,
    RYANMEN,
    SHANPON,
    STANDARD,
    TANKI,
    HandInfo,
    Shape,
)
from engine.rules.yaku.han1 import HAN1
from engine.rules.yaku.han2 import HAN2
from engine.rules.yaku.han3 import HAN3
from engine.rules.yaku.situational import SITUATIONAL
from engine.rules.yaku.unit import Yaku, Yakuman
from engine.rules.yaku.yakuman import YAKUMAN

#: regular yaku in the order results list them
REGULAR: tuple[Yaku, ...] = (*SITUATIONAL, *HAN1, *HAN2, *HAN3)

__all__ = [
    "CHIITOITSU",
    "KANCHAN",
    "KOKUSHI",
    "PENCHAN",
    "REGULAR",
    "RYANMEN",
    "SHANPON",
    "STANDARD",
    "TANKI",
    "YAKUMAN",
    "HandInfo",
    "Shape",
    "Yaku",
    "Yakuman",
]
