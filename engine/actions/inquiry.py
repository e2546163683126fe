"""Inquiries: the legal choices of one decision point, and their priority resolution."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from engine.actions.types import (
    Action,
    ActionType,
    Choice,
    Decision,
    DiscardOptions,
    InvalidResponse,
    Option,
)
from engine.rules.kinds import InquiryKind

#: the Skip every claim offers: never changed, so all inquiries share one
SKIP: Final = Action(ActionType.SKIP)
#: ``Final``: compiled, a C static (a plain module global is a dict lookup per read)
_DECISION: Final = Decision
_CHOICE: Final = Choice


class SinglePlayerInquiry:
    """The choices of one seat. Starts with Skip; the owner's own turn disables it."""

    __slots__ = ("actions", "answer", "default_choice", "max_priority", "seat")

    def __init__(self, seat: int, skip: bool = True) -> None:
        self.seat = seat
        self.actions: list[Action] = [SKIP] if skip else []
        self.max_priority = SKIP.priority if skip else 0
        #: (action index, option index) chosen, None while unanswered
        self.answer: tuple[int, int] | None = None
        #: what a time-out takes; None means the default rule (``default``)
        self.default_choice: tuple[int, int] | None = None

    def add(self, action: Action) -> None:
        self.actions.append(action)
        if action.priority > self.max_priority:
            self.max_priority = action.priority

    def find(self, kind: ActionType) -> int:
        """Index of the action of ``kind``, -1 when not offered."""
        for i, action in enumerate(self.actions):
            if action.type == kind:
                return i
        return -1

    def default(self) -> tuple[int, int]:
        """What a time-out answers: ``default_choice`` when set, else Skip, else on a turn
        tsumogiri (the discard's last option: the drawn tile, or after a call the last tile),
        else the first action. Worked out here, when asked, not on every turn."""
        if self.default_choice is not None:
            return self.default_choice
        skip = self.find(ActionType.SKIP)
        if skip >= 0:
            return (skip, 0)
        discard = self.find(ActionType.DISCARD)
        if discard >= 0:
            return (discard, len(self.actions[discard].options) - 1)
        return (0, 0)

    @property
    def chosen(self) -> tuple[Action, Option] | None:
        if self.answer is None:
            return None
        action = self.actions[self.answer[0]]
        return action, action.options[self.answer[1]]


class MultiPlayerInquiry:
    """All seats' choices for one moment of the game. Awaitable: the engine awaits it.

    It finishes as soon as every seat has answered or can no longer reach the top answered
    priority; then every answer of the top priority is kept (double ron) and handed back."""

    __slots__ = ("_callbacks", "_top", "decisions", "done", "id", "kind", "players")

    def __init__(self, inquiry_id: int, kind: InquiryKind) -> None:
        self.id = inquiry_id
        #: what the inquiry is about (an InquiryKind)
        self.kind = kind
        self.players: dict[int, SinglePlayerInquiry] = {}
        self.done = False
        self.decisions: list[Decision] = []
        #: made on the first callback: most inquiries are answered inside on_inquiry
        self._callbacks: list[Callable[[MultiPlayerInquiry], None]] | None = None
        self._top = 0

    def player(self, seat: int, skip: bool = True) -> SinglePlayerInquiry:
        """``seat``'s inquiry, made on first use (without Skip when ``skip`` is False)."""
        found = self.players.get(seat)
        if found is None:
            found = self.players[seat] = SinglePlayerInquiry(seat, skip)
        return found

    def add(self, seat: int, action: Action) -> None:
        """Route an action to ``seat``'s inquiry."""
        self.player(seat).add(action)

    @property
    def empty(self) -> bool:
        """Nobody has anything but Skip: no need to ask."""
        return all(len(p.actions) == 1 and p.max_priority <= 1000 for p in self.players.values())

    def default(self, seat: int) -> tuple[int, int]:
        """(action index, option index) a time-out answers for ``seat``."""
        return self.players[seat].default()

    def respond(self, seat: int, action_index: int, option_index: int = 0) -> None:
        """Record one answer; raises InvalidResponse (nothing changed) when it is illegal."""
        if self.done:
            raise InvalidResponse(f"inquiry {self.id} is already closed")
        single = self.players.get(seat)
        if single is None:
            raise InvalidResponse(f"seat {seat} has nothing to answer in inquiry {self.id}")
        if single.answer is not None:
            raise InvalidResponse(f"seat {seat} already answered inquiry {self.id}")
        if not 0 <= action_index < len(single.actions):
            raise InvalidResponse(f"no action {action_index} for seat {seat}")
        action = single.actions[action_index]
        if not 0 <= option_index < len(action.options):
            raise InvalidResponse(f"no option {option_index} for {action.type.name}")
        single.answer = (action_index, option_index)
        self.decisions.append(_DECISION(self.id, seat, action_index, option_index))
        if action.priority > self._top:
            self._top = action.priority
        if len(self.players) == 1 or self._settled():  # a lone seat has just answered
            if self._callbacks is None:  # nobody waits (answered inside on_inquiry)
                self.done = True
            else:
                self.finish()

    def respond_defaults(self) -> None:
        """Answer every open seat with its default (the caller's time-out)."""
        for seat, single in self.players.items():
            if not self.done and single.answer is None:
                self.respond(seat, *single.default())

    def _settled(self) -> bool:
        return all(
            p.answer is not None or p.max_priority < self._top for p in self.players.values()
        )

    def finish(self) -> None:
        self.done = True
        callbacks, self._callbacks = self._callbacks, None
        if callbacks:
            for callback in callbacks:
                callback(self)

    def add_done_callback(self, callback: Callable[[MultiPlayerInquiry], None]) -> None:
        if self.done:
            callback(self)
        elif self._callbacks is None:
            self._callbacks = [callback]
        else:
            self._callbacks.append(callback)

    def chosen_one(self) -> Choice:
        """The answer of a one-seat inquiry (a turn), without sorting seats."""
        (single,) = self.players.values()
        answer = single.answer
        assert answer is not None, f"inquiry {self.id} is unanswered"
        action = single.actions[answer[0]]
        options = action.options
        if type(options) is DiscardOptions:  # its tile, without building the Option
            tiles: tuple[int, ...] = (options.tiles[answer[1]],)
        else:
            tiles = options[answer[1]].tiles
        return _CHOICE(single.seat, action.type, tiles, action.priority)

    def chosen(self) -> list[Choice]:
        """Every answer of the top priority, in seat order (the game orders turns)."""
        picks: list[Choice] = []
        for seat in sorted(self.players):
            got = self.players[seat].chosen
            if got is not None and got[0].priority == self._top:
                picks.append(Choice(seat, got[0].type, got[1].tiles, got[0].priority))
        return picks

    def __await__(self) -> Generator[Any, None, MultiPlayerInquiry]:
        while not self.done:
            yield self
        return self

    def __repr__(self) -> str:
        return f"Inquiry({self.id}, {self.kind}, {self.players})"
