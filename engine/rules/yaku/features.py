"""The small feature records every yaku condition reads.

Scoring builds one ``HandInfo`` per call (what does not depend on how the hand is split: the
tile set, the melds, the situation) and one ``Shape`` per interpretation (a decomposition plus
where the winning tile sits in it). Yaku are then plain predicates over the two, so a
condition reads like the rule book and costs a few attribute lookups.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules.config import RuleConfig
    from engine.rules.scoring import WinContext

from engine.rules.tiles import SIMPLES, YAOCHUU

TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 sou, hatsu
_KINDS = range(34)
_MAN, _PIN, _SOU = frozenset(range(9)), frozenset(range(9, 18)), frozenset(range(18, 27))

# hand forms
STANDARD, CHIITOITSU, KOKUSHI = 0, 1, 2
# waits: how the winning tile completed its group
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = range(5)


class HandInfo:
    """What is fixed for one winning hand, whatever its decomposition."""

    __slots__ = (
        "all_green",
        "all_simple",
        "all_terminal",
        "all_yaochuu",
        "blessed",
        "counts",
        "ctx",
        "dealer",
        "honour_sets",
        "honours",
        "kans",
        "kinds",
        "menzen",
        "no_melds",
        "one_suit",
        "pure",
        "riichi_any",
        "ron_luck",
        "round_wind",
        "rules",
        "seat_wind",
        "suits",
        "tsumo",
        "win_kind",
    )

    def __init__(
        self,
        counts: list[int],
        ctx: WinContext,
        rules: RuleConfig,
        menzen: bool,
        no_melds: bool,
        kans: int,
    ) -> None:
        #: count per kind over the whole hand, a kan counted as three (its shape)
        self.counts = counts
        #: the kinds present, ascending
        self.kinds = kinds = tuple(compress(_KINDS, counts))
        present = frozenset(kinds)
        self.all_simple = present <= SIMPLES
        self.all_yaochuu = present <= YAOCHUU
        self.all_terminal = present <= TERMINALS
        self.all_green = present <= GREEN
        #: whether any honour is present
        self.honours = kinds[-1] >= 27
        #: how many of man, pin, sou are present
        self.suits = (
            (not present.isdisjoint(_MAN))
            + (not present.isdisjoint(_PIN))
            + (not present.isdisjoint(_SOU))
        )
        #: whether an honour kind forms a triplet or quad (yakuhai and its kin)
        self.honour_sets = max(counts[27:]) >= 3
        #: one suit, no honours, nothing called (chuuren's precondition)
        self.pure = no_melds and self.suits == 1 and not self.honours
        self.one_suit = self.suits == 1
        # situational gates: each situational yaku needs one of these up
        self.riichi_any = ctx.riichi or ctx.double_riichi
        self.ron_luck = ctx.chankan or ctx.houtei or ctx.renhou
        self.blessed = ctx.tenhou or ctx.chiihou
        self.ctx = ctx
        self.rules = rules
        self.menzen = menzen
        self.no_melds = no_melds
        self.kans = kans
        self.tsumo = ctx.tsumo
        self.seat_wind = ctx.seat_wind
        self.round_wind = ctx.round_wind
        self.dealer = ctx.seat_wind == 27
        self.win_kind = ctx.win_tile >> 2


class Shape:
    """One interpretation: the groups of a decomposition and how the winning tile fit in."""

    __slots__ = ("ankou", "form", "koutsu", "pair", "shuntsu", "wait")

    def __init__(
        self,
        form: int,
        pair: int,
        shuntsu: tuple[int, ...],
        koutsu: tuple[int, ...],
        ankou: int,
        wait: int,
    ) -> None:
        self.form = form
        #: kind of the pair (-1 for chiitoitsu and kokushi)
        self.pair = pair
        #: first kind of every sequence, open or closed, sorted
        self.shuntsu = shuntsu
        #: kind of every triplet or quad, open or closed, sorted
        self.koutsu = koutsu
        #: concealed triplets and quads (a triplet completed by ron is not one)
        self.ankou = ankou
        self.wait = wait
