"""run_async without a lock (the server's way): the engine steps from the loop callback an
answer schedules, never inside the answer's caller, and its task only waits for the end."""

from __future__ import annotations

import asyncio

import pytest

from engine.actions import MultiPlayerInquiry
from engine.centers import DefaultCenter
from engine.driver import run_async, run_sync
from engine.events import EventBase
from engine.game import new_game
from engine.rules.config import TENHOU_TONPUU
from tests.engine.table import Holding


class _Answering:
    """Answers each inquiry with its defaults from a loop callback of its own (as a socket's
    read is), and notes what happened in which order."""

    wants_events = True

    def __init__(self, fail_at: int = -1) -> None:
        self.log: list[str] = []
        self.inquiries = 0
        self.tasks: list[asyncio.Task[object] | None] = []
        self.fail_at = fail_at

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if seat is None:
            self.log.append("event")

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.inquiries += 1
        self.tasks.append(asyncio.current_task())
        if self.inquiries == self.fail_at:
            raise RuntimeError("the center failed")
        self.log.append("asked")
        asyncio.get_running_loop().call_soon(self.answer, inquiry)

    def answer(self, inquiry: MultiPlayerInquiry) -> None:
        inquiry.respond_defaults()
        self.log.append("answered")  # what the answer's caller does after respond


async def test_each_step_runs_after_the_answers_caller_and_outside_the_task() -> None:
    center = _Answering()
    game = await run_async(new_game(TENHOU_TONPUU, 9, center))
    reference = run_sync(new_game(TENHOU_TONPUU, 9, DefaultCenter()))
    assert game.over and game.scores == reference.scores
    assert game.decisions == reference.decisions
    # every answer's caller finished before the next step's first event or inquiry
    for n, what in enumerate(center.log):
        if what == "answered" and n > 0:
            assert center.log[n - 1] == "asked", center.log[n - 2 : n + 2]
    # the first step runs in the task; every later one in the callback, with no task woken
    assert center.tasks[0] is not None
    assert len(center.tasks) > 100 and all(t is None for t in center.tasks[1:])


async def test_an_exception_in_a_later_step_is_raised_by_run_async() -> None:
    center = _Answering(fail_at=5)
    with pytest.raises(RuntimeError, match="the center failed"):
        await run_async(new_game(TENHOU_TONPUU, 9, center))
    assert center.inquiries == 5


async def test_a_cancelled_game_takes_no_step_after_its_inquiry_is_answered() -> None:
    center = Holding()
    game = new_game(TENHOU_TONPUU, 9, center)
    task = asyncio.ensure_future(run_async(game))
    for _ in range(3):
        await asyncio.sleep(0)
    assert len(center.open) == 1
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    center.open[0].respond_defaults()  # a late answer (a timer that fired after the stop)
    for _ in range(3):
        await asyncio.sleep(0)
    assert len(center.open) == 1 and not game.over
