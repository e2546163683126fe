"""The table: the action center of one room's game, with seats and spectators.

The engine runs in this table's task (``engine.driver.run_async``) and calls back
``on_event`` / ``on_inquiry`` synchronously; everything here is non-blocking: messages go to
bounded outboxes, inquiries go to ``Answers``, whose clock task finishes what nobody answered
in time. Time belongs to the server; the engine never waits on it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import anyio

from engine.actions.inquiry import MultiPlayerInquiry
from engine.events import EventBase
from server.edge.close_codes import CloseCode
from server.edge.codec import encode, encode_raw, encode_twice, event_text, raws
from server.edge.lean import LeanEvent
from server.edge.messaging import (
    AdviceAsk,
    Answer,
    End,
    RoomMsg,
    Snapshot,
    Welcome,
    WireError,
)
from server.session.advice import Advisor
from server.session.answers import Answers
from server.session.bots import external
from server.session.durable import Feed
from server.session.engine_port import EnginePort
from server.session.outbox import Outbox
from server.session.recording import Recording
from server.session.rooms import Room
from server.session.seat import Seat
from server.session.spectators import ROUND_START, Policy, Spectators
from server.settings import Settings
from server.storage import tournaments
from server.storage.sqlite import StorageFault, Store, StoredGame

#: ``Table._encoded`` before the first event
NOTHING_ENCODED: tuple[object, bytes, str] = (None, b"null", "null")


class Table:
    """ActionCenter for one game; also the seats' and spectators' view of it."""

    wants_events = True

    def __init__(
        self,
        room: Room,
        settings: Settings,
        storage: Store,
        engine: EnginePort,
        now: Callable[[], float] = time.monotonic,
        feed: Feed | None = None,
        stored_rounds: int = 0,
    ) -> None:
        """``feed``: the stored decisions of a game resumed from storage (server/session/
        resume.py), answered before anything goes live; ``stored_rounds`` its stored results."""
        self.room = room
        self.settings = settings
        self.storage = storage
        self.engine = engine
        self.now = now
        self.spectators = Spectators(
            room.game, spectator_policy(room), settings.spectator_delay_s, now, room.sealed
        )
        n = room.rules.players
        #: each seat's events of the hand in play, as encoded (what its snapshot replays)
        self.streams: list[list[bytes]] = [[] for _ in range(n)]
        self.seqs = [0] * n
        #: the last event encoded, its encoding and that as text (seats alike share one)
        self._encoded: tuple[object, bytes, str] = NOTHING_ENCODED
        #: the encoding of this step's event as a seat that does not own it sees it
        self._public: bytes | None = None
        #: each seat's last snapshot, once the game is over and released
        self._finals: list[Snapshot] | None = None
        #: the table's events are server/edge/lean.py's: anyio's each hold an empty deque
        self.finished = LeanEvent()
        #: every human has connected once (the game waits for it, within start_grace_s)
        self.ready = LeanEvent()
        self.error: BaseException | None = None
        resumed = None if feed is None else (len(feed.decisions), stored_rounds)
        ended = feed is not None and feed.ended_at is not None
        self.recording = Recording(storage, room, now, resumed, ended)
        self.feed = feed
        #: the live point of a resumed game is reached: its held inquiry may be asked
        self.caught_up = LeanEvent()
        #: the server is stopping: nothing more is answered, asked or recorded
        self.frozen = False
        self._scope: anyio.CancelScope | None = None
        #: the hub's answer to a write the store refused (alone: the table freezes); a
        #: function of the table, not a closure over it, and the recording's hook is let go
        #: at the end (``_let_go``): a finished table is freed by reference counting
        self.on_fault: Callable[[StorageFault, Table], None] = _suspend_alone
        self.recording.on_fault = self._storage_failed
        self.game = engine.new_game(room.rules, room.seed, self)
        self.answers = Answers(room, settings, engine, self.game, self.recording, now)
        self.advisor = Advisor(room, self.answers, engine, self.game, storage)
        self._check_ready()

    def _check_ready(self) -> None:
        if all(s.ready for s in self.room.seats):
            self.ready.set()

    # ------------------------------------------------------------ the engine's callbacks

    def on_views(self, event: EventBase, seen: Sequence[EventBase]) -> None:
        """An event as each seat sees it (``seen[seat]``, engine.view.projections), then as
        the god view (``event``), in one call: each distinct view is encoded once (a draw
        has two, the drawer's and everyone else's), however the seats interleave."""
        start = type(event).__name__ in ROUND_START
        owner = getattr(event, "seat", None)
        codes: list[tuple[object, bytes, str]] = []
        public: bytes | None = None
        last: object = None
        raw, text = NOTHING_ENCODED[1], NOTHING_ENCODED[2]
        for seat, view in enumerate(seen):
            if view is not last:  # most events: one view for every seat
                raw, text = _encoding(view, codes)
                last = view
            if seat != owner:
                public = raw  # what any seat that does not own the event sees
            self._to_seat(seat, raw, text, start)
        self._to_god(event, _encoding(event, codes)[0], public, start)

    def on_event(self, seat: int | None, event: EventBase) -> None:
        """One seat's view of an event (the seats in order, then the god view): the engine
        calls ``on_views`` instead; seats that see the same fields are handed the same
        object, encoded here once."""
        if event is self._encoded[0]:
            raw, text = self._encoded[1], self._encoded[2]
        else:
            raw, text = encode_twice(event)
            self._encoded = (event, raw, text)
        start = type(event).__name__ in ROUND_START
        if seat is None:
            self._to_god(event, raw, self._public, start)
            self._public = None
            return
        if getattr(event, "seat", None) != seat:
            self._public = raw  # a view of someone else's event: what any non-owner sees
        self._to_seat(seat, raw, text, start)

    def _to_seat(self, seat: int, raw: bytes, text: str, start: bool) -> None:
        stream = self.streams[seat]
        if start:
            stream.clear()
        stream.append(raw)
        seq = self.seqs[seat]
        self.seqs[seat] = seq + 1
        # ``Seat.push`` written out: an interpreted call for every seat of every event was
        # 1.4 % of a decision (bench.decision --instructions, with this module compiled)
        chair = self.room.seats[seat]
        outbox = chair.outbox
        if outbox is not None and not outbox.push(event_text(seq, text)):
            chair.outbox = None  # it could not keep up and shut itself

    def _to_god(self, event: EventBase, raw: bytes, public: bytes | None, start: bool) -> None:
        self.recording.seen(raw)
        self.spectators.publish(event, raw, public)
        if start:
            self.recording.hand_started()
            self.answers.meter.hand_over()  # the last hand's counts are public now
        self.recording.rounds(getattr(self.game, "rounds", ()))

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        if self.frozen:
            return
        if self.feed is not None:  # catching up: answer from the log, hold the live point
            self.feed.answer(inquiry)
            if inquiry.done:
                return
            self.caught_up.set()
            return
        self.answers.open(inquiry)

    # ------------------------------------------------------------ answers

    @property
    def inquiry(self) -> MultiPlayerInquiry | None:
        """The engine's open (or last) inquiry."""
        return self.answers.inquiry

    def answer(self, index: int, msg: Answer) -> WireError | None:
        """A client's answer: None when taken, else why it was refused (nothing changed)."""
        if self.frozen:
            return WireError("restarting", "the server is restarting; reconnect and answer again")
        return self.answers.answer(index, msg)

    def advice(self, index: int, msg: AdviceAsk) -> WireError | None:
        """A seat asks for advice on its open inquiry (server/session/advice.py)."""
        if self.frozen:
            return WireError("restarting", "the server is restarting; reconnect and ask again")
        return self.advisor.ask(index, msg.inquiry)

    # ------------------------------------------------------------ seats and records

    def attach(self, seat: Seat, outbox: Outbox) -> None:
        """A (re)connected seat: welcome, a snapshot and its pending inquiry."""
        if seat.outbox is not None and seat.outbox is not outbox:
            seat.outbox.shut(CloseCode.REPLACED)
        seat.outbox = outbox
        outbox.push(encode(Welcome(seat.index, self.room.game, self.room.info())))
        outbox.push(encode(self.snapshot(seat.index)))
        self._check_ready()
        if self.finished.is_set():
            outbox.push(encode(self.end_message()))
        self.broadcast_room()

    def detach(self, seat: Seat, outbox: Outbox) -> None:
        if seat.outbox is outbox:
            seat.outbox = None
            self.broadcast_room()

    def snapshot(self, index: int) -> Snapshot:
        if self._finals is not None:  # the game is over and let go: its last view stays
            return self._finals[index]
        pending = self.answers.pending(index)
        state = self.engine.snapshot(self.game, index)
        return Snapshot(self.seqs[index], raws(self.streams[index]), pending, encode_raw(state))

    def end_message(self) -> End:
        """The game is over: the seed is told now (and only now), so every seat can check
        it against the commitment it had before the first deal."""
        seed = self.revealed_seed()
        return End(
            self.room.game,
            f"/api/games/{self.room.game}/record",
            seed,
            None if seed is None else str(seed),
            None if seed is None else self.room.salt,
        )

    def revealed_seed(self) -> int | None:
        """The seed once the game is over (it makes every wall), else None; a sealed table's
        (a duplicate tournament round's) only once every table of its round is over."""
        if not self.finished.is_set() or self.error is not None:
            return None
        if self.room.sealed and tournaments.round_running(self.storage, self.room.game):
            return None
        return self.room.seed

    def delayed(self, record: StoredGame) -> StoredGame:
        """The record as a spectator may see it during the game (see Spectators)."""
        policy = self.spectators.policy
        if policy is Policy.PUBLIC:
            return self.recording.before_hand(record)
        delay = self.settings.spectator_delay_s if policy is Policy.BROADCAST else 0.0
        return self.recording.delayed(record, delay)

    def broadcast_room(self) -> None:
        text = encode(RoomMsg(self.room.info()))
        for seat in self.room.seats:
            seat.push(text)

    async def run(self) -> None:
        """Play the game to its end, then tell every seat and spectator.

        Cancelled (the server stops), the game is left as stored: never finished, nothing
        answered for anyone. A resumed game catches up from its log at once and asks its held
        inquiry when the humans are back (or ``start_grace_s`` passed)."""
        self.room.status = "playing"
        self.broadcast_room()
        if self.feed is None:
            await self._humans_back()
        ended = False
        try:
            async with anyio.create_task_group() as tg:
                self._scope = tg.cancel_scope
                tg.start_soon(self.answers.run)
                if self.feed is not None:
                    tg.start_soon(self._go_live)
                try:
                    await self.engine.run(self.game)
                    ended = True
                finally:
                    # ended, not cancelled: a cancelled child's exception stays in a cycle
                    # with anyio's frame until a sweep (server/runtime/heap.py); a resumed game's
                    # _go_live may still wait, and only then is the scope cancelled
                    self.answers.stop()
                    if self.feed is not None:
                        tg.cancel_scope.cancel()
        except Exception as exc:  # the record says so; the server goes on
            self.error = exc
            raise
        finally:
            if ended or self.error is not None:
                self._end()

    def _storage_failed(self, exc: StorageFault) -> None:
        """A write was refused: nothing more is answered, the hub suspends the table (and
        plays it on from its record once the store writes again)."""
        if not self.frozen:
            self.frozen = True
            self.on_fault(exc, self)
            self._let_go()

    def _let_go(self) -> None:
        """Drop the fault hooks (a cycle through the recording): nothing more is written."""
        self.recording.on_fault = _ignore
        self.on_fault = _ignore_table

    def suspend(self) -> None:
        """The server stops: answer nothing more, stop the engine where it waits."""
        self.frozen = True
        if self._scope is not None:
            self._scope.cancel()

    async def _humans_back(self) -> None:
        with anyio.move_on_after(self.settings.start_grace_s):
            await self.ready.wait()

    async def _go_live(self) -> None:
        """Ask the held inquiry of a resumed game again, with fresh clocks."""
        await self.caught_up.wait()
        assert self.feed is not None
        if self.feed.opened is not None:  # a paced restore: the server does not listen yet
            await self.feed.opened.wait()
        await self._humans_back()
        held, self.feed = self.feed.held, None
        self.answers.resumed()
        if held is not None and not held.done:
            self.answers.open(held)

    def _end(self) -> None:
        self.recording.rounds(getattr(self.game, "rounds", ()))
        if not self.frozen:
            try:
                self.recording.finish(getattr(self.game, "scores", None), self.error)
            except StorageFault as exc:
                self._storage_failed(exc)
        if self.frozen:
            return  # its end is not stored: the resumed game replays to it and ends again
        self._let_go()
        self.answers.meter.hand_over()
        if self.error is None:  # recorded: what a late seat sees stays, the rest goes now
            self._finals = [self.snapshot(s.index) for s in self.room.seats]
            self.answers.inquiry = None
            self._encoded = NOTHING_ENCODED  # the last event points at the game
            self.engine.release(self.game)
        self.room.status = "finished"
        self.finished.set()
        end = encode(self.end_message())
        self.spectators.end(end)
        for seat in self.room.seats:
            seat.push(end)
        self.broadcast_room()


def _encoding(value: object, codes: list[tuple[object, bytes, str]]) -> tuple[bytes, str]:
    """``value`` encoded (raw and text), once: ``codes`` holds what this event's other views
    were encoded to, by identity."""
    for known, raw, text in codes:
        if known is value:
            return raw, text
    raw, text = encode_twice(value)
    codes.append((value, raw, text))
    return raw, text


def spectator_policy(room: Room) -> Policy:
    """God view only where no human and no external AI sits (an AI's author could watch its
    table), or where the humans agreed to a broadcast; never at a sealed table (its walls
    are being played at other tables)."""
    if room.sealed:
        return Policy.PUBLIC
    if not room.humans and not any(external(s.bot_name) for s in room.seats):
        return Policy.OPEN
    return Policy.BROADCAST if room.broadcast else Policy.PUBLIC


def _suspend_alone(exc: StorageFault, table: Table) -> None:
    """A table without a hub: it freezes (nobody resumes it)."""
    table.suspend()


def _ignore(exc: StorageFault) -> None:
    """A frozen or finished table writes nothing more that matters."""


def _ignore_table(exc: StorageFault, table: Table) -> None:
    pass
