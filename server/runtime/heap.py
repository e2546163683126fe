"""The garbage collector tuned for a server of many tables (issue 14).

CPython starts a young collection when allocations minus deallocations pass a threshold, and
every table waits for it. A pass walks every tracked object of its generations that is still
alive, and under players who think for seconds nearly everything a decision allocates is
still alive at the next pass: it is walked there, again when its generation is, and freed by
reference counting long before the walks find anything. Measured at 1,000 tables (bench.load,
think 2 s): young passes every 0.1 s and middle ones every second found 26 unreachable objects
in 70 s and cost 55 us of every decision's 700; at 2,000 tables a middle pass stopped every
table for 40-50 ms each second, and a full one for 1.5 s.

So the server makes one kind of pass only: a whole sweep every ``sweep_s`` seconds
(``collect``, a task of the app). Under steady play there is nothing for the collector to
find: a finished game frees its engine objects by reference counting when its record is
written (``Game.release``), and its table and closed sockets when its room goes
(tests/server/runtime/test_freed.py; a real server's sweeps found nothing under play at 1,000 and
2,000 tables, and 8 objects once 20 tables had played out and gone). What the server holds
from its start (modules, the rules' tables, restored games) is frozen out of every walk once
it is ready. A sweep stops every table while it walks all the rest (about 1.5 s at 2,000
tables on a slow core), so it comes rarely; sweeping more often cost more than it found
(docs/perf-notes.md: sweeps when the heap had doubled stopped a filling node for 0.8 s;
sweeps of only what was new since the last, the survivors frozen, walked the tables'
short-lived objects each time, 26 ms every half second at 2,000 tables, 5 % of the core).
A cycle some path still makes is held until the next sweep: ``sweep_s`` bounds it.
"""

from __future__ import annotations

import gc

import anyio

#: seconds between sweeps
SWEEP_S = 3600.0


def settle() -> None:
    """Collect once, freeze what survived, and leave collecting to ``collect``."""
    gc.collect()
    gc.freeze()
    gc.disable()


async def collect(sweep_s: float = SWEEP_S) -> None:
    """Forever, while ``settle`` has turned the automatic collector off: a sweep every
    ``sweep_s`` seconds."""
    while True:
        await anyio.sleep(sweep_s)
        if not gc.isenabled():
            gc.collect()
