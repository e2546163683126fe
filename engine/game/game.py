"""Game: the state of one match and the coroutine that plays it through the event queue.

Game is handed its setup (the listeners that play it, registered on its bus): it imports
neither engine.game.setup nor engine.view, which import it. ``engine.game.setup.new_game``
builds a Game with the setup its RuleConfig calls for; the setup's broadcast listener
projects events for the seats (engine.view), so the state here knows nothing of visibility.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any

from engine.actions import ActionCenter, Decision, MultiPlayerInquiry
from engine.events import EventBus, EventQueue
from engine.game.events import BeginGame, DoraRevealed, WaitPlayerAction
from engine.game.kyoku import Kyoku
from engine.game.player import Player
from engine.game.registry import Resolvers
from engine.game.results import RoundResult, RoundStart
from engine.rules.config import RuleConfig
from engine.rules.kinds import InquiryKind
from engine.rules.meld import MeldType
from engine.rules.scoring import WinContext
from engine.rules.scoring.points import placement_ranks
from engine.rules.tiles import WINDS
from engine.rules.wall import Wall, seeded_wall


class Game:
    """One match. ``await game.run()`` plays it; engine.driver runs that coroutine.

    ``setup`` registers the listeners on the game's bus (``engine.game.setup.setup_for``
    picks it; ``new_game`` does that for you)."""

    #: what ``release`` lets go of (compiled by mypyc, only these may be deleted)
    __deletable__ = ("queue", "bus", "resolvers", "center", "round", "inquiry", "walls")

    def __init__(
        self,
        rules: RuleConfig,
        seed: int | str | bytes,
        action_center: ActionCenter,
        *,
        setup: Callable[[EventBus, Resolvers, RuleConfig], None],
        start: RoundStart | None = None,
        walls: Callable[[int], Wall] | None = None,
        max_rounds: int | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.center = action_center
        self.walls = walls
        self.max_rounds = max_rounds
        self.n = rules.players
        self.bus = EventBus()
        #: what each answered inquiry leads to (engine.game.registry), filled by the setup
        self.resolvers = Resolvers()
        setup(self.bus, self.resolvers, rules)
        self.queue = EventQueue(self.bus, self)
        start = start or RoundStart(0, 0, 0, (rules.start_points,) * self.n)
        karaten = rules.karaten_melds
        self.players = [Player(s, start.scores[s], karaten) for s in range(self.n)]
        #: for each seat, the other seats in turn order after it: who may claim its discard
        self.others: tuple[tuple[Player, ...], ...] = tuple(
            tuple(self.players[(s + o) % self.n] for o in range(1, self.n)) for s in range(self.n)
        )
        self.kyoku = start.kyoku
        self.honba = start.honba
        self.kyotaku = start.kyotaku
        #: hands played so far in this game (the wall of hand i is seeded_wall(seed, i))
        self.round_index = 0
        #: the hand being played: replaced whole when a hand starts (engine.game.kyoku)
        self.round = Kyoku(scores=self.scores, kyotaku=self.kyotaku)
        self.inquiry: MultiPlayerInquiry | None = None
        #: the ids of this game's inquiries, 1 on: ``next(game.inquiry_ids)`` takes one (a claim
        #: moment nobody can claim takes one too); a counter in C, no Python call per turn
        self.inquiry_ids = count(1)
        self.decisions: list[Decision] = []
        self.rounds: list[RoundResult] = []
        self.over = False

    # ------------------------------------------------------------------ driving

    async def run(self) -> None:
        """Play the match to its end (or max_rounds hands)."""
        self.queue.queue(BeginGame(players=self.n, scores=self.scores))
        await self.queue.process()

    @property
    def dealer(self) -> int:
        return self.kyoku % self.n

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    @property
    def turn_seat(self) -> int:
        """The seat whose turn it is (the last drawer, caller or discarder)."""
        return self.round.turn

    @property
    def called_tile(self) -> int:
        """The last discard: the tile a claim inquiry is about."""
        return self.round.last_discard

    @property
    def wall(self) -> Wall:
        """This hand's wall (read-only here: a new hand brings a new Kyoku)."""
        return self.round.wall

    @property
    def dora_indicators(self) -> list[int]:
        """The dora indicators turned so far this hand."""
        return self.round.dora_indicators

    def drawn_tile(self, seat: int) -> int | None:
        """The tile ``seat`` just drew, None when it holds none (after a call)."""
        drawn = self.players[seat].drawn
        return drawn if drawn >= 0 else None

    def new_inquiry(self, kind: InquiryKind) -> MultiPlayerInquiry:
        return MultiPlayerInquiry(next(self.inquiry_ids), kind)

    def ask(self, inquiry: MultiPlayerInquiry) -> None:
        """Queue the wait for ``inquiry`` (its resolution queues the follow-ups)."""
        self.queue.queue(WaitPlayerAction(inquiry=inquiry))

    def present(self, inquiry: MultiPlayerInquiry) -> MultiPlayerInquiry:
        """Hand the inquiry to the action center; the queue awaits what we return."""
        self.inquiry = inquiry
        self.center.on_inquiry(inquiry)
        return inquiry

    def closed(self, inquiry: MultiPlayerInquiry) -> None:
        self.decisions.extend(inquiry.decisions)
        self.inquiry = None

    # ------------------------------------------------------------------ state helpers

    def reveal_dora(self) -> None:
        """Turn the next indicator and tell everyone."""
        hand = self.round
        indicator = hand.wall.dora[len(hand.dora_indicators)]
        hand.dora_indicators.append(indicator)
        self.queue.queue(DoraRevealed(indicator=indicator))

    def flush_pending_dora(self) -> None:
        hand = self.round
        while hand.pending_dora:
            hand.pending_dora -= 1
            self.reveal_dora()

    def seat_wind(self, seat: int) -> int:
        return WINDS[(seat - self.dealer) % self.n]

    @property
    def round_wind(self) -> int:
        return WINDS[(self.kyoku // self.n) % 4]

    def haitei(self, seat: int) -> bool:
        """A tsumo by ``seat`` now is on the wall's last tile: haitei, unless it is a rinshan
        draw (that scores haitei only with ``rules.rinshan_haitei``)."""
        rinshan = self.players[seat].rinshan
        return self.round.wall.remaining == 0 and (not rinshan or self.rules.rinshan_haitei)

    def context(self, seat: int, tile: int, tsumo: bool, **flags: Any) -> WinContext:
        """The WinContext of ``seat`` winning on ``tile`` now."""
        p = self.players[seat]
        hand = self.round
        uninterrupted = p.first_turn and not hand.any_call
        first = uninterrupted and tsumo
        return WinContext(
            win_tile=tile,
            tsumo=tsumo,
            seat_wind=self.seat_wind(seat),
            round_wind=self.round_wind,
            riichi=p.riichi,
            double_riichi=p.double_riichi,
            ippatsu=p.ippatsu,
            tenhou=first and seat == self.dealer,
            chiihou=first and seat != self.dealer,
            # a ron before the winner's first draw, nobody having called (scored only
            # when rules.renhou)
            renhou=uninterrupted and not tsumo and seat != self.dealer,
            dora_indicators=tuple(hand.dora_indicators),
            ura_indicators=tuple(hand.wall.ura[: len(hand.dora_indicators)]) if p.riichi else (),
            kita=sum(1 for m in p.melds if m.type == MeldType.KITA),
            **flags,
        )

    def wall_for(self, round_index: int) -> Wall:
        """A fresh wall for hand ``round_index``: a ``walls`` callable's wall is copied, as
        play consumes it and the callable may hand out the same object again (export)."""
        if self.walls is not None:
            return self.walls(round_index).copy()
        return seeded_wall(self.seed, round_index, self.rules.sanma)

    def release(self) -> None:
        """Let go of a finished match's machinery: its queue, the events in it and its center
        point back at the game, so without this its tens of thousands of objects wait for the
        cyclic collector (a server sweeps rarely: server/runtime/heap.py). What it decided stays:
        ``rules``, ``seed``, ``players`` (``scores``), ``decisions``, ``rounds``, ``over``."""
        del self.queue, self.bus, self.resolvers, self.center, self.round, self.inquiry
        del self.walls

    def ranks(self) -> list[int]:
        """Rank 1..n of each seat; ties go to the earlier starting seat (Tenhou)."""
        return placement_ranks(self.scores)
