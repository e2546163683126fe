"""The review service: which reviews run where, in a bounded pool of worker processes.

A request for (game, seat, engine) is answered from its stored row when there is one (a
review is computed once, whoever asks and however often); else this node claims the row in
the store (server/storage/reviews.py: the shared PostgreSQL of a cluster makes the claim
cluster-wide) and, if the claim is its own, hands the record to the pool. The pool is
``review_workers`` processes (``spawn``: a fresh interpreter, no copy of the server's
threads or sockets) started on the first review; each worker reports the hands it begins
over a queue that one thread of this process writes to the row (the heartbeat other nodes
read), and the future's callback stores the report or the reason it failed. Nothing here
runs on the event loop: the routes call ``request`` in a worker thread.
"""

from __future__ import annotations

import multiprocessing
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import msgspec

from engine.review import ReviewError
from server.review import worker
from server.settings import Settings
from server.storage import reviews
from server.storage.reviews import PENDING, ReviewRow
from server.storage.sqlite import Store, StoredGame

#: the engine that needs no configuration: the strong bot, in the worker itself
STRONG = "strong"
#: a pending review whose node has said nothing for this long is taken over by the next
#: request (its node stopped or died; a hand's review takes well under a minute)
STALE_S = 300.0
#: how much lower than the server the workers run (os.nice)
WORKER_NICE = 10


class Busy(Exception):
    """This node already runs ``review_queue`` reviews: the caller should come back later."""


class Reviews:
    """This node's reviews: claims, the worker pool, progress."""

    def __init__(
        self, settings: Settings, storage: Store, now: Callable[[], float] = time.time
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.node = settings.node
        self.now = now
        #: the jobs this process runs, by job id (queued in the pool or running)
        self.jobs: dict[str, Future[bytes]] = {}
        #: reviews computed by this process (tests prove "never twice" by it)
        self.started = 0
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._drain: threading.Thread | None = None
        #: set by ``close``: the workers' ends are the stop, not the reviews' failures
        self._closing = False

    def engines(self) -> list[str]:
        """The engines a client may name: the strong bot and the administrator's mjai AIs."""
        return [STRONG, *(f"mjai:{name}" for name in self.settings.mjai_commands)]

    def argv(self, engine: str, seat: int) -> list[str] | None:
        """The mjai AI's command for ``engine`` (None: the strong bot); KeyError if unknown."""
        if engine == STRONG:
            return None
        if not engine.startswith("mjai:"):
            raise KeyError(engine)
        argv = self.settings.mjai_commands[engine.removeprefix("mjai:")]
        return [a.replace("{seat}", str(seat)) for a in argv]

    def orphaned(self, row: ReviewRow) -> bool:
        """A pending row nobody works on: this node's from before a restart, or a silent
        node's. The next request takes it over."""
        if row.status not in PENDING or row.job in self.jobs:
            return False
        return row.node == self.node or self.now() - row.at > STALE_S

    def request(self, record: StoredGame, seat: int, engine: str) -> ReviewRow:
        """The row of (game, seat, engine), its review started here if nobody has it yet.
        Blocking (store and process start): call it in a worker thread. Raises Busy."""
        key = (record.id, seat, engine)
        with self._lock:
            found = reviews.row(self.storage, *key)
            if found is not None and not self.orphaned(found):
                return found
            if len(self.jobs) >= self.settings.review_queue:
                raise Busy()
            job = secrets.token_hex(12)
            takeover = None if found is None else found.job
            total = len(record.rounds)
            found = reviews.claim(self.storage, key, job, self.node, total, self.now(), takeover)
            if found.job == job:
                self._submit(job, record, seat, engine)
            return found

    def _submit(self, job: str, record: StoredGame, seat: int, engine: str) -> None:
        argv = self.argv(engine, seat)
        future = self._workers().submit(
            worker.review, job, msgspec.json.encode(record), seat, engine, argv
        )
        self.jobs[job] = future
        self.started += 1
        future.add_done_callback(lambda f: self._ended(job, f))

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._queue = context.SimpleQueue()
            self._pool = ProcessPoolExecutor(
                self.settings.review_workers,
                mp_context=context,
                initializer=worker.init,
                initargs=(self._queue, WORKER_NICE),
            )
            self._drain = threading.Thread(target=self._progress, name="reviews", daemon=True)
            self._drain.start()
        return self._pool

    def _progress(self) -> None:
        """The workers' (job, hands begun) into the rows, until ``close`` says None."""
        queue = self._queue
        while (item := queue.get()) is not None:
            job, begun = item
            reviews.progress(self.storage, job, max(begun - 1, 0), self.now())

    def _ended(self, job: str, future: Future[bytes]) -> None:
        """The pool's callback (its own thread): the report or the reason, into the row."""
        if self._closing:
            self.jobs.pop(job, None)
            return  # the server stops: the row stays pending for a takeover
        try:
            report = future.result()
        except CancelledError:
            return  # the server stops: the row stays pending for a takeover
        except ReviewError as e:
            reviews.fail(self.storage, job, str(e), self.now())
        except BrokenProcessPool:
            reviews.fail(self.storage, job, "the review worker died", self.now())
            self._pool = None  # the next review starts a fresh pool
        except Exception as e:  # a reviewer's crash must not stay "running" for ever
            reviews.fail(self.storage, job, f"{type(e).__name__}: {e}", self.now())
        else:
            reviews.finish(self.storage, job, report, self.now())
        finally:
            self.jobs.pop(job, None)

    def close(self) -> None:
        """Stop the workers (a review under way is left pending: a takeover finishes it)."""
        self._closing = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=5)
        self._queue.put(None)
        if self._drain is not None:
            self._drain.join(timeout=5)
