"""Which process this is: the server's own, or a worker it spawned (the review pool).

A review worker is a fresh interpreter (``spawn``) that imports the server's modules. Were it
ever to run the server's start (restore every game, take the data dir) or its stop (suspend
every game, checkpoint the records), it would play or freeze another process's tables: the
start and stop paths call ``refuse_in_worker`` first.
"""

from __future__ import annotations

import multiprocessing
import os


class WorkerProcess(RuntimeError):
    """The server's start or stop was called in a worker process."""


def in_worker() -> bool:
    """True in any process ``multiprocessing`` started (spawn, fork or forkserver)."""
    return multiprocessing.parent_process() is not None


def refuse_in_worker(what: str) -> None:
    """Raise WorkerProcess, naming ``what``, when this is a worker process."""
    if in_worker():
        parent = multiprocessing.parent_process()
        owner = parent.pid if parent is not None else "?"
        raise WorkerProcess(
            f"{what} runs only in the server's own process, not in worker {os.getpid()}"
            f" (spawned by {owner})"
        )
