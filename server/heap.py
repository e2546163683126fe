"""The garbage collector tuned for a server of many tables (issue 14).

A full collection walks every tracked object, and every table waits for it: at 1,000 tables
(about 10^6 objects) a full pass stopped them all for 0.7-0.9 s. What the server holds from
its start (modules, the rules' lookup tables, restored games) never becomes garbage, so it is
frozen out of those walks once the server is ready; young collections run less often, since
a decision allocates thousands of short-lived objects that mostly die without a cycle.
"""

from __future__ import annotations

import gc

#: objects allocated between young collections (CPython's default is 700)
YOUNG = 20_000


def settle() -> None:
    """Collect once, freeze what survived, and space the young collections out."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
