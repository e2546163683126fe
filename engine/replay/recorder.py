"""Turn the engine's god-view events into the round records the log writers take.

A Recorder is an action center wrapper: it forwards inquiries to the center that decides
and keeps the god view of every event, so any game the engine plays can be written as
Tenhou JSON or mjai without a second account of the rules.
"""

from __future__ import annotations

from typing import Any

from engine.actions import ActionCenter, MultiPlayerInquiry
from engine.events import EventBase
from engine.game.events import (
    Agari,
    Call,
    Discard,
    DoraRevealed,
    Draw,
    GameEnded,
    Haipai,
    Kan,
    Kita,
    RoundStarted,
    Ryuukyoku,
    Win,
)
from engine.replay.record import LoggedWin, RoundEnd, RoundRecord, Step, StepKind, tenhou_kyoku
from engine.rules.kinds import HandEnd
from engine.rules.meld import MeldType

_MELD_STEPS = {
    MeldType.CHII: StepKind.CHII,
    MeldType.PON: StepKind.PON,
    MeldType.DAIMINKAN: StepKind.DAIMINKAN,
}
#: the engine's draw names under the record's
DRAW_KINDS = {HandEnd.EXHAUSTIVE: "ryuukyoku", HandEnd.NAGASHI: "nagashi_mangan"}


class Recorder:
    """Wraps ``inner`` (which still answers every inquiry) and records the god view."""

    wants_events = True

    def __init__(self, inner: ActionCenter, players: int = 4) -> None:
        self.inner = inner
        self.players = players
        self.rounds: list[RoundRecord] = []
        #: Tenhou's ``sc``: final points and results, when the match ended
        self.final: tuple[float, ...] = ()
        self._head: RoundStarted | None = None
        self._haipai: list[tuple[int, ...]] = []
        self._steps: list[Step] = []
        self._dora: list[int] = []

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.inner.on_inquiry(inquiry)

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if self.inner.wants_events:
            self.inner.on_event(seat, event)
        if seat is None:
            self._god(event)

    def _god(self, ev: Any) -> None:
        if isinstance(ev, RoundStarted):
            self._head = ev
            self._haipai = [()] * self.players
            self._steps = []
            self._dora = [ev.dora_indicator]
        elif isinstance(ev, Haipai):
            self._haipai[ev.seat] = tuple(ev.tiles or ())
        elif isinstance(ev, Draw):
            assert ev.tile is not None
            self._steps.append(Step(ev.seat, StepKind.DRAW, ev.tile, rinshan=ev.rinshan))
        elif isinstance(ev, Discard):
            step = Step(
                ev.seat, StepKind.DISCARD, ev.tile, riichi=ev.riichi, tsumogiri=ev.tsumogiri
            )
            self._steps.append(step)
        elif isinstance(ev, Call | Kan | Kita):
            self._steps.append(_meld_step(ev))
        elif isinstance(ev, DoraRevealed):
            self._dora.append(ev.indicator)
        elif isinstance(ev, Agari):
            wins = _wins(ev, self.players)
            self._close(RoundEnd(HandEnd.AGARI, tuple(ev.deltas), wins), ev.ura_indicators)
        elif isinstance(ev, Ryuukyoku):
            kind = DRAW_KINDS.get(ev.kind, ev.kind)
            tenpai = tuple(ev.tenpai) if kind == "ryuukyoku" else None
            self._close(RoundEnd(kind, tuple(ev.deltas), tenpai=tenpai), ())
        elif isinstance(ev, GameEnded):
            self.final = tuple(x for pair in zip(ev.scores, ev.points, strict=True) for x in pair)

    def _close(self, end: RoundEnd, ura: tuple[int, ...]) -> None:
        head = self._head
        assert head is not None
        self.rounds.append(
            RoundRecord(
                kyoku=tenhou_kyoku(head.kyoku, self.players),
                honba=head.honba,
                kyotaku=head.kyotaku,
                scores=tuple(head.scores),
                haipai=tuple(self._haipai),
                steps=tuple(self._steps),
                dora=tuple(self._dora),
                ura=tuple(ura),
                end=end,
            )
        )


def _meld_step(ev: Call | Kan | Kita) -> Step:
    meld = ev.meld
    assert meld is not None
    if meld.type == MeldType.ANKAN:
        return Step(ev.seat, StepKind.ANKAN, meld.tiles[-1], tuple(meld.tiles))
    if meld.type == MeldType.KAKAN:
        pon = tuple(t for t in meld.tiles if t != meld.added)
        return Step(ev.seat, StepKind.KAKAN, meld.added, pon)
    if meld.type == MeldType.KITA:
        return Step(ev.seat, StepKind.KITA, meld.tiles[0])
    own = tuple(t for t in meld.tiles if t != meld.called)
    return Step(ev.seat, _MELD_STEPS[meld.type], meld.called, own, meld.from_seat)


def _wins(ev: Agari, players: int) -> tuple[LoggedWin, ...]:
    """Each win with its own deltas, as Tenhou lists them: the first winner's are the total
    less the others' (it alone takes honba and sticks); a later winner's are its hand."""
    later = [_hand_deltas(w, players) for w in ev.wins[1:]]
    first = [d - sum(x[s] for x in later) for s, d in enumerate(ev.deltas)]
    return tuple(_win(w, tuple(d)) for w, d in zip(ev.wins, [first, *later], strict=True))


def _hand_deltas(w: Win, players: int) -> list[int]:
    """A ron's payment without bonuses (a later winner of a double ron); pao pays half."""
    deltas = [0] * players
    pay = w.result.ron
    deltas[w.seat] += pay
    if w.pao_seat >= 0 and w.pao_seat != w.from_seat:
        deltas[w.pao_seat] -= pay // 2
        deltas[w.from_seat] -= pay - pay // 2
    else:
        deltas[w.from_seat] -= pay
    return deltas


def _win(w: Win, deltas: tuple[int, ...]) -> LoggedWin:
    r = w.result
    tsumo = w.seat == w.from_seat
    if not tsumo:
        points: tuple[int, ...] = (r.ron,)
    elif r.tsumo_dealer:
        points = (r.tsumo_other, r.tsumo_dealer)
    else:
        points = (r.tsumo_other,)
    return LoggedWin(
        who=w.seat,
        from_seat=w.from_seat,
        pao=w.pao_seat,
        deltas=deltas,
        han=r.han,
        fu=r.fu,
        limit=r.limit,
        points=points,
        yaku=tuple((y.tenhou, y.han) for y in r.yaku),
    )
