"""One seat's observation planes, written from its SeatView alone into a float32 buffer.

The writer is given a ``SeatView`` (own hand and the public table, engine/bot/view.py) and
the decision's context (the tile a claim is about, the discard a riichi would go with: public
or the seat's own), never the Game: what another seat holds or the wall cannot reach it.
(engine/bot/seen.py's compiled ``seat_view`` builds that SeatView.) It keeps the seat's
planes between calls and writes only what changed since that seat's last view (a river grows
by a tile or two between two of its decisions); a new hand clears them. The buffer is a
plain ``array("f")`` so this module needs no numpy and mypyc compiles it with the engine's
hot modules (engine/native.py); engine/env/observation.py lays a numpy array over the same
memory. docs/env.md has the layout table; ``layout(players)`` gives it as data.

Seats in the planes are relative: block 0 is the observing seat, 1 its shimocha (next in
turn order), and so on.
"""

from __future__ import annotations

from array import array
from typing import Final

from engine.bot.view import SeatView
from engine.rules.config import RuleConfig
from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import NUM_KINDS, dora_of

K: Final = NUM_KINDS
#: own planes: hand counts >= 1..4, the drawn tile, the red fives held
HAND: Final = 0
DRAWN: Final = 4
RED_HELD: Final = 5
OWN_PLANES: Final = 6
#: planes per seat block: river counts >= 1..4, meld counts >= 1..4, the riichi tile, the
#: last discard, the red fives shown (discarded or melded)
RIVER: Final = 0
MELDS: Final = 4
RIICHI_TILE: Final = 8
LAST_DISCARD: Final = 9
RED_SHOWN: Final = 10
SEAT_PLANES: Final = 11
#: table planes after the seat blocks: dora indicators (count), dora (count), the decision's
#: subject tile, the scalar row
INDICATORS: Final = 0
DORA: Final = 1
SUBJECT: Final = 2
SCALARS: Final = 3
TABLE_PLANES: Final = 4
#: the scalar row's columns
STEP_KIND: Final = 0  # 0..4: one-hot turn, response, riichi, kan, declaration
ROUND_WIND: Final = 5  # 5..8: East, South, West, North
SEAT_WIND: Final = 9  # 9..12
DEALER: Final = 13  # 13..16: the dealer's relative seat
IN_RIICHI: Final = 17  # 17..20: per relative seat
SCORE: Final = 21  # 21..24: per relative seat, points / 100,000, at least 0
KITA_COUNT: Final = 25  # 25..28: per relative seat, kita / 4
HONBA: Final = 29  # min(honba, 10) / 10
KYOTAKU: Final = 30  # min(riichi sticks, 10) / 10
REMAINING: Final = 31  # ordinary draws left / 70
PROGRESS: Final = 32  # kyoku / (4 x players), at most 1
SUBJECT_RED: Final = 33  # the subject tile is a red five
#: every value lies in [0, HIGH]
HIGH: Final = 5.0
#: step kinds as MahjongEnv.step_kind names them, in the scalar row's order
STEP_KINDS: Final = ("turn", "response", "riichi", "kan", "declaration")
#: the kinds of the three fives (5m, 5p, 5s): where a red five is marked
RED_KINDS: Final = (4, 13, 22)
#: a step kind's column in the scalar row's one-hot, from its name
_KIND_COLUMN: Final = {kind: i for i, kind in enumerate(STEP_KINDS)}


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


class PlaneWriter:
    """One seat's planes in ``buffer`` (row-major, ``shape``), kept current from the
    SeatViews it is shown."""

    def __init__(self, rules: RuleConfig, seat: int) -> None:
        n = rules.players
        self.n = n
        self.seat = seat
        self.sanma = rules.sanma
        self.red: frozenset[int] = rules.red
        self.shape = (planes(n), K)
        size = planes(n) * K
        self.buffer = array("f", bytes(4 * size))
        self._zeros = array("f", bytes(4 * size))
        self._table = (OWN_PLANES + SEAT_PLANES * n) * K
        self._scalars = self._table + SCALARS * K
        #: absolute seat of each relative one
        self._abs = [(seat + r) % n for r in range(n)]
        self._kyoku = -1
        self._honba = -1
        self._hand_tiles: tuple[int, ...] = ()
        self._hand_counts = [0] * K
        self._red_counts = [0] * K
        self._drawn = -1
        self._river_len = [0] * n
        self._river_counts = [[0] * K for _ in range(n)]
        self._river_red: list[set[int]] = [set() for _ in range(n)]
        self._last = [-1] * n
        self._melds: list[tuple[Meld, ...]] = [() for _ in range(n)]
        self._riichi = [-1] * n
        self._indicators = 0
        self._scores: tuple[int, ...] = ()
        self._kyotaku = -1
        self._subject = -1
        self._kind = -1

    def _new_hand(self, view: SeatView) -> None:
        """Forget everything: a new hand (or the first view) writes the planes afresh."""
        n = self.n
        self.buffer[:] = self._zeros
        self._hand_tiles = ()
        self._hand_counts = [0] * K
        self._red_counts = [0] * K
        self._drawn = -1
        self._river_len = [0] * n
        self._river_counts = [[0] * K for _ in range(n)]
        self._river_red = [set() for _ in range(n)]
        self._last = [-1] * n
        self._melds = [() for _ in range(n)]
        self._riichi = [-1] * n
        self._indicators = 0
        self._scores = ()
        self._kyotaku = -1
        self._subject = -1
        self._kind = -1
        self._kyoku = view.kyoku
        self._honba = view.honba
        at = self._scalars
        buf = self.buffer
        buf[at + ROUND_WIND + view.round_wind - 27] = 1.0
        buf[at + SEAT_WIND + view.seat_wind - 27] = 1.0
        buf[at + DEALER + (view.dealer - self.seat) % n] = 1.0
        buf[at + HONBA] = min(view.honba, 10) / 10
        buf[at + PROGRESS] = min(view.kyoku / (4 * n), 1.0)

    def update(self, view: SeatView, subject: int = -1, kind: str = "") -> None:
        """Bring the planes to ``view`` (this seat's), with ``subject`` (a physical tile, -1
        for none) and ``kind`` (a MahjongEnv step kind, "" when the seat is not to act)."""
        rivers = view.rivers
        seats = self._abs
        n = self.n
        if view.kyoku != self._kyoku or view.honba != self._honba:
            self._new_hand(view)
        else:
            lengths = self._river_len
            for r in range(n):
                if len(rivers[seats[r]]) < lengths[r]:
                    self._new_hand(view)  # not this hand's river: start over
                    break
        hand = view.hand
        if hand != self._hand_tiles:
            self._own(hand)
        drawn = view.drawn if view.drawn is not None else -1
        if drawn != self._drawn:
            self._drawn_tile(drawn)
        melds = view.melds
        riichi = view.riichi
        lengths = self._river_len
        own_melds = self._melds
        own_riichi = self._riichi
        for r in range(n):
            s = seats[r]
            river = rivers[s]
            if len(river) != lengths[r]:
                self._river(r, river)
            seat_melds = melds[s]
            if seat_melds is not own_melds[r] and seat_melds != own_melds[r]:
                self._meld(r, seat_melds)
            if riichi[s] != own_riichi[r]:
                self._riichi_tile(r, riichi[s], river)
        if len(view.dora_indicators) != self._indicators:
            self._dora(view.dora_indicators)
        scores = view.scores
        if scores != self._scores or view.kyotaku != self._kyotaku:
            self._points(scores, view.kyotaku)
        self._decision(view.remaining, subject, kind)

    # -- the pieces ---------------------------------------------------------------------
    def _own(self, hand: tuple[int, ...]) -> None:
        """The hand planes, from the tiles that went and came since the last view: each
        moves one threshold cell of its kind (and the red five cell, for a red one). One
        walk over both hands, no sets: an old tile that is not next in the new hand went,
        the new tiles past the walk came. The engine keeps a hand's order (a draw appends,
        a discard leaves a gap), so that is the real change; any other order still gives
        the right counts (a tile that goes and comes back nets zero)."""
        buf = self.buffer
        counts = self._hand_counts
        reds = self._red_counts
        red = self.red
        old = self._hand_tiles
        size = len(hand)
        j = 0
        for t in old:
            if j < size and hand[j] == t:
                j += 1
                continue
            k = t >> 2
            c = counts[k] - 1
            counts[k] = c
            if c < 4:
                buf[(HAND + c) * K + k] = 0.0
            if t in red:
                reds[k] -= 1
                if reds[k] == 0:
                    buf[RED_HELD * K + k] = 0.0
        for i in range(j, size):
            t = hand[i]
            k = t >> 2
            c = counts[k]
            counts[k] = c + 1
            if c < 4:
                buf[(HAND + c) * K + k] = 1.0
            if t in red:
                reds[k] += 1
                buf[RED_HELD * K + k] = 1.0
        self._hand_tiles = hand

    def _drawn_tile(self, drawn: int) -> None:
        buf = self.buffer
        if self._drawn >= 0:
            buf[DRAWN * K + (self._drawn >> 2)] = 0.0
        if drawn >= 0:
            buf[DRAWN * K + (drawn >> 2)] = 1.0
        self._drawn = drawn

    def _river(self, r: int, river: tuple[int, ...]) -> None:
        buf = self.buffer
        base = (OWN_PLANES + SEAT_PLANES * r) * K
        counts = self._river_counts[r]
        red = self.red
        size = len(river)
        for i in range(self._river_len[r], size):
            t = river[i]
            k = t >> 2
            c = counts[k]
            if c < 4:
                buf[base + (RIVER + c) * K + k] = 1.0
            counts[k] = c + 1
            if t in red:
                self._river_red[r].add(k)
                buf[base + RED_SHOWN * K + k] = 1.0
        self._river_len[r] = size
        last = river[size - 1] >> 2
        before = self._last[r]
        if before != last:
            if before >= 0:
                buf[base + LAST_DISCARD * K + before] = 0.0
            buf[base + LAST_DISCARD * K + last] = 1.0
            self._last[r] = last

    def _meld(self, r: int, melds: tuple[Meld, ...]) -> None:
        """Rewrite seat ``r``'s meld planes (melds change seldom: a call, a kan, a kita)."""
        buf = self.buffer
        base = (OWN_PLANES + SEAT_PLANES * r) * K
        start = base + MELDS * K
        buf[start : start + 4 * K] = self._zeros[: 4 * K]
        counts = [0] * K
        shown = set(self._river_red[r])
        kita = 0
        for m in melds:
            if m.type == MeldType.KITA:
                kita += 1
                continue
            for t in m.tiles:
                k = t >> 2
                c = counts[k]
                if c < 4:
                    buf[start + c * K + k] = 1.0
                counts[k] = c + 1
                if t in self.red:
                    shown.add(k)
        for kind in RED_KINDS:
            buf[base + RED_SHOWN * K + kind] = 1.0 if kind in shown else 0.0
        buf[self._scalars + KITA_COUNT + r] = kita / 4
        self._melds[r] = melds

    def _riichi_tile(self, r: int, index: int, river: tuple[int, ...]) -> None:
        buf = self.buffer
        start = (OWN_PLANES + SEAT_PLANES * r + RIICHI_TILE) * K
        buf[start : start + K] = self._zeros[:K]
        if index >= 0:
            buf[start + (river[index] >> 2)] = 1.0
        buf[self._scalars + IN_RIICHI + r] = 1.0 if index >= 0 else 0.0
        self._riichi[r] = index

    def _dora(self, indicators: tuple[int, ...]) -> None:
        buf = self.buffer
        at = self._table + INDICATORS * K
        dora = self._table + DORA * K
        buf[at : at + 2 * K] = self._zeros[: 2 * K]
        for t in indicators:
            k = t >> 2
            buf[at + k] += 1.0
            buf[dora + dora_of(k, self.sanma)] += 1.0
        self._indicators = len(indicators)

    def _points(self, scores: tuple[int, ...], kyotaku: int) -> None:
        buf = self.buffer
        at = self._scalars
        for r in range(self.n):
            buf[at + SCORE + r] = max(scores[self._abs[r]], 0) / 100_000
        buf[at + KYOTAKU] = min(kyotaku, 10) / 10
        self._scores = scores
        self._kyotaku = kyotaku

    def _decision(self, remaining: int, subject: int, kind: str) -> None:
        """The cells every view changes: the step kind, the subject tile, the wall left."""
        buf = self.buffer
        at = self._scalars
        step = _KIND_COLUMN[kind] if kind else -1
        if step != self._kind:
            if self._kind >= 0:
                buf[at + STEP_KIND + self._kind] = 0.0
            if step >= 0:
                buf[at + STEP_KIND + step] = 1.0
            self._kind = step
        if subject != self._subject:
            plane = self._table + SUBJECT * K
            if self._subject >= 0:
                buf[plane + (self._subject >> 2)] = 0.0
            if subject >= 0:
                buf[plane + (subject >> 2)] = 1.0
            buf[at + SUBJECT_RED] = 1.0 if subject in self.red else 0.0
            self._subject = subject
        buf[at + REMAINING] = remaining / 70
