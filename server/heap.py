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
app): a sweep once ``GROWTH`` tracked objects more are alive than the last sweep left (tables
were added, or garbage piled up), and a whole one at least every ``sweep_s`` seconds. A sweep
walks only what came since the last one: what each sweep leaves alive is frozen out of the next
walks, so its pause is bounded by ``GROWTH`` however many tables the node holds (a sweep of a
whole 1,000-table heap stopped every table for 0.8 s; seating 1,000 tables now took 16 sweeps
of 56 ms on average, looked for every second). Only
the clock's sweep thaws and walks everything, for a cycle that was alive when it was frozen.
That holds little: a finished game frees its engine objects by reference counting when its
record is written (``Game.release``), and its table and closed sockets when its room goes
(tests/server/test_freed.py), so a node whose tables come and go stays flat. What the server
holds from its start (modules, the rules' tables, restored games) is frozen once it is ready.
``young_s`` brings young passes back (a middle one every ``MIDDLE_EVERY`` of them) for code
that makes cycles faster.
"""

from __future__ import annotations

import gc

import anyio

#: young collections per middle one, when young collections run at all
MIDDLE_EVERY = 10
#: seconds between full collections at most
SWEEP_S = 3600.0
#: seconds between looks at how much the heap grew
LOOK_S = 1.0
#: a sweep comes once this many tracked objects more are alive than the last one left (some
#: fifty tables); it walks only those
GROWTH = 50_000


def settle() -> None:
    """Collect once, freeze what survived, and leave collecting to ``collect``."""
    gc.collect()
    gc.freeze()
    gc.disable()


class Sweeps:
    """When the next sweep is due, and how much it walks: what grew, or (by the clock) all."""

    def __init__(self, sweep_s: float, now: float) -> None:
        self.sweep_s = sweep_s
        #: when the last whole sweep ran
        self.last = now

    def due(self, now: float) -> bool:
        # allocations less deallocations since the last sweep
        return now - self.last >= self.sweep_s or gc.get_count()[0] >= GROWTH

    def sweep(self, now: float) -> None:
        """A collection of what is not frozen (everything, when the clock says so); what it
        leaves alive is frozen out of the next ones."""
        if now - self.last >= self.sweep_s:
            gc.unfreeze()
            self.last = now
        gc.collect()
        gc.freeze()


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
