"""One seat's observation: a fixed-shape float32 array built from its SeatView alone.

The encoder is given a ``SeatView`` (own hand and the public table, engine/bot/view.py) and
the decision's context (the tile a claim is about, the discard a riichi would go with: public
or the seat's own), never the Game: what another seat holds or the wall cannot reach it.
It keeps the seat's array between calls and writes only what changed since that seat's
last view (a river grows by a tile or two between two of its decisions), so an observation
costs a few microseconds instead of a rebuild; a new hand clears it. docs/env.md has the
layout table; ``layout(players)`` gives it as data.

Seats in the array are relative: block 0 is the observing seat, 1 its shimocha (next in turn
order), and so on.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from engine.bot.view import SeatView
from engine.rules.config import RuleConfig
from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import NUM_KINDS, dora_of

K = NUM_KINDS
#: own planes: hand counts >= 1..4, the drawn tile, the red fives held
HAND, DRAWN, RED_HELD, OWN_PLANES = 0, 4, 5, 6
#: planes per seat block: river counts >= 1..4, meld counts >= 1..4, the riichi tile, the
#: last discard, the red fives shown (discarded or melded)
RIVER, MELDS, RIICHI_TILE, LAST_DISCARD, RED_SHOWN, SEAT_PLANES = 0, 4, 8, 9, 10, 11
#: table planes after the seat blocks: dora indicators (count), dora (count), the decision's
#: subject tile, the scalar row
INDICATORS, DORA, SUBJECT, SCALARS, TABLE_PLANES = 0, 1, 2, 3, 4
#: the scalar row's columns
STEP_KIND = 0  # 0..4: one-hot turn, response, riichi, kan, declaration
ROUND_WIND = 5  # 5..8: East, South, West, North
SEAT_WIND = 9  # 9..12
DEALER = 13  # 13..16: the dealer's relative seat
IN_RIICHI = 17  # 17..20: per relative seat
SCORE = 21  # 21..24: per relative seat, points / 100,000, at least 0
KITA_COUNT = 25  # 25..28: per relative seat, kita / 4
HONBA, KYOTAKU, REMAINING, PROGRESS, SUBJECT_RED = 29, 30, 31, 32, 33
#: every value lies in [0, HIGH]
HIGH = 5.0
#: step kinds as MahjongEnv.step_kind names them, in the scalar row's order
STEP_KINDS = ("turn", "response", "riichi", "kan", "declaration")
#: the kind of each red five's discard index (34, 35, 36) and of the suits' fives
RED_KINDS = (4, 13, 22)


def planes(players: int) -> int:
    """How many 34-wide planes the observation has at a table of ``players``."""
    return OWN_PLANES + SEAT_PLANES * players + TABLE_PLANES


def layout(players: int) -> list[tuple[int, str]]:
    """(first plane, what it holds) for every plane group, in order: docs/env.md's table."""
    rows = [
        (HAND, "own concealed tiles (drawn one included): count >= 1, 2, 3, 4"),
        (DRAWN, "own drawn tile"),
        (RED_HELD, "own red fives (at the five's column)"),
    ]
    for r in range(players):
        base = OWN_PLANES + SEAT_PLANES * r
        who = "own" if r == 0 else f"relative seat {r}"
        rows += [
            (base + RIVER, f"{who}: river (called tiles too): count >= 1..4"),
            (base + MELDS, f"{who}: tiles in melds (kita not): count >= 1..4"),
            (base + RIICHI_TILE, f"{who}: riichi declaring discard"),
            (base + LAST_DISCARD, f"{who}: last discard"),
            (base + RED_SHOWN, f"{who}: red fives shown (river or melds)"),
        ]
    table = OWN_PLANES + SEAT_PLANES * players
    rows += [
        (table + INDICATORS, "dora indicators (count per kind)"),
        (table + DORA, "dora (count per kind)"),
        (table + SUBJECT, "the decision's tile: the claimed tile, or the riichi discard"),
        (table + SCALARS, "scalar row (see the column table)"),
    ]
    return rows


class Encoder:
    """One seat's observation array, kept current from the SeatViews it is shown."""

    def __init__(self, rules: RuleConfig, seat: int) -> None:
        self.n = n = rules.players
        self.seat = seat
        self.sanma = rules.sanma
        self.red = rules.red
        self.shape = (planes(n), K)
        self.array: NDArray[np.float32] = np.zeros(self.shape, np.float32)
        self._flat = self.array.reshape(-1)
        self._table = (OWN_PLANES + SEAT_PLANES * n) * K
        #: absolute seat of each relative one
        self._abs = tuple((seat + r) % n for r in range(n))
        self._new_hand(None)

    def _new_hand(self, view: SeatView | None) -> None:
        """Forget everything: a new hand (or the first view) writes the array afresh."""
        self._flat.fill(0.0)
        n = self.n
        self._kyoku, self._honba = -1, -1
        self._hand: tuple[int, ...] = ()
        self._drawn: int | None = None
        self._river_len = [0] * n
        self._river_counts = [[0] * K for _ in range(n)]
        self._river_red: list[set[int]] = [set() for _ in range(n)]
        self._last = [-1] * n
        self._melds: list[tuple[Meld, ...]] = [()] * n
        self._riichi = [-1] * n
        self._indicators = 0
        self._scores: tuple[int, ...] = ()
        self._kyotaku = -1
        self._subject = -1
        self._kind = -1
        if view is not None:
            self._hand_scalars(view)

    def update(self, view: SeatView, subject: int = -1, kind: str = "") -> NDArray[np.float32]:
        """The array for ``view`` (this seat's), with ``subject`` (a physical tile, -1 for
        none) and ``kind`` (a MahjongEnv step kind, "" when the seat is not to act). The
        array is the encoder's own, overwritten by the next call: copy it to keep it."""
        if view.kyoku != self._kyoku or view.honba != self._honba:
            self._new_hand(view)
        if view.hand != self._hand or view.drawn != self._drawn:
            self._own(view)
        rivers, melds, riichi = view.rivers, view.melds, view.riichi
        lengths = self._river_len
        for r, s in enumerate(self._abs):
            river = rivers[s]
            if len(river) != lengths[r]:
                if len(river) < lengths[r]:  # not this hand's river: start over
                    self._new_hand(view)
                    return self.update(view, subject, kind)
                self._river(r, river)
            if melds[s] != self._melds[r]:
                self._meld(r, melds[s])
            if riichi[s] != self._riichi[r]:
                self._riichi_tile(r, riichi[s], river)
        if len(view.dora_indicators) != self._indicators:
            self._dora(view)
        if view.scores != self._scores or view.kyotaku != self._kyotaku:
            self._points(view)
        self._decision(view, subject, kind)
        return self.array

    # -- the pieces ---------------------------------------------------------------------
    def _own(self, view: SeatView) -> None:
        flat = self._flat
        counts = [0] * K
        for t in view.hand:
            counts[t >> 2] += 1
        for k in {t >> 2 for t in set(view.hand).symmetric_difference(self._hand)}:
            c = counts[k]
            for level in range(4):
                flat[(HAND + level) * K + k] = 1.0 if c > level else 0.0
        red = self.red
        held = [t >> 2 for t in view.hand if t in red]
        for kind in RED_KINDS:
            flat[RED_HELD * K + kind] = 1.0 if kind in held else 0.0
        self._hand = view.hand
        if self._drawn is not None:
            flat[DRAWN * K + (self._drawn >> 2)] = 0.0
        if view.drawn is not None:
            flat[DRAWN * K + (view.drawn >> 2)] = 1.0
        self._drawn = view.drawn

    def _river(self, r: int, river: tuple[int, ...]) -> None:
        flat = self._flat
        base = (OWN_PLANES + SEAT_PLANES * r) * K
        counts = self._river_counts[r]
        red = self.red
        for t in river[self._river_len[r] :]:
            k = t >> 2
            c = counts[k]
            if c < 4:
                flat[base + (RIVER + c) * K + k] = 1.0
            counts[k] = c + 1
            if t in red:
                self._river_red[r].add(k)
                flat[base + RED_SHOWN * K + k] = 1.0
        self._river_len[r] = len(river)
        last = river[-1] >> 2
        if self._last[r] >= 0:
            flat[base + LAST_DISCARD * K + self._last[r]] = 0.0
        flat[base + LAST_DISCARD * K + last] = 1.0
        self._last[r] = last

    def _meld(self, r: int, melds: tuple[Meld, ...]) -> None:
        """Rewrite seat ``r``'s meld planes (melds change seldom: a call, a kan, a kita)."""
        flat = self._flat
        base = (OWN_PLANES + SEAT_PLANES * r) * K
        flat[base + MELDS * K : base + (MELDS + 4) * K] = 0.0
        counts = [0] * K
        shown = set(self._river_red[r])
        red = self.red
        kita = 0
        for m in melds:
            if m.type == MeldType.KITA:
                kita += 1
                continue
            for t in m.tiles:
                counts[t >> 2] += 1
                if t in red:
                    shown.add(t >> 2)
        for k, c in enumerate(counts):
            for level in range(min(c, 4)):
                flat[base + (MELDS + level) * K + k] = 1.0
        for kind in RED_KINDS:
            flat[base + RED_SHOWN * K + kind] = 1.0 if kind in shown else 0.0
        flat[self._table + SCALARS * K + KITA_COUNT + r] = kita / 4
        self._melds[r] = melds

    def _riichi_tile(self, r: int, index: int, river: tuple[int, ...]) -> None:
        flat = self._flat
        base = (OWN_PLANES + SEAT_PLANES * r) * K
        flat[base + RIICHI_TILE * K : base + (RIICHI_TILE + 1) * K] = 0.0
        if index >= 0:
            flat[base + RIICHI_TILE * K + (river[index] >> 2)] = 1.0
        flat[self._table + SCALARS * K + IN_RIICHI + r] = 1.0 if index >= 0 else 0.0
        self._riichi[r] = index

    def _dora(self, view: SeatView) -> None:
        flat = self._flat
        table = self._table
        flat[table + INDICATORS * K : table + (DORA + 1) * K] = 0.0
        for t in view.dora_indicators:
            k = t >> 2
            flat[table + INDICATORS * K + k] += 1.0
            flat[table + DORA * K + dora_of(k, self.sanma)] += 1.0
        self._indicators = len(view.dora_indicators)

    def _hand_scalars(self, view: SeatView) -> None:
        """The scalar cells fixed for a hand: winds, dealer, honba, how far the match is."""
        self._kyoku, self._honba = view.kyoku, view.honba
        n = self.n
        at = self._table + SCALARS * K
        flat = self._flat
        flat[at + ROUND_WIND + view.round_wind - 27] = 1.0
        flat[at + SEAT_WIND + view.seat_wind - 27] = 1.0
        flat[at + DEALER + (view.dealer - self.seat) % n] = 1.0
        flat[at + HONBA] = min(view.honba, 10) / 10
        flat[at + PROGRESS] = min(view.kyoku / (4 * n), 1.0)

    def _points(self, view: SeatView) -> None:
        at = self._table + SCALARS * K
        flat = self._flat
        scores = view.scores
        for r, s in enumerate(self._abs):
            flat[at + SCORE + r] = max(scores[s], 0) / 100_000
        flat[at + KYOTAKU] = min(view.kyotaku, 10) / 10
        self._scores, self._kyotaku = scores, view.kyotaku

    def _decision(self, view: SeatView, subject: int, kind: str) -> None:
        """The cells every view changes: the step kind, the subject tile, the wall left."""
        flat = self._flat
        at = self._table + SCALARS * K
        step = STEP_KINDS.index(kind) if kind else -1
        if step != self._kind:
            if self._kind >= 0:
                flat[at + STEP_KIND + self._kind] = 0.0
            if step >= 0:
                flat[at + STEP_KIND + step] = 1.0
            self._kind = step
        if subject != self._subject:
            plane = self._table + SUBJECT * K
            if self._subject >= 0:
                flat[plane + (self._subject >> 2)] = 0.0
            if subject >= 0:
                flat[plane + (subject >> 2)] = 1.0
            flat[at + SUBJECT_RED] = 1.0 if subject in self.red else 0.0
            self._subject = subject
        flat[at + REMAINING] = view.remaining / 70
