"""Advice at a practice table: the reviewer's ranking of a seat's open inquiry.

Only where ``Room.advises`` the seat (every other seat a built-in bot, not ranked, not a
tournament's: docs/security.md), and only for the seat's own open inquiry. The moment is
taken from the seat's own view on the event loop (the game moves there); the strong reviewer
(engine/review/advice.py, the values a review grades by) ranks it in a worker thread, so the
loop never waits on it (0.2 ms median interpreted; a process pool's round trip costs ten
times that: docs/review.md). The seat's clock is not touched: asking takes time from the
seat as thinking does. One request per seat is worked on at a time; advice given for an
inquiry is kept and sent again on a repeated request, counted once. Each advised inquiry
adds one to the game's stored ``advice`` count before the advice is sent, so a record tells
how many decisions were advised (a game without advice says nothing of it).
"""

from __future__ import annotations

import asyncio
import logging

import anyio

from engine.review.advice import Advice, advise
from engine.review.moment import Moment
from engine.review.strong import StrongReviewer
from server.edge.codec import encode
from server.edge.messaging import AdviceMsg, AdviceOption, WireError
from server.session.answers import Answers
from server.session.engine_port import EnginePort
from server.session.rooms import Room
from server.storage.sqlite import SQL_ADD_ADVICE, StorageFault, Store

log = logging.getLogger("server")
#: the reviewer named in every advice message
ENGINE = "strong"


def no_advice(message: str) -> WireError:
    return WireError("no_advice", message)


class Advisor:
    """One table's advice: see the module docstring."""

    def __init__(
        self, room: Room, answers: Answers, engine: EnginePort, game: object, storage: Store
    ) -> None:
        self.room = room
        self.answers = answers
        self.engine = engine
        self.game = game
        self.storage = storage
        self.reviewer = StrongReviewer()
        #: seats whose advice is being worked out, and the advice given per (seat, wire id)
        self.working: set[int] = set()
        self.given: dict[tuple[int, int], str] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def ask(self, index: int, wire_id: int) -> WireError | None:
        """A seat's request: None when advice is on its way (or sent again), else the refusal."""
        if not self.room.advises(index):
            return no_advice(
                "advice is given only at a practice table: every other seat a bot, "
                "neither ranked nor a tournament's"
            )
        if not self._open(index, wire_id):
            return no_advice(f"inquiry {wire_id} is not open")
        known = self.given.get((index, wire_id))
        if known is not None:
            self.room.seats[index].push(known)
            return None
        if index in self.working:
            return WireError("rate_limited", "advice is already being worked out")
        inquiry = self.answers.inquiry
        assert inquiry is not None
        moment = self.engine.moment(self.game, index, inquiry.players[index], inquiry.kind)
        self.working.add(index)
        task = asyncio.get_running_loop().create_task(self._work(index, wire_id, moment))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return None

    def _open(self, index: int, wire_id: int) -> bool:
        inquiry = self.answers.inquiry
        return (
            inquiry is not None and not inquiry.done and self.answers.wire_ids.get(index) == wire_id
        )

    async def _work(self, index: int, wire_id: int, moment: Moment) -> None:
        seat = self.room.seats[index]
        try:
            options = await anyio.to_thread.run_sync(advise, self.reviewer, moment)
            error = self._give(index, wire_id, options)
        except Exception:  # a reviewer bug must not touch the table: no advice
            log.exception("advice for game %s seat %d failed", self.room.game, index)
            error = no_advice("no advice could be worked out")
        finally:
            self.working.discard(index)
        if error is not None:
            seat.push(encode(error))

    def _give(self, index: int, wire_id: int, options: list[Advice]) -> WireError | None:
        """Back on the loop: count it and send it, if the inquiry is still open."""
        if not self._open(index, wire_id):
            return no_advice(f"inquiry {wire_id} is not open")
        try:
            self.storage.execute(SQL_ADD_ADVICE, (self.room.game,))
        except StorageFault:
            return no_advice("the records cannot be written: no advice now")
        wire = [AdviceOption(a.action, a.option, a.value) for a in options]
        text = encode(AdviceMsg(wire_id, ENGINE, wire))
        self.given = {(index, wire_id): text}  # only the open inquiry's is ever sent again
        self.room.seats[index].push(text)
        return None
