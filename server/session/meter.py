"""One table's decisions, counted and timed for the node's metrics (server/routes/metrics.py).

A module of its own so that it runs compiled (server/native.py): the table's answers tell it
of every decision and every next question, and an interpreted meter was two Python frames a
decision (docs/perf-notes.md, issue 45). What it publishes into, the node's ``Metrics``, stays
with the routes; it is named here only by what the meter uses of it.
"""

from __future__ import annotations

import time
from typing import Protocol


class Observer(Protocol):
    def observe(self, value: float) -> None: ...


class Published(Protocol):
    """The node's counts a table's meter adds to (``Metrics``)."""

    @property
    def decisions(self) -> list[int]:
        """Decisions taken: [by a seat or a bot, by the clock]."""
        ...

    @property
    def step(self) -> Observer:
        """From the answer that settled an inquiry to the next inquiry asked, in seconds."""
        ...


class TableMeter:
    """One table's decisions: counted, and timed from the answer that settled an inquiry to
    the next inquiry the engine asks (engine step, projection, encoding and sends).

    Both are held by the table until its hand ends (``hand_over``): a bot answers a claim
    offer at once, so a count that moved at a discard would say someone could call it."""

    def __init__(self, metrics: Published) -> None:
        self._metrics = metrics
        self._settled: float | None = None
        #: this hand's decisions [answered, timed out] and steps, not yet published
        self._decisions = [0, 0]
        self._steps: list[float] = []

    def decided(self, timeout: bool) -> None:
        self._decisions[1 if timeout else 0] += 1
        self._settled = time.perf_counter()

    def asked(self) -> None:
        if self._settled is not None:
            self._steps.append(time.perf_counter() - self._settled)
            self._settled = None

    def hand_over(self) -> None:
        """The hand ended (or the game): what it did is public now, so it is counted."""
        published = self._metrics.decisions
        published[0] += self._decisions[0]
        published[1] += self._decisions[1]
        self._decisions = [0, 0]
        step = self._metrics.step
        for value in self._steps:
            step.observe(value)
        self._steps.clear()
