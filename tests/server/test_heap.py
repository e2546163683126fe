"""The collector's policy (server/heap.py): after ``settle`` no allocation storm starts a full
collection, and ``sweep`` runs them on its clock."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from server import heap


@pytest.fixture
def settled() -> Iterator[list[int]]:
    """``settle`` applied, and the generations of every collection that runs meanwhile."""
    before = gc.get_threshold()
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    heap.settle()
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.unfreeze()
        gc.set_threshold(*before)


def _storm() -> None:
    """Enough surviving containers to start every generation's collection by default."""
    keep = [[i] for i in range(600_000)]
    del keep


def test_after_settle_allocations_start_young_collections_only(settled: list[int]) -> None:
    _storm()
    assert 0 in settled and 2 not in settled


def test_without_settle_the_same_storm_starts_a_full_collection() -> None:
    """The storm above is big enough to matter: CPython's own policy collects it fully."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    gc.collect()
    gc.callbacks.append(note)
    try:
        _storm()
    finally:
        gc.callbacks.remove(note)
    assert 2 in seen


async def test_sweep_collects_the_oldest_generation_on_its_clock(settled: list[int]) -> None:
    with anyio.move_on_after(0.25):
        await heap.sweep(every_s=0.05)
    assert settled.count(2) >= 2
