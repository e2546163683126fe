"""The synchronous step API: a whole match, one integer action at a time (docs/env.md).

Seed 003's research API (pymahjong) numbers every choice 0..53; research code is written
against such a table, so this env speaks it over our engine. It drives the engine's coroutine
with ``send()`` and stops while an inquiry is open: no event loop, no thread, and every rule
check stays the engine's; the env only translates indices into (action, option) answers.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from engine.actions.inquiry import MultiPlayerInquiry, SinglePlayerInquiry
from engine.actions.types import ActionType, DiscardOptions
from engine.events import EventBase
from engine.game import new_game
from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.kinds import InquiryKind
from engine.rules.wall import Wall

ACTION_DIM = 54
CHII_LEFT, CHII_MIDDLE, CHII_RIGHT, CHII_RED = 37, 38, 39, 3
PON, PON_RED, ANKAN, DAIMINKAN, KAKAN = 43, 44, 45, 46, 47
RIICHI, RON, TSUMO, KYUUSHU, NO_RIICHI, PASS, KITA = 48, 49, 50, 51, 52, 53, 54

#: answers that need no tile to tell them apart
_PLAIN = {
    ActionType.TSUMO: TSUMO,
    ActionType.RON: RON,
    ActionType.KYUUSHU: KYUUSHU,
    ActionType.SKIP: PASS,
    ActionType.NEXT_ROUND: PASS,
    # an exhaustive draw's declaration (tenpai_declaration rules): 53 shows the tenpai hand
    # (the default, as a time-out does), 52 declares noten
    ActionType.TENPAI: PASS,
    ActionType.NOTENPAI: NO_RIICHI,
    ActionType.DAIMINKAN: DAIMINKAN,
    ActionType.KITA: KITA,
}

Answer = tuple[int, int]  # (action index, option index) of one SinglePlayerInquiry


class _Center:
    """Leaves inquiries open for the env and keeps each seat's projected events if asked."""

    def __init__(self, observe: bool) -> None:
        self.wants_events = observe
        self.events: dict[int | None, list[Any]] = {}

    def on_event(self, seat: int | None, event: EventBase) -> None:
        self.events.setdefault(seat, []).append(event)

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        """Answered later through ``MahjongEnv.step``."""


class MahjongEnv:
    """A match of our engine driven by integer actions; see docs/env.md for the table."""

    def __init__(
        self,
        rules: RuleConfig = TENHOU_HANCHAN,
        *,
        observe: bool = False,
        stop_at_forced: bool = False,
        max_rounds: int | None = None,
        walls: Callable[[int], Wall] | None = None,
    ) -> None:
        self.rules = rules
        self.walls = walls
        self.observe = observe
        self.stop_at_forced = stop_at_forced
        self.max_rounds = max_rounds
        self.action_dim = ACTION_DIM + rules.sanma
        self._red = rules.red
        #: the discard index of each physical tile
        self._index_of = [34 + (t >> 2) // 9 if t in self._red else t >> 2 for t in range(136)]
        self.done = True
        self.current_player = -1
        #: "turn", "response", "riichi" (second step of a riichi discard), "kan" or
        #: "declaration" (tenpai or noten at an exhaustive draw)
        self.step_kind = ""
        self._choices: dict[int, Answer] = {}
        self._branches: dict[int, tuple[str, dict[int, Answer]]] = {}
        #: the first-step index whose second step ("riichi" or "kan") is open, else -1
        self.opened_by = -1
        self._order: list[int] = []
        self._center = _Center(observe)

    # -- the public surface -------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Start a new match whose wall comes from ``seed``; stops at the first choice."""
        if not self.done:
            self._coro.close()  # the match in progress is abandoned
        self._center = _Center(self.observe)
        self.game = new_game(
            self.rules, seed, self._center, max_rounds=self.max_rounds, walls=self.walls
        )
        self._coro: Coroutine[Any, Any, Any] = self.game.run()
        self._inquiry: MultiPlayerInquiry | None = None
        self.done = False
        self._advance()

    def legal_actions(self) -> list[int]:
        """The indices the current player may choose, ascending."""
        return sorted(self._choices.keys() | self._branches.keys())

    def legal_set(self) -> set[int]:
        """The indices the current player may choose, as a set (no sort: the AEC env's mask)."""
        return self._choices.keys() | self._branches.keys()

    def mask_cells(self) -> bytearray:
        """One byte per index, 1 where the current player may choose it (the AEC env views
        it as its int8 mask without a copy)."""
        cells = bytearray(self.action_dim)
        for index in self._choices:
            cells[index] = 1
        for index in self._branches:
            cells[index] = 1
        return cells

    def action_mask(self) -> list[bool]:
        legal = self._choices.keys() | self._branches.keys()
        return [i in legal for i in range(self.action_dim)]

    def followups(self, action: int) -> list[int]:
        """The second-step indices ``action`` opens (riichi or kan kind), [] if none."""
        branch = self._branches.get(action)
        return sorted(branch[1]) if branch is not None else []

    def index_of(self, tile: int) -> int:
        """The discard index of a physical tile (34-36 for a red five)."""
        return self._index_of[tile]

    def riichi_tile(self) -> int:
        """The physical tile the open riichi step would discard, -1 outside one."""
        if self.step_kind != "riichi" or self._inquiry is None:
            return -1
        ai, oi = self._choices[NO_RIICHI]
        single = self._inquiry.players[self.current_player]
        return single.actions[ai].options[oi].tiles[0]

    def subject_tile(self) -> int:
        """The physical tile the current decision is about, -1 for none: the claimed
        discard, the added or concealed kan or the kita others may rob, the discard a riichi
        would go with. All public, or the deciding seat's own."""
        kind = self.step_kind
        if kind == "riichi":
            return self.riichi_tile()
        if kind != "response":
            return -1
        game = self.game
        inquiry = game.inquiry
        if inquiry is not None and inquiry.kind in (InquiryKind.CHANKAN, InquiryKind.KITA):
            meld = game.round.kan_meld
            if meld is not None:
                return meld.added if meld.added >= 0 else meld.tiles[0]
        return game.called_tile

    def answer(self, action: int, option: int) -> None:
        """Play the engine's own (action index, option index) for the current player, as a
        bot answers (it names a physical tile where an index names a kind); InvalidResponse
        for a pair its inquiry does not offer."""
        if self.done:
            raise ValueError("the game is over: reset() starts a new one")
        assert self._inquiry is not None
        self._inquiry.respond(self.current_player, action, option)
        self._advance()

    def step(self, action: int, *, seat: int | None = None) -> None:
        """Play ``action`` for the current player; ValueError (nothing changed) if illegal."""
        if self.done:
            raise ValueError("the game is over: reset() starts a new one")
        if seat is not None and seat != self.current_player:
            raise ValueError(f"seat {seat} is not to act; seat {self.current_player} is")
        branch = self._branches.get(action)
        if branch is not None:
            self.step_kind, self._choices = branch
            self._branches = {}
            self.opened_by = action
            return
        answer = self._choices.get(action)
        if answer is None:
            raise ValueError(
                f"action {action} is not legal for seat {self.current_player} "
                f"({self.step_kind}); legal: {self.legal_actions()}"
            )
        assert self._inquiry is not None
        self._inquiry.respond(self.current_player, *answer)
        self._advance()

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.game.scores)

    def events(self, seat: int) -> list[Any]:
        """Events projected for ``seat`` so far (needs ``observe=True``)."""
        return self._center.events.get(seat, [])

    # -- driving the engine -------------------------------------------------------------
    def _advance(self) -> None:
        """Run the engine until some seat has a real choice, playing forced answers."""
        while True:
            inquiry = self._inquiry
            if inquiry is None or inquiry.done:
                try:
                    inquiry = self._inquiry = self._coro.send(None)
                except StopIteration:
                    self._finish()
                    return
                assert inquiry is not None
                self._order = self._ask_order(inquiry)
            while self._order and not inquiry.done:
                seat = self._order.pop(0)
                single = inquiry.players[seat]
                if single.answer is not None:
                    continue
                self._offer(single)
                options = len(self._choices) + len(self._branches)
                if options > 1 or (self.stop_at_forced and options):
                    self.current_player = seat
                    return
                inquiry.respond(seat, *next(iter(self._choices.values())))
            if not inquiry.done:
                raise RuntimeError(f"inquiry {inquiry.id} stays open after every seat answered")

    def _finish(self) -> None:
        self.done = True
        self.current_player = -1
        self.step_kind = ""
        self._choices, self._branches, self._inquiry = {}, {}, None
        self.opened_by = -1

    def _ask_order(self, inquiry: MultiPlayerInquiry) -> list[int]:
        """Seats to ask, in turn order after the seat whose move this answers."""
        n = self.rules.players
        first = self.game.turn_seat
        players = inquiry.players
        order: list[int] = []
        for i in range(1, n + 1):
            seat = (first + i) % n
            if seat in players:
                order.append(seat)
        return order

    # -- indices for one seat's offer ---------------------------------------------------
    def _offer(self, single: SinglePlayerInquiry) -> None:
        """Fill the index maps for ``single``: direct answers and two-step branches."""
        choices: dict[int, Answer] = {}
        branches: dict[int, tuple[str, dict[int, Answer]]] = {}
        discards: dict[int, Answer] = {}
        riichi: dict[int, Answer] = {}
        drawn = self.game.drawn_tile(single.seat)
        for ai, action in enumerate(single.actions):
            kind = action.type
            if kind is ActionType.DISCARD or kind is ActionType.RIICHI:
                target = discards if kind is ActionType.DISCARD else riichi
                self._discard_indices(target, ai, action.options, drawn)
            elif kind is ActionType.CHII or kind is ActionType.PON:
                called = self.game.called_tile >> 2
                for oi, option in enumerate(action.options):
                    choices.setdefault(self._call_index(kind, called, option.tiles), (ai, oi))
            elif kind is ActionType.ANKAN or kind is ActionType.KAKAN:
                index = ANKAN if kind is ActionType.ANKAN else KAKAN
                if len(action.options) == 1:
                    choices[index] = (ai, 0)
                else:
                    kans = {o.tiles[0] >> 2: (ai, oi) for oi, o in enumerate(action.options)}
                    branches[index] = ("kan", kans)
            else:
                choices.setdefault(_PLAIN[kind], (ai, 0))
        if not riichi:  # most turns: every discard is a direct answer
            choices.update(discards)
        else:
            for index, answer in discards.items():
                if index in riichi:
                    branches[index] = ("riichi", {RIICHI: riichi[index], NO_RIICHI: answer})
                else:
                    choices[index] = answer
            for index, answer in riichi.items():
                if index not in discards:
                    choices[index] = answer
        self._choices, self._branches = choices, branches
        self.opened_by = -1
        if self._inquiry is not None and self._inquiry.kind == InquiryKind.DECLARATION:
            self.step_kind = "declaration"
        else:
            self.step_kind = "turn" if single.seat == self.game.turn_seat else "response"

    def _discard_indices(
        self, target: dict[int, Answer], ai: int, options: Sequence[Any], drawn: int | None
    ) -> None:
        """Index each discard option; among equal ones keep the drawn tile, else the lowest.
        The engine's DiscardOptions are read by their tile ids (building each Option object
        to read its tile was a quarter of a step)."""
        index_of = self._index_of
        if type(options) is DiscardOptions:
            tiles: list[int] = options.tiles
        else:
            tiles = [option.tiles[0] for option in options]
        for oi, tile in enumerate(tiles):
            index = index_of[tile]
            held = target.get(index)
            if held is not None and held[0] == ai:
                other = tiles[held[1]]
                if tile != drawn and (other == drawn or other < tile):
                    continue
            target[index] = (ai, oi)

    def _call_index(self, kind: ActionType, called: int, own: tuple[int, ...]) -> int:
        red = any(t in self._red for t in own)
        if kind is ActionType.PON:
            return PON_RED if red else PON
        low = min(t >> 2 for t in own)
        position = CHII_LEFT if called < low else CHII_MIDDLE if called == low + 1 else CHII_RIGHT
        return position + CHII_RED * red
