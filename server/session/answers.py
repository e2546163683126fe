"""Answers to a table's open inquiry: from clients, from bots and from the clock.

The engine's inquiry is answered without ever blocking it: a client's answer is checked and
handed to ``inquiry.respond`` at once, a bot thinks as a deadline, and a seat that lets its
deadline pass gets ``inquiry.default``. Every answer is recorded and echoed to its seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import bot
from engine.actions.inquiry import MultiPlayerInquiry
from engine.actions.types import ActionType, InvalidResponse
from server.messaging import Answer, Answered, ClockMsg, InquiryMsg, WireError, encode
from server.session.deadlines import Deadlines
from server.session.durable import check_answer
from server.session.engine_port import EnginePort
from server.session.recording import Recording
from server.session.rooms import Room, Seat
from server.session.wire import inquiry_message
from server.settings import Settings


class Answers:
    """The inquiry a table has open, the seats' deadlines for it, and who answered."""

    def __init__(
        self,
        room: Room,
        settings: Settings,
        engine: EnginePort,
        game: Any,
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
        humans = any(s.human for s in room.seats)
        self.bot_think = settings.bot_think_s if humans else 0.0

    def open(self, inquiry: MultiPlayerInquiry) -> None:
        """The engine asks: answer what needs no thought, start the clocks of the rest."""
        self.inquiry = inquiry
        self.deadlines.clear()
        now = self.now()
        for index, single in list(inquiry.players.items()):
            if inquiry.done:
                break
            seat = self.room.seats[index]
            if single.answer is not None:
                continue
            if len(single.actions) == 1 and single.actions[0].type == ActionType.SKIP:
                self._respond(index, 0, 0, timeout=False)
            elif seat.bot:
                if self.bot_think > 0:
                    self.deadlines[index] = now + self.bot_think
                else:
                    self._bot_answer(index)
            elif not seat.connected:
                self._respond(index, *single.default(), timeout=True)
            else:
                self.deadlines[index] = self._open_clock(seat, inquiry, now)
                seat.push(encode(self._inquiry_for(index, now)))
        inquiry.add_done_callback(self._closed)
        self.deadlines.changed()

    def pending(self, index: int) -> InquiryMsg | None:
        """What a (re)connecting human seat still has to answer, if anything."""
        inquiry = self.inquiry
        seat = self.room.seats[index]
        if inquiry is not None and not inquiry.done and index in self.deadlines and not seat.bot:
            return self._inquiry_for(index, self.now())
        return None

    def answer(self, index: int, msg: Answer) -> WireError | None:
        """A client's answer: None when taken, else why it was refused (nothing changed)."""
        inquiry = self.inquiry
        if inquiry is None or msg.inquiry != inquiry.id or inquiry.done:
            current = "none" if inquiry is None or inquiry.done else str(inquiry.id)
            return WireError(
                "stale_inquiry", f"inquiry {msg.inquiry} is not open (open: {current})"
            )
        single = inquiry.players.get(index)
        if single is None:
            return WireError("not_your_turn", f"seat {index} has no choice in inquiry {inquiry.id}")
        if single.answer is not None:
            return WireError("already_answered", f"inquiry {inquiry.id} is already answered")
        deadline = self.deadlines.get(index)
        if deadline is None or self.now() > deadline:
            return WireError("late", f"the deadline of inquiry {inquiry.id} has passed")
        try:
            self._respond(index, msg.action, msg.option, timeout=False)
        except InvalidResponse as exc:
            return WireError("invalid_answer", str(exc))
        return None

    async def run(self) -> None:
        """Forever: answer for the seats whose deadline passed (bots think, humans default)."""
        await self.deadlines.run(self.now, self._expire)

    def _expire(self, now: float) -> None:
        inquiry = self.inquiry
        for index, due in list(self.deadlines.items()):
            if due > now or inquiry is None or inquiry.done:
                continue
            if self.room.seats[index].bot:
                self._bot_answer(index)
            else:
                self._respond(index, *inquiry.default(index), timeout=True)

    def _open_clock(self, seat: Seat, inquiry: MultiPlayerInquiry, now: float) -> float:
        if inquiry.kind == "next_round":
            return now + self.settings.next_round_s
        return seat.clock.open(now)

    def _inquiry_for(self, index: int, now: float) -> InquiryMsg:
        assert self.inquiry is not None
        seat = self.room.seats[index]
        next_round = self.inquiry.kind == "next_round"
        return inquiry_message(
            self.inquiry.id,
            self.inquiry.players[index],
            remaining=self.deadlines[index] - now,
            base=self.settings.next_round_s if next_round else seat.clock.base,
            bank=0.0 if next_round else seat.clock.bank,
        )

    def _respond(self, index: int, action: int, option: int, *, timeout: bool) -> None:
        """Hand one answer to the engine (raises InvalidResponse, nothing changed) and log it."""
        assert self.inquiry is not None
        inquiry = self.inquiry
        asked = index in self.deadlines
        seat = self.room.seats[index]
        bank = seat.clock.bank  # before respond: settling the inquiry closes every clock
        check_answer(inquiry, index, action, option)  # raises InvalidResponse, nothing changed
        self.recording.decision(inquiry.id, index, action, option, timeout)  # durable first
        inquiry.respond(index, action, option)
        self.deadlines.pop(index, None)
        if asked and not seat.bot:
            seat.clock.close(self.now())
            self.recording.banks()
            seat.push(encode(Answered(inquiry.id, action, option, timeout)))
            if seat.clock.bank != bank:
                seat.push(encode(ClockMsg(int(seat.clock.bank * 1000))))

    def _bot_answer(self, index: int) -> None:
        assert self.inquiry is not None
        single = self.inquiry.players[index]
        hand = self.engine.hand(self.game, index)
        yakuhai = self.engine.yakuhai(self.game, index)
        action, option = bot.choose(single.actions, hand, yakuhai)
        try:
            self._respond(index, action, option, timeout=False)
        except InvalidResponse:  # a bot bug must not stop the table: play the default
            self._respond(index, *single.default(), timeout=False)

    def _closed(self, inquiry: MultiPlayerInquiry) -> None:
        """The inquiry settled: clocks of seats that were not needed stop too."""
        now = self.now()
        for index in list(self.deadlines):
            seat = self.room.seats[index]
            if not seat.bot:
                seat.clock.close(now)
        self.deadlines.clear()
        self.recording.banks()
