"""The collector's policy (server/runtime/heap.py): after ``settle`` no allocation storm starts a
collection, and ``collect`` runs them on its clock, the young ones often, the full ones
rarely."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from server.runtime import heap


@contextlib.contextmanager
def _generations() -> Iterator[list[int]]:
    """The generations of every collection that starts meanwhile."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


@pytest.fixture
def settled() -> Iterator[list[int]]:
    """``settle`` applied, and the generations of every collection that runs meanwhile."""
    before = gc.get_threshold()
    heap.settle()
    try:
        with _generations() as seen:
            yield seen
    finally:
        gc.unfreeze()
        gc.enable()
        gc.set_threshold(*before)


def _storm() -> list[list[int]]:
    """Enough surviving containers to start every generation's collection by default."""
    return [[i] for i in range(600_000)]


def test_after_settle_allocations_start_no_collection(settled: list[int]) -> None:
    _storm()
    assert settled == []


def test_without_settle_the_same_storm_starts_a_full_collection() -> None:
    """The storm above is big enough to matter: CPython's own policy collects it fully."""
    gc.collect()
    with _generations() as seen:
        _storm()
    assert 2 in seen


async def test_sweeps_come_on_their_clock_and_are_full_collections(
    settled: list[int],
) -> None:
    """Young and middle passes found next to nothing under play (docs/perf-notes.md): the
    clock runs full sweeps alone."""
    with anyio.move_on_after(0.35):
        await heap.collect(sweep_s=0.05)
    assert len(settled) >= 4 and set(settled) == {2}, settled


async def test_growth_brings_no_sweep_before_the_clock(settled: list[int]) -> None:
    """A node filling up with tables is not stopped for a sweep of its whole heap each time it
    has grown (one stopped every table for 0.8 s): only the clock sweeps."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: heap.collect(sweep_s=3600))
        keep = _storm()
        await anyio.sleep(0.3)
        assert settled == []
        tg.cancel_scope.cancel()
    assert len(keep) == 600_000
