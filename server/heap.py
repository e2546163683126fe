"""The garbage collector tuned for a server of many tables (issue 14).

CPython starts a young collection when allocations minus deallocations pass a threshold,
and every table waits for it. Under players who think for seconds that count misleads:
the objects of every open inquiry outlive several collections, and when they die their
deallocation counts against the threshold, so the youngest generation grew to 10^5 objects
between collections and one pass stopped every table for 50-200 ms (2,000 tables); a full
pass, which CPython starts when promotions reach a quarter of the oldest generation, walks
every tracked object (about 10^6) for about 0.4 s.

So the collector runs on a clock instead (``collect``, a task of the app): the youngest
generation every ``YOUNG_S``, the middle one every ``MIDDLE_EVERY`` of those, the oldest
every ``SWEEP_S``. A pass then walks only what was allocated in the last tick and still
lives. What the server holds from its start (modules, the rules' tables, restored games) is
frozen out of every walk once it is ready. Cyclic garbage waits for its generation's tick:
a finished game's object graph for the next sweep, as it waited for its room to be
forgotten before.
"""

from __future__ import annotations

import gc

import anyio

#: seconds between young collections
YOUNG_S = 0.1
#: young collections per middle one
MIDDLE_EVERY = 10
#: seconds between full collections
SWEEP_S = 600.0


def settle() -> None:
    """Collect once, freeze what survived, and leave collecting to ``collect``."""
    gc.collect()
    gc.freeze()
    gc.disable()


async def collect(young_s: float = YOUNG_S, sweep_s: float = SWEEP_S) -> None:
    """Forever, while ``settle`` has turned the automatic collector off: collect the young
    generations every ``young_s`` and everything every ``sweep_s`` seconds."""
    ticks, per_sweep = 0, max(1, round(sweep_s / young_s))
    while True:
        await anyio.sleep(young_s)
        if gc.isenabled():
            continue
        ticks += 1
        if ticks % per_sweep == 0:
            gc.collect()
        else:
            gc.collect(1 if ticks % MIDDLE_EVERY == 0 else 0)
