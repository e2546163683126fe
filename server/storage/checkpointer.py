"""SQLite's WAL checkpoints in a thread of their own, so no table waits on the disk.

A commit in WAL mode with ``synchronous=NORMAL`` only appends to the WAL file: no fsync. By
default, though, the connection that commits also checkpoints once the WAL passes 1,000 pages,
copying it into the database file and fsyncing both; on the event loop that is a stop of every
table for as long as the disk takes (bench.load on this machine's disk: a turn p99 of
320-410 ms at 1,000 tables, 30 ms with the data on tmpfs). So the writing connection's
automatic checkpoint is off and this thread checkpoints on a clock through its own
connection, with the GIL released while SQLite copies and syncs. A passive checkpoint never
blocks the writer; SQLite restarts the WAL from its start once all of it is copied.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


class Checkpointer:
    """Checkpoints ``path``'s WAL every ``every_s`` seconds until ``stop``."""

    def __init__(self, path: Path, every_s: float) -> None:
        self.path = path
        self.every_s = every_s
        #: checkpoints run so far (a test reads it)
        self.runs = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout=1000")
            while not self._stopping.wait(self.every_s):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    continue  # a full or failing disk: the next one tries again
                self.runs += 1
        finally:
            db.close()

    def stop(self) -> None:
        """Stop after the checkpoint in progress (the owner's close checkpoints the rest)."""
        self._stopping.set()
        self._thread.join()
