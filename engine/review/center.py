"""The action center of a review: it stops at each of the reviewed seat's decisions.

It wraps the center that replays the game (the stored decisions, or a log's moves): before
that center answers an inquiry that gives the seat a real choice, the reviewer is asked
about it from the seat's own view, then the answer the game took is read back and graded.
It keeps the seat's own event stream (what an mjai reviewer is fed) and counts the
god-view events, so each entry says where in the replay viewer's stream it sits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.actions import ActionCenter, MultiPlayerInquiry, SinglePlayerInquiry
from engine.bot.mjai_host import SeatStream
from engine.bot.seen import seat_view
from engine.events import EventBase
from engine.game import events as ev
from engine.replay.record import tenhou_kyoku
from engine.review.moment import Moment, Reviewer
from engine.review.report import KyokuReview, make_entry
from engine.rules.config import RuleConfig

if TYPE_CHECKING:
    from engine.game.game import Game


def has_choice(single: SinglePlayerInquiry) -> bool:
    """More than one thing to do (a lone acknowledgement or forced move is no decision)."""
    return len(single.actions) > 1 or any(len(a.options) > 1 for a in single.actions)


def _tile_of(e: ev.Call | ev.Kan | ev.Kita) -> int:
    """The tile a call took, a kakan added or a kita set aside (-1: an ankan)."""
    meld = e.meld
    if meld is None:
        return -1
    if isinstance(e, ev.Call):
        return meld.called
    return meld.added if isinstance(e, ev.Kan) else meld.tiles[0]


class ReviewCenter:
    """See the module docstring. ``inner`` answers; set ``game`` (or give an inner with a
    ``game``, as engine.replay's LogCenter has) before the game runs."""

    wants_events = True

    def __init__(
        self, seat: int, reviewer: Reviewer, rules: RuleConfig, names: tuple[str, ...] = ()
    ) -> None:
        self.seat = seat
        self.reviewer = reviewer
        self.rules = rules
        self.inner: ActionCenter | None = None
        self.game: Game | None = None
        #: the seat's own events since the game began
        self.events: list[Any] = []
        #: god-view events so far, numbered as the replay viewer's stream is
        self.god = 0
        #: a logged game is played one round per engine game: its streams keep one BeginGame
        #: and no GameEnded before the last round (engine.replay.godview)
        self.per_round = False
        self.kyokus: list[KyokuReview] = []
        self.skipped = 0
        self.last_actor = -1
        self.tile = -1
        self.junme = 0
        self._ends = SeatStream(seat, rules, names)
        #: called with the number of hands begun so far, as each begins (a server's progress)
        self.on_hand: Callable[[int], None] | None = None

    # ------------------------------------------------------------ events

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if seat == self.seat:
            self.events.append(event)
            self._track(event)
        elif seat is None:
            skipped = (ev.BeginGame, ev.GameEnded) if self.per_round else ()
            if not isinstance(event, skipped):
                self.god += 1
        inner = self.inner
        if inner is not None and inner.wants_events:
            inner.on_event(seat, event)

    def _track(self, e: Any) -> None:
        """Who acted last with which tile, the seat's junme, each hand's start and end."""
        me = self.seat
        if isinstance(e, ev.RoundStarted):
            n = self.rules.players
            scores = list(e.scores[me:]) + list(e.scores[:me])
            kyoku = tenhou_kyoku(e.kyoku, n)
            self.kyokus.append(
                KyokuReview(
                    kyoku=kyoku, honba=e.honba, end_status=[], relative_scores=scores, entries=[]
                )
            )
            self.junme, self.last_actor, self.tile = 0, -1, -1
            if self.on_hand is not None:
                self.on_hand(len(self.kyokus))
        elif isinstance(e, ev.Draw):
            self.junme += e.seat == me
            self.last_actor, self.tile = e.seat, -1 if e.tile is None else e.tile
        elif isinstance(e, ev.Discard):
            self.last_actor, self.tile = e.seat, e.tile
        elif isinstance(e, (ev.Call, ev.Kan, ev.Kita)):
            self.junme += isinstance(e, ev.Call) and e.seat == me
            self.last_actor, self.tile = e.seat, _tile_of(e)
        if isinstance(e, (ev.Agari, ev.Ryuukyoku)) and self.kyokus:
            ends = [m for m in self._ends.feed(e) if m["type"] in ("hora", "ryukyoku")]
            self.kyokus[-1].end_status.extend(ends)

    # ------------------------------------------------------------ decisions

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        assert self.inner is not None, "set the replaying center first"
        single = inquiry.players.get(self.seat)
        game = self.game if self.game is not None else getattr(self.inner, "game", None)
        moment = None
        if single is not None and game is not None and has_choice(single):
            moment = Moment(
                seat=self.seat,
                kind=inquiry.kind,
                inquiry=single,
                view=seat_view(game, self.seat),
                events=tuple(self.events),
                last_actor=self.last_actor,
                tile=self.tile,
                junme=self.junme,
            )
            valued = self.reviewer.values(moment)
        self.inner.on_inquiry(inquiry)
        if moment is None or single is None:
            return
        actual = single.answer
        if actual is None and not inquiry.done:
            actual = single.default()  # the replay fills a time-out with the default
        if actual is None:
            return  # another seat's higher call ended the question first
        entry = make_entry(moment, valued, actual, self.reviewer, (inquiry.id, self.god))
        if entry is None or not self.kyokus:
            self.skipped += 1
        else:
            self.kyokus[-1].entries.append(entry)
