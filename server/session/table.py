"""The table: the action center of one room's game, with clocks, seats and spectators.

The engine runs in this table's task (``engine.driver.run_async``) and calls back
``on_event`` / ``on_inquiry`` synchronously; everything here is non-blocking: messages go to
bounded outboxes, answers go straight into ``inquiry.respond``. One clock task finishes
what nobody answered in time with ``inquiry.default(seat)`` (bots are timers too, so a
thinking bot never blocks the loop). Time belongs to the server; the engine never waits on it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import anyio
import msgspec

from engine import bot
from engine.actions.inquiry import MultiPlayerInquiry
from engine.actions.types import ActionType, InvalidResponse
from server.messaging import (
    Answer,
    Answered,
    ClockMsg,
    End,
    EventMsg,
    InquiryMsg,
    RoomMsg,
    Snapshot,
    Welcome,
    WireError,
    encode,
    encode_raw,
)
from server.session.deadlines import Deadlines
from server.session.engine_port import EnginePort
from server.session.outbox import Outbox
from server.session.recording import Recording
from server.session.rooms import Room, Seat
from server.session.spectators import Spectators
from server.session.wire import inquiry_message
from server.settings import Settings
from server.storage import GameRecord, Storage

CLOSE_REPLACED = 4003
#: event types that begin a round: a snapshot starts from the latest of them
ROUND_START = frozenset({"RoundStarted"})


class Table:
    """ActionCenter for one game; also the seats' and spectators' view of it."""

    wants_events = True

    def __init__(
        self,
        room: Room,
        settings: Settings,
        storage: Storage,
        engine: EnginePort,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.room = room
        self.settings = settings
        self.storage = storage
        self.engine = engine
        self.now = now
        self.spectators = Spectators(room.game, settings.spectator_delay_s, now)
        n = room.rules.players
        self.streams: list[list[msgspec.Raw]] = [[] for _ in range(n)]
        self.seqs = [0] * n
        self.inquiry: MultiPlayerInquiry | None = None
        self.deadlines = Deadlines()
        self.finished = anyio.Event()
        #: every human has connected once (the game waits for it, within start_grace_s)
        self.ready = anyio.Event()
        self.error: BaseException | None = None
        self.recording = Recording(storage, room, now)
        humans = any(s.token is not None for s in room.seats)
        self.bot_think = settings.bot_think_s if humans else 0.0
        self.game = engine.new_game(room.rules, room.seed, self)
        self._check_ready()

    def _check_ready(self) -> None:
        if all(s.bot or s.connected for s in self.room.seats):
            self.ready.set()

    # ------------------------------------------------------------ the engine's callbacks

    def on_event(self, seat: int | None, event: Any) -> None:
        raw = encode_raw(event)
        start = type(event).__name__ in ROUND_START
        if seat is None:
            self.spectators.publish(raw, start)
            self.recording.rounds(getattr(self.game, "rounds", ()))
            return
        if start:
            self.streams[seat].clear()
        self.streams[seat].append(raw)
        seq = self.seqs[seat]
        self.seqs[seat] = seq + 1
        self._push(self.room.seats[seat], encode(EventMsg(seq, raw)))

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
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
                self._push(seat, encode(self._inquiry_for(index, now)))
        inquiry.add_done_callback(self._closed)
        self.deadlines.changed()

    # ------------------------------------------------------------ answers

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
        inquiry.respond(index, action, option)
        self.recording.decision(inquiry.id, index, action, option, timeout)
        self.deadlines.pop(index, None)
        if asked and not seat.bot:
            seat.clock.close(self.now())
            self._push(seat, encode(Answered(inquiry.id, action, option, timeout)))
            if seat.clock.bank != bank:
                self._push(seat, encode(ClockMsg(int(seat.clock.bank * 1000))))

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

    # ------------------------------------------------------------ clocks

    def _expire(self, now: float) -> None:
        inquiry = self.inquiry
        for index, due in list(self.deadlines.items()):
            if due > now or inquiry is None or inquiry.done:
                continue
            if self.room.seats[index].bot:
                self._bot_answer(index)
            else:
                self._respond(index, *inquiry.default(index), timeout=True)

    # ------------------------------------------------------------ seats and records

    def _push(self, seat: Seat, text: str) -> None:
        if seat.outbox is not None and not seat.outbox.push(text):
            seat.outbox = None

    def attach(self, seat: Seat, outbox: Outbox) -> None:
        """A (re)connected seat: welcome, a snapshot and its pending inquiry."""
        if seat.outbox is not None and seat.outbox is not outbox:
            seat.outbox.shut(CLOSE_REPLACED)
        seat.outbox = outbox
        outbox.push(encode(Welcome(seat.index, self.room.game, self.room.info())))
        outbox.push(encode(self.snapshot(seat.index)))
        self._check_ready()
        if self.finished.is_set():
            outbox.push(encode(End(self.room.game, f"/api/games/{self.room.game}/record")))
        self.broadcast_room()

    def detach(self, seat: Seat, outbox: Outbox) -> None:
        if seat.outbox is outbox:
            seat.outbox = None
            self.broadcast_room()

    def snapshot(self, index: int) -> Snapshot:
        pending = None
        inquiry = self.inquiry
        seat = self.room.seats[index]
        if inquiry is not None and not inquiry.done and index in self.deadlines and not seat.bot:
            pending = self._inquiry_for(index, self.now())
        state = self.engine.snapshot(self.game, index)
        return Snapshot(self.seqs[index], list(self.streams[index]), pending, encode_raw(state))

    def delayed(self, record: GameRecord) -> GameRecord:
        """The record as a spectator may see it during the game."""
        return self.recording.delayed(record, self.settings.spectator_delay_s)

    def broadcast_room(self) -> None:
        text = encode(RoomMsg(self.room.info()))
        for seat in self.room.seats:
            self._push(seat, text)

    async def run(self) -> None:
        """Play the game to its end, then tell every seat and spectator."""
        self.room.status = "playing"
        self.broadcast_room()
        with anyio.move_on_after(self.settings.start_grace_s):
            await self.ready.wait()
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(self.deadlines.run, self.now, self._expire)
                try:
                    await self.engine.run(self.game)
                finally:
                    tg.cancel_scope.cancel()
        except Exception as exc:  # the record says so; the server goes on
            self.error = exc
            raise
        finally:
            self.recording.rounds(getattr(self.game, "rounds", ()))
            self.recording.finish(getattr(self.game, "scores", None), self.error)
            self.room.status = "finished"
            self.finished.set()
            self.spectators.end()
            end = encode(End(self.room.game, f"/api/games/{self.room.game}/record"))
            for seat in self.room.seats:
                self._push(seat, end)
            self.broadcast_room()
