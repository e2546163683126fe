"""The garbage collector tuned for a server of many tables (issue 14).

A full collection walks every tracked object, and every table waits for it: at 2,000 tables
(about 10^6 objects) a pass stops them all for about 0.4 s, and CPython starts one whenever
the objects promoted to the oldest generation reach a quarter of it. Players think for
seconds, so every inquiry's objects outlive the young collections and count as promoted,
though they die by reference counting soon after: full passes came every few seconds, and a
turn's p99 was the pause.

So what the server holds from its start (modules, the rules' tables, restored games) is
frozen out of the walks once it is ready; young collections run less often (a decision
allocates thousands of short-lived objects that mostly die without a cycle); and the oldest
generation is collected only by ``sweep``, on a clock (``SWEEP_S``), not by the allocator.
Cyclic garbage that reached the oldest generation (a finished game's object graph) waits
for the next sweep, as a finished game waited for its room to be forgotten before.
"""

from __future__ import annotations

import gc

import anyio

#: objects allocated between young collections (CPython's default is 700)
YOUNG = 20_000
#: young collections between middle ones (CPython's default is 10)
MIDDLE = 10
#: middle collections before a full one: never, in effect (``sweep`` does them)
NEVER = 2**31 - 1
#: seconds between full collections
SWEEP_S = 600.0


def settle() -> None:
    """Collect once, freeze what survived, and leave full collections to ``sweep``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, NEVER)


def automatic_full_collections() -> bool:
    """Whether the allocator still starts full collections by itself."""
    return gc.get_threshold()[2] < NEVER


async def sweep(every_s: float = SWEEP_S) -> None:
    """Forever: a full collection every ``every_s`` seconds (when ``settle`` turned the
    automatic ones off)."""
    while True:
        await anyio.sleep(every_s)
        if not automatic_full_collections():
            gc.collect()
