"""The garbage collector tuned for a server of many tables (issue 14).

CPython starts a young collection when allocations minus deallocations pass a threshold, and
every table waits for it. A pass walks every tracked object of its generations that is still
alive, and under players who think for seconds nearly everything a decision allocates is
still alive at the next pass: it is walked there, again when its generation is, and freed by
reference counting long before the walks find anything. Measured at 1,000 tables (bench.load,
think 2 s): young passes every 0.1 s and middle ones every second found 26 unreachable objects
in 70 s and cost 55 us of every decision's 700; at 2,000 tables a middle pass stopped every
table for 40-50 ms each second, and a full one for 1.5 s.

So the server collects only when there can be something to find (``collect``, a task of the
app): a full sweep once the tracked objects have grown by ``GROWTH`` times what the last
sweep left alive (the heap has doubled: garbage or more tables), and at least every
``sweep_s`` seconds. A finished game frees its engine objects by reference counting when its
record is written (``Game.release``), so a node whose tables come and go stays flat and is
not swept for that. What the server holds from its start (modules, the rules' tables,
restored games) is frozen out of every walk once it is ready. ``young_s`` brings young passes
back (a middle one every ``MIDDLE_EVERY`` of them) for code that makes cycles faster.
"""

from __future__ import annotations

import gc

import anyio

#: young collections per middle one, when young collections run at all
MIDDLE_EVERY = 10
#: seconds between full collections at most
SWEEP_S = 3600.0
#: seconds between looks at how much the heap grew
LOOK_S = 5.0
#: a sweep comes once the heap grew by this share of what the last sweep left alive...
GROWTH = 1.0
#: ... and by this many tracked objects at least (a few hundred tables)
MIN_GROWTH = 500_000


def settle() -> None:
    """Collect once, freeze what survived, and leave collecting to ``collect``."""
    gc.collect()
    gc.freeze()
    gc.disable()


class Sweeps:
    """When the next full sweep is due: by the heap's growth or by the clock."""

    def __init__(self, sweep_s: float, now: float) -> None:
        self.sweep_s = sweep_s
        self.last = now
        #: tracked objects the last sweep left (the frozen start-up heap is not counted)
        self.alive = 0

    def due(self, now: float) -> bool:
        grown = gc.get_count()[0]  # allocations less deallocations since the last sweep
        return now - self.last >= self.sweep_s or grown >= max(MIN_GROWTH, GROWTH * self.alive)

    def sweep(self, now: float) -> None:
        """A full collection; what it leaves alive is the measure of the next growth."""
        grown = gc.get_count()[0]
        found = gc.collect()
        self.alive = max(0, self.alive + grown - found)
        self.last = now


async def collect(
    sweep_s: float = SWEEP_S, young_s: float | None = None, look_s: float = LOOK_S
) -> None:
    """Forever, while ``settle`` has turned the automatic collector off: a full sweep when
    ``Sweeps`` says so, looked at every ``look_s`` seconds; with ``young_s``, the young
    generations that often too."""
    tick = min(look_s, sweep_s) if young_s is None else young_s
    sweeps = Sweeps(sweep_s, anyio.current_time())
    ticks = 0
    while True:
        await anyio.sleep(tick)
        if gc.isenabled():
            continue
        ticks += 1
        now = anyio.current_time()
        if sweeps.due(now):
            sweeps.sweep(now)
        elif young_s is not None:
            gc.collect(1 if ticks % MIDDLE_EVERY == 0 else 0)
