"""Per-game, per-seat stats read from a finished game's record, summed per player.

The input is the engine's own record of a game (``engine.replay.record.GameRecord``, what
``engine.replay.export.record_game`` rebuilds from a stored game's seed and decisions), so any
player's stats can be recomputed from the records alone. A player's stats are the sum of
their games' ``SeatStats`` (``+``); the rates are derived, never stored.

What counts, per hand the seat played: a win (and whether by tsumo), a deal-in (the seat's
discard or kan won on; once per hand even when two players win on it), a riichi declared, a
call (any open meld: chii, pon or open kan), tenpai at an exhaustive draw. Values are a
hand's points without honba or riichi sticks (a tsumo: what all payers pay together).
"""

from __future__ import annotations

import msgspec

from engine.replay.record import CALLS, GameRecord, LoggedWin, RoundRecord, StepKind
from server.ladder.placement import placements


class SeatStats(msgspec.Struct, frozen=True):
    games: int = 0
    rounds: int = 0
    wins: int = 0
    tsumo: int = 0
    deal_ins: int = 0
    riichi: int = 0
    calls: int = 0
    #: exhaustive draws the seat played, and those it was tenpai at
    draws: int = 0
    draw_tenpai: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    first: int = 0
    second: int = 0
    third: int = 0
    fourth: int = 0

    def __add__(self, other: SeatStats) -> SeatStats:
        names = self.__struct_fields__
        return SeatStats(*(getattr(self, f) + getattr(other, f) for f in names))

    @property
    def placements(self) -> tuple[int, int, int, int]:
        return (self.first, self.second, self.third, self.fourth)

    @property
    def average_placement(self) -> float | None:
        weighted = sum(i * n for i, n in enumerate(self.placements, 1))
        return _ratio(weighted, self.games)

    @property
    def first_rate(self) -> float | None:
        return _ratio(self.first, self.games)

    def last_rate(self, players: int = 4) -> float | None:
        return _ratio(self.placements[players - 1], self.games)

    @property
    def win_rate(self) -> float | None:
        return _ratio(self.wins, self.rounds)

    @property
    def deal_in_rate(self) -> float | None:
        return _ratio(self.deal_ins, self.rounds)

    @property
    def riichi_rate(self) -> float | None:
        return _ratio(self.riichi, self.rounds)

    @property
    def call_rate(self) -> float | None:
        return _ratio(self.calls, self.rounds)

    @property
    def tsumo_rate(self) -> float | None:
        """Of the wins, the share by tsumo."""
        return _ratio(self.tsumo, self.wins)

    @property
    def average_win(self) -> float | None:
        return _ratio(self.win_points, self.wins)

    @property
    def average_deal_in(self) -> float | None:
        return _ratio(self.deal_in_points, self.deal_ins)

    @property
    def draw_tenpai_rate(self) -> float | None:
        return _ratio(self.draw_tenpai, self.draws)


#: the placement counters, 1st first
PLACES = ("first", "second", "third", "fourth")


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def hand_value(win: LoggedWin, dealer: int, players: int) -> int:
    """The hand's points without honba and sticks: the ron, or every payer's tsumo share."""
    points = win.points or ()
    if not points:
        raise ValueError("a win without points (a log that does not give them)")
    if not win.tsumo:
        return points[0]
    if win.who == dealer:
        return points[0] * (players - 1)
    return points[0] * (players - 2) + points[1]


def _round_stats(rnd: RoundRecord, seat: int, players: int) -> SeatStats:
    end = rnd.end
    won = [w for w in end.wins if w.who == seat]
    dealt = [w for w in end.wins if w.from_seat == seat and w.who != seat]
    steps = [s for s in rnd.steps if s.seat == seat]
    drawn = end.kind == "ryuukyoku"
    return SeatStats(
        rounds=1,
        wins=len(won),
        tsumo=sum(w.tsumo for w in won),
        deal_ins=1 if dealt else 0,
        riichi=int(any(s.kind == StepKind.DISCARD and s.riichi for s in steps)),
        calls=int(any(s.kind in CALLS for s in steps)),
        draws=int(drawn),
        draw_tenpai=int(drawn and seat in (end.tenpai or ())),
        win_points=sum(hand_value(w, rnd.dealer, players) for w in won),
        deal_in_points=sum(hand_value(w, rnd.dealer, players) for w in dealt),
    )


def final_placements(record: GameRecord) -> tuple[int, ...]:
    """Each seat's placement from the record's final scores, ties to the seat nearer the
    first dealer."""
    players = record.rules.players
    if not record.final or not record.rounds:
        raise ValueError("the record has no final scores: the game did not finish")
    scores = [int(x) for x in record.final[0::2]]
    first = record.rounds[0].dealer
    return placements(scores, [(first + i) % players for i in range(players)])


def game_stats(record: GameRecord) -> tuple[SeatStats, ...]:
    """Every seat's stats for one finished game."""
    players = record.rules.players
    places = final_placements(record)
    out = []
    for seat in range(players):
        total = SeatStats(games=1)
        for rnd in record.rounds:
            total = total + _round_stats(rnd, seat, players)
        out.append(total + SeatStats(**{PLACES[places[seat] - 1]: 1}))
    return tuple(out)
