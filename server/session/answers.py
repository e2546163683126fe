"""Answers to a table's open inquiry: from clients, from bots and from the clock.

The engine's inquiry is answered without ever blocking it: a client's answer is checked and
handed to ``inquiry.respond`` at once, a bot thinks as a deadline, and a seat that lets its
deadline pass gets ``inquiry.default``. Every answer is recorded and echoed to its seat.

Nothing here may tell a seat about another seat's options (docs/security.md):
- a bot takes the same time on every decision of its own turn and answers claims, robs and
  next-round acknowledgements at once, so its timing says nothing about what it could call;
- a seat sees its own inquiry ids (1, 2, 3... per seat), not the engine's, whose gaps would
  count the claim chances of others; refusals name only the seat's own inquiry.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Protocol

import msgspec

from engine.actions.inquiry import MultiPlayerInquiry
from engine.actions.types import ActionType, InvalidResponse
from engine.bot import Bot
from engine.rules.kinds import InquiryKind
from server.edge.codec import answered_text, encode
from server.edge.messaging import Answer, ClockMsg, InquiryMsg, WireError
from server.session import bots
from server.session.deadlines import Deadlines
from server.session.durable import check_answer
from server.session.engine_port import EnginePort
from server.session.recording import Recording
from server.session.rooms import Room
from server.session.seat import Seat
from server.session.wire import inquiry_text
from server.settings import Settings
from server.storage.sqlite import StorageFault

log = logging.getLogger("server")
#: ids of a resumed game's seats start in [RESUMED_IDS, 2 * RESUMED_IDS)
RESUMED_IDS = 1_000_000
#: the inquiry kind of a seat's own turn: the only decisions a bot takes time over
TURN = InquiryKind.TURN
#: named once: an enum member read through its class is a descriptor call each time
NEXT_ROUND = InquiryKind.NEXT_ROUND
SKIP = ActionType.SKIP


class Meter(Protocol):
    """Told of every decision taken and of every next question (server/routes/metrics.py)."""

    def decided(self, timeout: bool) -> None: ...

    def asked(self) -> None: ...

    def hand_over(self) -> None: ...


class NoMeter:
    """A table nobody measures."""

    def decided(self, timeout: bool) -> None:
        pass

    def asked(self) -> None:
        pass

    def hand_over(self) -> None:
        pass


class Answers:
    """The inquiry a table has open, the seats' deadlines for it, and who answered."""

    def __init__(
        self,
        room: Room,
        settings: Settings,
        engine: EnginePort,
        game: object,
        recording: Recording,
        now: Callable[[], float],
    ) -> None:
        self.room = room
        self.settings = settings
        self.engine = engine
        self.game = game
        self.recording = recording
        self.now = now
        self.inquiry: MultiPlayerInquiry | None = None
        self.deadlines = Deadlines()
        self.meter: Meter = NoMeter()
        humans = any(s.human for s in room.seats)
        #: a bot's time on each own-turn decision: a human's pace, or an all-bot table's
        self.bot_think = settings.bot_think_s if humans else settings.bot_pace_s
        #: per seat: how many inquiries it was shown, and the wire id of the open one
        self.shown = [0] * len(room.seats)
        self.wire_ids: dict[int, int] = {}
        #: the in-process players of the built-in bot seats; an external bot's seat (mjai)
        #: answers over its connection on a clock, as a human's does
        self.bots: dict[int, Bot] = {
            s.index: bots.player(s.bot_name)
            for s in room.seats
            if s.bot_name is not None and not bots.external(s.bot_name)
        }

    def adopt(self, index: int) -> None:
        """Seat ``index`` is now a built-in bot's (a tournament's substitute): it answers
        from its next deadline on, the open inquiry's included."""
        name = self.room.seats[index].bot_name
        assert name is not None and not bots.external(name)
        self.bots[index] = bots.player(name)
        if index in self.deadlines:
            self.deadlines[index] = self.now()
            self.deadlines.changed()

    def open(self, inquiry: MultiPlayerInquiry) -> None:
        """The engine asks: answer what needs no thought, start the clocks of the rest. A
        decision the store refuses freezes the table (``Recording.on_fault``): its inquiry
        stays open, to be asked again when the game resumes."""
        try:
            self._open(inquiry)
        except StorageFault as exc:
            self.recording.on_fault(exc)

    def _open(self, inquiry: MultiPlayerInquiry) -> None:
        self.inquiry = inquiry
        self.meter.asked()
        self.deadlines.clear()
        self.wire_ids.clear()
        think = self.bot_think if inquiry.kind == TURN else 0.0
        now = self.now()
        for index, single in list(inquiry.players.items()):
            if inquiry.done:
                break
            seat = self.room.seats[index]
            if single.answer is not None:
                continue
            if len(single.actions) == 1 and single.actions[0].type == SKIP:
                self._respond(index, 0, 0, timeout=False)
            elif index in self.bots:
                if think > 0:
                    self.deadlines[index] = now + think
                else:
                    self._bot_answer(index)
            elif seat.forfeit is not None or not (seat.connected or self.room.ranked):
                # the default, from the timer: never in this step, or an empty table plays
                # out in one loop turn; an absent ranked seat keeps its clock (below)
                self.deadlines[index] = now
            else:
                self.deadlines[index] = self._open_clock(seat, inquiry, now)
                self.shown[index] += 1
                self.wire_ids[index] = self.shown[index]
                seat.push(self._inquiry_text(index, now))
        inquiry.add_done_callback(self._closed)
        self.deadlines.changed()

    def forfeited(self, index: int) -> None:
        """The seat's player lost it (server/session/hub.py ``forfeit``): an open decision
        of its own is answered with the default now, as every later one is."""
        inquiry = self.inquiry
        if inquiry is None or inquiry.done or index in self.bots:
            return
        if index in self.deadlines:
            self.deadlines[index] = self.now()
            self.deadlines.changed()

    def resumed(self) -> None:
        """A game resumed after a restart goes live: its seats' ids start afresh from a
        random base above any id shown before (counting the caught-up inquiries would need
        who was shown what; the engine's count would tell how many claims there were)."""
        base = RESUMED_IDS + secrets.randbelow(RESUMED_IDS)
        self.shown = [base] * len(self.shown)

    def pending(self, index: int) -> InquiryMsg | None:
        """What a (re)connecting seat (a human's, an external bot's) still has to answer."""
        inquiry = self.inquiry
        if inquiry is not None and not inquiry.done and index in self.wire_ids:
            return msgspec.json.decode(self._inquiry_text(index, self.now()), type=InquiryMsg)
        return None

    def answer(self, index: int, msg: Answer) -> WireError | None:
        """A client's answer: None when taken, else why it was refused (nothing changed)."""
        inquiry = self.inquiry
        if inquiry is None or inquiry.done or self.wire_ids.get(index) != msg.inquiry:
            if msg.inquiry == self.shown[index]:
                return WireError("already_answered", f"inquiry {msg.inquiry} is answered")
            return WireError("stale_inquiry", f"inquiry {msg.inquiry} is not open")
        deadline = self.deadlines.get(index)
        if deadline is None or self.now() > deadline:
            return WireError("late", f"the deadline of inquiry {msg.inquiry} has passed")
        try:
            self._respond(index, msg.action, msg.option, timeout=False, own=True)
        except StorageFault as exc:  # not stored, so not taken: asked again on the resume
            self.recording.on_fault(exc)
            return WireError("restarting", "the records cannot be written; reconnect soon")
        except InvalidResponse:
            text = f"action {msg.action} option {msg.option} is not a choice of inquiry"
            return WireError("invalid_answer", f"{text} {msg.inquiry}")
        return None

    async def run(self) -> None:
        """Until ``stop``: answer for the seats whose deadline passed (bots think, humans
        default)."""
        await self.deadlines.run(self.now, self._expire)

    def stop(self) -> None:
        """The game is over: ``run`` returns."""
        self.deadlines.stop()

    def _expire(self, now: float) -> None:
        try:
            self._expire_due(now)
        except StorageFault as exc:
            self.recording.on_fault(exc)

    def _expire_due(self, now: float) -> None:
        inquiry = self.inquiry
        for index, due in list(self.deadlines.items()):
            if due > now or inquiry is None or inquiry.done:
                continue
            if index in self.bots:
                self._bot_answer(index)
            else:
                self._respond(index, *inquiry.default(index), timeout=True)

    def _open_clock(self, seat: Seat, inquiry: MultiPlayerInquiry, now: float) -> float:
        if inquiry.kind == NEXT_ROUND:
            return now + self.settings.next_round_s
        return seat.clock.open(now)

    def _inquiry_text(self, index: int, now: float) -> str:
        """What seat ``index`` is asked, with the seconds it has left, its base time and its
        bank."""
        assert self.inquiry is not None
        wire_id, single = self.wire_ids[index], self.inquiry.players[index]
        remaining = self.deadlines[index] - now
        if self.inquiry.kind == NEXT_ROUND:
            base, bank = self.settings.next_round_s, 0.0
        else:
            clock = self.room.seats[index].clock
            base, bank = clock.base, clock.bank
        return inquiry_text(wire_id, single, remaining=remaining, base=base, bank=bank)

    def _respond(
        self, index: int, action: int, option: int, *, timeout: bool, own: bool = False
    ) -> None:
        """Hand one answer to the engine (raises InvalidResponse, nothing changed) and log it;
        ``own``: the seat's player chose it (not a time-out, a forced skip or a bot)."""
        assert self.inquiry is not None
        inquiry = self.inquiry
        asked = index in self.deadlines
        seat = self.room.seats[index]
        bank = seat.clock.bank  # before respond: settling the inquiry closes every clock
        wire_id = self.wire_ids.get(index)  # and forgets every wire id
        check_answer(inquiry, index, action, option)  # raises InvalidResponse, nothing changed
        if own:
            self.recording.played(index)  # a ranked game counts only with every seat's play
        self.recording.decision(inquiry.id, index, action, option, timeout)  # durable first
        inquiry.respond(index, action, option)
        self.meter.decided(timeout)
        self.deadlines.pop(index, None)
        self.wire_ids.pop(index, None)
        if asked and wire_id is not None:
            if seat.clock.opened is not None:  # else settling closed it and stored the banks
                seat.clock.close(self.now())
                self.recording.banks()
            seat.push(answered_text(wire_id, action, option, timeout))
            if seat.clock.bank != bank:
                seat.push(encode(ClockMsg(int(seat.clock.bank * 1000))))

    def _bot_answer(self, index: int) -> None:
        """A built-in bot answers from its own seat's view (never the game itself)."""
        assert self.inquiry is not None
        single = self.inquiry.players[index]
        view = self.engine.seat_view(self.game, index)
        try:
            action, option = self.bots[index].choose(single, view)
            self._respond(index, action, option, timeout=False)
        except StorageFault:
            raise  # not the bot's fault: the table waits for the disk
        except Exception:  # a bot bug must not stop the table: play the default
            log.exception(
                "bot %s of game %s failed; seat %d plays the default",
                self.room.seats[index].bot_name,
                self.room.game,
                index,
            )
            self._respond(index, *single.default(), timeout=False)

    def _closed(self, inquiry: MultiPlayerInquiry) -> None:
        """The inquiry settled: clocks of seats that were not needed stop too."""
        now = self.now()
        for index in list(self.deadlines):
            if index not in self.bots:
                self.room.seats[index].clock.close(now)
        self.deadlines.clear()
        self.wire_ids.clear()
        self.recording.banks()
