"""A tiny stand-in engine with the real inquiry objects: draws, discards, a pon chance and
the next-round acknowledgement, so table logic (clocks, answers, snapshots, spectators) is
tested apart from the rules."""

from __future__ import annotations

from typing import Any

import anyio
import msgspec

from engine.actions.center import ActionCenter
from engine.actions.inquiry import MultiPlayerInquiry, SinglePlayerInquiry
from engine.actions.types import Action, ActionType, Option
from engine.bot.view import SeatView
from engine.review.moment import Moment
from engine.rules.config import RuleConfig
from engine.rules.kinds import InquiryKind
from engine.rules.wall import shuffled_tiles


class RoundStarted(msgspec.Struct, tag=True):
    round_index: int


class Haipai(msgspec.Struct, tag=True):
    seat: int
    tiles: tuple[int, ...] | None


class Draw(msgspec.Struct, tag=True):
    seat: int
    tile: int | None


class Discard(msgspec.Struct, tag=True):
    seat: int
    tile: int


class FakeGame:
    def __init__(
        self, rules: RuleConfig, seed: int, center: ActionCenter, rounds: int, turns: int
    ) -> None:
        self.n = rules.players
        self.rules = rules
        self.seed = seed
        self.center = center
        self.rounds_to_play = rounds
        self.turns = turns
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.next_id = 0
        self.discards: list[tuple[int, int]] = []
        self.draws: list[tuple[int, int]] = []
        self.rounds: list[dict[str, int]] = []

    def inquiry(self, kind: InquiryKind) -> MultiPlayerInquiry:
        self.next_id += 1
        return MultiPlayerInquiry(self.next_id, kind)

    def broadcast(self, event: Any, owner: int | None = None, **hidden: Any) -> None:
        for seat in range(self.n):
            self.center.on_event(
                seat,
                event
                if seat == owner
                else msgspec.structs.replace(event, **hidden)
                if hidden
                else event,
            )
        self.center.on_event(None, event)

    async def ask(self, inquiry: MultiPlayerInquiry) -> MultiPlayerInquiry:
        self.center.on_inquiry(inquiry)
        if not inquiry.done:
            done = anyio.Event()
            inquiry.add_done_callback(lambda _: done.set())
            await done.wait()
        return inquiry

    async def run(self) -> None:
        for r in range(self.rounds_to_play):
            wall = shuffled_tiles(self.seed, r)
            self.broadcast(RoundStarted(r))
            for seat in range(self.n):
                self.hands[seat] = sorted(wall[seat * 13 : seat * 13 + 13])
                self.broadcast(Haipai(seat, tuple(self.hands[seat])), seat, tiles=None)
            pos = 13 * self.n
            for t in range(self.turns):
                seat = t % self.n
                tile = wall[pos]
                pos += 1
                self.hands[seat].append(tile)
                self.draws.append((seat, tile))
                self.broadcast(Draw(seat, tile), seat, tile=None)
                turn = self.inquiry(InquiryKind.TURN)
                options = [Option((x,)) for x in self.hands[seat]]
                # a time-out takes the last option (SinglePlayerInquiry.default: tsumogiri)
                turn.player(seat, skip=False).add(Action(ActionType.DISCARD, options))
                chosen = (await self.ask(turn)).chosen()[0]
                self.hands[seat].remove(chosen.tiles[0])
                self.discards.append((seat, chosen.tiles[0]))
                self.broadcast(Discard(seat, chosen.tiles[0]))
                claim = self.inquiry(InquiryKind.CLAIM)
                claim.add((seat + 1) % self.n, Action(ActionType.PON, [Option((0, 1))]))
                await self.ask(claim)
            self.rounds.append({"round": r})
            ack = self.inquiry(InquiryKind.NEXT_ROUND)
            for seat in range(self.n):
                ack.player(seat, skip=False).add(Action(ActionType.NEXT_ROUND))
            await self.ask(ack)


def _fake(game: object) -> FakeGame:
    assert isinstance(game, FakeGame)
    return game


class FakeEngine:
    def __init__(self, rounds: int = 2, turns: int = 8) -> None:
        self.rounds = rounds
        self.turns = turns
        self.games: list[FakeGame] = []

    def new_game(self, rules: RuleConfig, seed: int, center: ActionCenter) -> FakeGame:
        game = FakeGame(rules, seed, center, self.rounds, self.turns)
        self.games.append(game)
        return game

    async def run(self, game: object) -> None:
        await _fake(game).run()

    def snapshot(self, game: object, seat: int) -> None:
        return None

    def release(self, game: object) -> None:
        pass

    def moment(
        self, game: object, seat: int, inquiry: SinglePlayerInquiry, kind: InquiryKind
    ) -> Moment:
        """The seat's decision from its own (fake) view, as advice is worked out from."""
        view = self.seat_view(game, seat)
        return Moment(
            seat=seat,
            kind=kind,
            inquiry=inquiry,
            view=view,
            events=(),
            last_actor=-1,
            tile=-1,
            junme=0,
        )

    def seat_view(self, game: object, seat: int) -> SeatView:
        """The seat's own hand and the rivers; no melds, dora or riichi in this game."""
        game = _fake(game)
        n = game.n
        return SeatView(
            seat=seat,
            rules=game.rules,
            hand=tuple(game.hands[seat]),
            drawn=None,
            melds=((),) * n,
            rivers=tuple(tuple(t for s, t in game.discards if s == i) for i in range(n)),
            riichi=(-1,) * n,
            dora_indicators=(),
            scores=(25000,) * n,
            kyoku=0,
            honba=0,
            kyotaku=0,
            round_wind=27,
            seat_wind=27 + seat,
            remaining=70,
        )
