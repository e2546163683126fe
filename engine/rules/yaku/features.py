"""The small feature records every yaku condition reads.

Scoring builds one ``HandInfo`` per call (what does not depend on how the hand is split: the
tile set, the melds, the situation) and one ``Shape`` per interpretation (a decomposition plus
where the winning tile sits in it). Yaku are then plain predicates over the two, so a
condition reads like the rule book and costs a few attribute lookups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules.config import RuleConfig
    from engine.rules.scoring import WinContext

# hand forms
STANDARD, CHIITOITSU, KOKUSHI = 0, 1, 2
# waits: how the winning tile completed its group
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = range(5)


class HandInfo:
    """What is fixed for one winning hand, whatever its decomposition."""

    __slots__ = (
        "counts",
        "ctx",
        "dealer",
        "kans",
        "kinds",
        "menzen",
        "no_melds",
        "round_wind",
        "rules",
        "seat_wind",
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
        self.kinds = tuple(k for k in range(34) if counts[k])
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
