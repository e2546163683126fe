"""Running a Game: synchronously (bots, tests, benchmarks) or under anyio (the server).

The engine's coroutine awaits only inquiries; each ``send`` runs the event queue until the
next unanswered inquiry. While that inquiry is open the processing lock is free, so the
server may read state and take snapshots, and answers arrive through ``inquiry.respond``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import anyio

from engine.actions import MultiPlayerInquiry
from engine.game.game import Game


class Unanswered(RuntimeError):
    """run_sync met an inquiry its action center did not answer inside on_inquiry."""


def _step(coro: Coroutine[Any, Any, None]) -> MultiPlayerInquiry | None:
    """Run until the engine waits (returns the inquiry) or finishes (None)."""
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    assert isinstance(waiting, MultiPlayerInquiry)
    return waiting


def run_sync(game: Game, fill_defaults: bool = False) -> Game:
    """Play ``game`` to the end without an event loop.

    An inquiry left open by the center is an error, unless ``fill_defaults`` answers it
    with the default choices (what a time-out would do)."""
    coro = game.run()
    while (waiting := _step(coro)) is not None:
        if not fill_defaults:
            coro.close()
            raise Unanswered(f"inquiry {waiting.id} was not answered")
        waiting.respond_defaults()
    return game


async def run_async(game: Game, lock: anyio.Lock | None = None) -> Game:
    """Play ``game`` under anyio: answers come from other tasks via inquiry.respond.

    ``lock`` (the processing lock), when given, is held while the engine runs and released
    while it waits for an answer. Without one nothing else can run while the engine does
    (it never awaits in a step), so no lock is taken: acquiring one costs a checkpoint, a
    task switch per decision on a busy server."""
    coro = game.run()
    loop = _asyncio_loop()
    if loop is not None and lock is None:
        stepper = _Stepper(coro, loop)
        try:
            await stepper.over
        finally:
            stepper.coro = None  # cancelled: the game stays where it waits, unreferenced here
        return game
    answered = _answered if loop is None else _answered_on(loop)
    while True:
        if lock is None:
            waiting = _step(coro)
        else:
            async with lock:
                waiting = _step(coro)
        if waiting is None:
            return game
        await answered(waiting)


def _asyncio_loop() -> asyncio.AbstractEventLoop | None:
    """The running asyncio loop, or None under another backend of anyio's (trio)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class _Stepper:
    """The engine stepped by loop callbacks instead of its task: each answer that settles
    an inquiry schedules the next step (``call_soon``, one loop turn later, as the task's
    wake-up was, so what the answer's caller sends after ``respond`` still goes first).
    A step per decision costs a callback, not a future, a closure and a task switch. ``over``
    is the game's end (or the exception a step raised), which the task awaits."""

    __slots__ = ("coro", "loop", "over")

    def __init__(self, coro: Coroutine[Any, Any, None], loop: asyncio.AbstractEventLoop) -> None:
        self.coro: Coroutine[Any, Any, None] | None = coro
        self.loop = loop
        self.over: asyncio.Future[None] = loop.create_future()
        self.step()  # the first step runs in the task, as before

    def step(self) -> None:
        coro = self.coro
        if coro is None or self.over.done():  # cancelled (the server stops): no more steps
            return
        try:
            waiting = _step(coro)
        except BaseException as exc:  # the task raises it, as if the step had run there
            self.over.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        if waiting is None:
            self.over.set_result(None)
        else:
            waiting.add_done_callback(self._settled)

    def _settled(self, _inquiry: MultiPlayerInquiry) -> None:
        self.loop.call_soon(self.step)


Answered = Callable[[MultiPlayerInquiry], Awaitable[None]]


def _answered_on(loop: asyncio.AbstractEventLoop) -> Answered:
    """``_answered`` on asyncio with the loop looked up once per game: an ``anyio.Event``
    looks the backend and the running loop up each time (on Python 3.11 the latter is a
    ``getpid`` system call), once per decision of every table."""

    async def answered(inquiry: MultiPlayerInquiry) -> None:
        done: asyncio.Future[None] = loop.create_future()

        def settle(_inquiry: MultiPlayerInquiry) -> None:
            if not done.done():  # a cancelled wait (the server stops) is left cancelled
                done.set_result(None)

        inquiry.add_done_callback(settle)
        await done

    return answered


async def _answered(inquiry: MultiPlayerInquiry) -> None:
    done = anyio.Event()
    inquiry.add_done_callback(lambda _inquiry: done.set())
    await done.wait()
