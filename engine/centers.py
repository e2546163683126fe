"""In-process action centers: default answers (simulation), scripted (tests), random, bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from engine.actions import ActionType, Decision, MultiPlayerInquiry, SinglePlayerInquiry
from engine.bot import Bot, seat_view
from engine.events import EventBase
from engine.rules.tiles import to_str

if TYPE_CHECKING:
    from engine.game import Game


class DefaultCenter:
    """Answers every inquiry with its defaults (skip, tsumogiri), as a time-out would."""

    wants_events = False

    def on_event(self, seat: int | None, event: EventBase) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        inquiry.respond_defaults()


class RandomCenter:
    """Uniformly random legal answers from a private RNG (a seeded bot for self-play)."""

    def __init__(self, seed: int = 0, wants_events: bool = False) -> None:
        self.rng = random.Random(seed)
        self.wants_events = wants_events
        self.events: list[tuple[int | None, Any]] = []

    def on_event(self, seat: int | None, event: EventBase) -> None:
        self.events.append((seat, event))

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        rng = self.rng
        for seat in sorted(inquiry.players):
            if inquiry.done:
                return
            actions = inquiry.players[seat].actions
            a = rng.randrange(len(actions))
            inquiry.respond(seat, a, rng.randrange(len(actions[a].options)))


class BotCenter:
    """Every seat played by a bot (engine.bot), in process: self-play, benches, tests.

    The bots see only their seat's view of ``game``, which is set once the game is made
    (``center.game = new_game(rules, seed, center)``). A seat with one action of at most one
    option (an acknowledgement, a forced draw) is answered without asking its bot."""

    wants_events = False

    def __init__(self, bots: list[Bot]) -> None:
        self.bots = bots
        self.game: Game | None = None

    def on_event(self, seat: int | None, event: EventBase) -> None:
        """Events are not wanted (``wants_events`` is False)."""

    def answer(self, seat: int, single: SinglePlayerInquiry) -> tuple[int, int]:
        """The seat's bot's choice on its own view of the table."""
        assert self.game is not None, "set center.game before the game runs"
        return self.bots[seat].choose(single, seat_view(self.game, seat))

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for seat, single in list(inquiry.players.items()):
            if inquiry.done:
                return
            if len(single.actions) == 1 and len(single.actions[0].options) <= 1:
                inquiry.respond(seat, 0, 0)
                continue
            inquiry.respond(seat, *self.answer(seat, single))


#: a scripted answer: the action type and which of its options (own tiles as ids or in
#: mpsz like "406p", or an option index)
Script = tuple[int, ActionType] | tuple[int, ActionType, tuple[int, ...] | int | str]


class ScriptedCenter:
    """Answers from a script of (seat, action type[, tiles or option index]) steps.

    An inquiry offering a seat the next scripted action of that seat takes it; every other
    answer is the default. ``on_event`` records the stream per seat (None = god view)."""

    def __init__(self, script: Iterable[Script] = (), wants_events: bool = True) -> None:
        self.script: list[Script] = list(script)
        self.wants_events = wants_events
        self.events: list[tuple[int | None, Any]] = []
        self.inquiries: list[MultiPlayerInquiry] = []
        #: how many events had been delivered when each inquiry came
        self.moments: list[int] = []
        self.hook: Callable[[MultiPlayerInquiry], None] | None = None

    def on_event(self, seat: int | None, event: EventBase) -> None:
        self.events.append((seat, event))

    def seen(self, seat: int | None) -> list[Any]:
        return [e for s, e in self.events if s == seat]

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.inquiries.append(inquiry)
        self.moments.append(len(self.events))
        if self.hook is not None:
            self.hook(inquiry)
        for seat in sorted(inquiry.players):
            if inquiry.done:
                return
            single = inquiry.players[seat]
            step = next((s for s in self.script if s[0] == seat), None)
            index = single.find(step[1]) if step is not None else -1
            if step is None or index < 0:
                inquiry.respond(seat, *single.default())
                continue
            self.script.remove(step)
            option = 0
            if len(step) == 3:
                want = step[2]
                options = single.actions[index].options
                if isinstance(want, int):
                    option = want
                elif isinstance(want, str):
                    option = next(i for i, o in enumerate(options) if to_str(o.tiles) == want)
                else:
                    option = next(i for i, o in enumerate(options) if o.tiles == tuple(want))
            inquiry.respond(seat, index, option)


class ReplayCenter:
    """Answers from a recorded decision list: the seed plus these reproduce a game."""

    wants_events = False

    def __init__(self, decisions: Iterable[Decision]) -> None:
        self.by_inquiry: dict[int, list[Decision]] = {}
        for d in decisions:
            self.by_inquiry.setdefault(d.inquiry_id, []).append(d)

    def on_event(self, seat: int | None, event: EventBase) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for d in self.by_inquiry.get(inquiry.id, ()):
            inquiry.respond(d.seat, d.action_index, d.option_index)
