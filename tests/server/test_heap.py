"""The collector's policy (server/heap.py): after ``settle`` no allocation storm starts a
collection, and ``collect`` runs them on its clock, the young ones often, the full ones
rarely."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from server import heap


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


def _storm() -> None:
    """Enough surviving containers to start every generation's collection by default."""
    keep = [[i] for i in range(600_000)]
    del keep


def test_after_settle_allocations_start_no_collection(settled: list[int]) -> None:
    _storm()
    assert settled == []


def test_without_settle_the_same_storm_starts_a_full_collection() -> None:
    """The storm above is big enough to matter: CPython's own policy collects it fully."""
    gc.collect()
    with _generations() as seen:
        _storm()
    assert 2 in seen


async def test_collect_runs_each_generation_on_its_clock(settled: list[int]) -> None:
    with anyio.move_on_after(0.5):
        await heap.collect(young_s=0.02, sweep_s=0.1)  # a sweep every fifth tick
    assert settled.count(0) >= 5 and settled.count(2) >= 2, settled
    assert settled.count(0) > settled.count(2)


async def test_by_default_only_the_sweep_runs(settled: list[int]) -> None:
    """Young and middle passes found next to nothing under play (docs/perf-notes.md): the
    default clock runs full sweeps alone."""
    with anyio.move_on_after(0.35):
        await heap.collect(sweep_s=0.05)
    assert settled and set(settled) == {2}, settled


async def test_a_sweep_comes_when_the_heap_has_grown_and_not_while_it_stays(
    settled: list[int],
) -> None:
    """No clock sweep within the test (an hour); growth past ``GROWTH`` starts one, and a
    heap that stays as that sweep left it starts no other."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: heap.collect(sweep_s=3600, look_s=0.02))
        await anyio.sleep(0.1)
        assert settled == []  # a fresh heap: nothing grew
        keep = [[i] for i in range(heap.GROWTH + 10_000)]
        with anyio.fail_after(5):
            while 2 not in settled:
                await anyio.sleep(0.02)
        swept = len(settled)
        await anyio.sleep(0.3)  # the same heap: what is alive is what the sweep left
        assert len(settled) == swept, settled
        tg.cancel_scope.cancel()
    assert len(keep) > heap.GROWTH


class _Node:
    """A container that can hold itself: a cycle only the collector frees."""

    def __init__(self) -> None:
        self.me: _Node | None = self


def test_a_growth_sweep_walks_only_what_came_since_and_the_clock_one_walks_all(
    settled: list[int],
) -> None:
    """What a sweep leaves alive is frozen out of the next growth sweeps (their pause is
    bounded by ``GROWTH``, not by the heap); a cycle that was alive then is found by the
    clock's sweep, which thaws everything first."""
    sweeps = heap.Sweeps(sweep_s=100.0, now=0.0)
    node = _Node()
    gone = weakref.ref(node)
    keep = [[i] for i in range(heap.GROWTH)]
    assert sweeps.due(1.0)
    sweeps.sweep(1.0)
    frozen = gc.get_freeze_count()
    assert frozen > len(keep)  # the survivors, the cycle among them, are out of the walks
    del node  # now garbage, but frozen
    more = [[i] for i in range(heap.GROWTH)]
    assert sweeps.due(2.0)
    sweeps.sweep(2.0)
    assert gone() is not None  # a growth sweep did not walk it
    assert gc.get_freeze_count() >= frozen + len(more)
    assert not sweeps.due(50.0)
    assert sweeps.due(101.0)
    sweeps.sweep(101.0)  # the clock's: everything thawed and walked
    assert gone() is None
    assert not sweeps.due(150.0)
    assert settled == [2, 2, 2]
