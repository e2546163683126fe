"""The ladder's background loops outlast a store that refuses for a while (a PostgreSQL
restart, a full disk): the forfeit sweep and the ranked draw log one warning line per
refused look (the hub has announced the fault already; no traceback in the log) and go on
by themselves once the store is back (found by test_pg_fault, whose fault once landed in
a sweep). A group taken for a table the store then refuses goes back to the queue, first,
instead of waiting for a table that never forms."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from server.ladder import lobbies
from server.ladder.forfeits import Forfeits
from server.ladder.queue import LocalWaiting, Queue
from server.storage.sqlite import Storage, StorageFault
from tests.server.ladder.test_queue_draw import Tables, _accounts


class Away:
    """A real ``Storage`` whose every call is refused while ``away``, as a store that
    cannot be reached refuses."""

    def __init__(self, db: Storage, only: str = "") -> None:
        """``only``: refuse just the statements that hold it (the store going away between
        two of them)."""
        self.db = db
        self.only = only
        self.away = True
        self.refused = 0
        self.answered = 0

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.db, name)
        if not callable(value):
            return value

        def call(*args: object, **kwargs: object) -> object:
            if self.away and self.only in str(args[0] if args else ""):
                self.refused += 1
                raise StorageFault("the records cannot be written: the store is away")
            self.answered += 1
            return value(*args, **kwargs)

        return call


class Hub:
    def forfeit(self, game: str, index: int, why: str) -> bool:
        return False


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Storage]:
    store = Storage(tmp_path / "records.sqlite3")
    yield store
    store.close()


async def _until(done: Callable[[], bool]) -> None:
    with anyio.fail_after(10):
        while not done():
            await anyio.sleep(0.01)


def _warned_without_traceback(caplog: pytest.LogCaptureFixture, words: str) -> None:
    records = [r for r in caplog.records if r.name == "server"]
    assert any(words in r.getMessage() and r.levelno == logging.WARNING for r in records)
    assert all(r.exc_info is None for r in records), [r.getMessage() for r in records]


async def test_the_forfeit_sweep_waits_for_the_store(
    db: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    store = Away(db)
    forfeits = Forfeits(store, Hub())
    with caplog.at_level(logging.WARNING, "server"):
        async with anyio.create_task_group() as tg:
            tg.start_soon(forfeits.run, 0.01)
            await _until(lambda: store.refused >= 3)
            store.away = False
            await _until(lambda: store.answered >= 6)  # the loop looks again, answered
            tg.cancel_scope.cancel()
    _warned_without_traceback(caplog, "waits for the store")


@pytest.mark.parametrize(
    "only",
    [
        "",  # away before the draw reads who has a session
        "banned = 0",  # away once the table is drawn and taken, before it is formed
    ],
)
async def test_the_ranked_draw_waits_for_the_store_then_seats(
    db: Storage, caplog: pytest.LogCaptureFixture, only: str
) -> None:
    ids = _accounts(db, ["a", "b", "c", "d"])
    store = Away(db, only)
    tables = Tables(db)
    queue = Queue(store, lobbies.parse(""), tables, LocalWaiting())
    store.away = False
    for n, (name, account) in enumerate(ids.items()):
        await queue.join(account, name, "tonpuu", f"10.0.0.{n}")
    store.away = True
    with caplog.at_level(logging.WARNING, "server"):
        async with anyio.create_task_group() as tg:
            tg.start_soon(queue.run, 0.01)
            await _until(lambda: store.refused >= 3)
            assert tables.tables == []
            store.away = False
            await _until(lambda: bool(tables.tables))
            tg.cancel_scope.cancel()
    assert tables.tables == [["a", "b", "c", "d"]]
    _warned_without_traceback(caplog, "waits for the store")
