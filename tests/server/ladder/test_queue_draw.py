"""The ranked queue's draw on both ``Waiting``s (this process's memory, a real Redis): tables
are drawn from everyone waiting, not the first four to arrive; two accounts of one address
(or IPv6 /64) never share a table while someone else waits; entries without a heartbeat, or
whose account has no session left, are dropped (issue 43 #1, #6)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from server.cluster.queue import RedisWaiting
from server.ladder import lobbies
from server.ladder.lobbies import RankedLobby
from server.ladder.queue import LocalWaiting, Queue, Waiting
from server.storage import accounts
from server.storage.sqlite import Storage, Store
from tests.services import redis_server

LOBBIES = lobbies.parse("")
_games = itertools.count()


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    db = Storage(tmp_path / "records.sqlite3")  # its schema: server/storage/migrations
    yield db
    db.close()


@pytest.fixture(params=["memory", "redis"])
async def waiting(request: pytest.FixtureRequest) -> AsyncIterator[Waiting]:
    if request.param == "memory":
        yield LocalWaiting()
        return
    client = Redis.from_url(request.getfixturevalue("redis_url"), decode_responses=True)
    await client.flushdb()
    yield RedisWaiting(client)
    await client.aclose()


class Tables:
    """The hub's seam, keeping who was seated together (each table a game in the store)."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self.tables: list[list[str]] = []

    def seat(
        self, lobby: RankedLobby, names: list[str]
    ) -> tuple[str, str, list[tuple[int, str]], str]:
        game = f"g{next(_games)}"
        self.db.create_game(game, "ROOM", lobby.preset, 1, b"{}", names)
        self.tables.append(sorted(names))
        return "ROOM", game, [(seat, f"t{game}{seat}") for seat in range(len(names))], ""


def _accounts(db: Store, names: list[str]) -> dict[str, int]:
    ids = {}
    for name in names:
        ids[name] = accounts.create(db, name, name, "hash", 0.0)
        accounts.add_login(db, accounts.LoginRow(f"d-{name}", ids[name], 0.0, 1e12, "c"))
    return ids


async def test_queueing_together_does_not_choose_the_table(store: Store, waiting: Waiting) -> None:
    """Four friends queue at one moment, four others just after, every one from an address
    of its own: the draw deals tables from all eight, so the friends are seated together
    only as often as chance has it (2 in 70), where first come first seated always did."""
    together = 0
    for trial in range(12):
        names = [f"f{trial}x{i}" for i in range(4)] + [f"o{trial}x{i}" for i in range(4)]
        ids = _accounts(store, names)
        tables = Tables(store)
        queue = Queue(store, LOBBIES, tables, waiting)
        for n, name in enumerate(names):
            await queue.join(ids[name], name, "tonpuu", f"10.{trial}.0.{n}")
        assert await queue.draw("tonpuu") == 2
        friends = sorted(names[:4])
        together += friends in tables.tables
        for name in names:
            await waiting.release([ids[name]])
    assert together <= 3, together


@pytest.mark.parametrize(
    ("addresses", "seated"),
    [
        # a pair from one address: one of them sits, the other waits for the next draw
        (["10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"], 4),
        # one IPv6 /64 is one address
        (["2001:db8::1", "2001:db8::2", "10.0.0.2", "10.0.0.3", "10.0.0.4"], 4),
        # three accounts of one address and one other: nobody is seated with the three
        (["10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.9"], 0),
        # one address alone waiting takes nobody's seat: its four may play each other
        (["10.0.0.1"] * 4, 4),
    ],
)
async def test_accounts_of_one_address_do_not_share_a_table_while_others_wait(
    store: Store, waiting: Waiting, addresses: list[str], seated: int
) -> None:
    names = [f"p{i}" for i in range(len(addresses))]
    ids = _accounts(store, names)
    tables = Tables(store)
    queue = Queue(store, LOBBIES, tables, waiting)
    for name, address in zip(names, addresses, strict=True):
        await queue.join(ids[name], name, "tonpuu", address)
    await queue.draw("tonpuu")
    assert sum(len(t) for t in tables.tables) == seated
    for table in tables.tables:
        keys = {addresses[names.index(n)].rsplit(":", 1)[0] for n in table}
        assert len(keys) == len(table) or len(set(addresses)) == 1
    assert (await waiting.counts(["tonpuu"]))["tonpuu"] == len(addresses) - seated


async def test_an_entry_without_a_heartbeat_or_a_session_is_dropped(
    store: Store, waiting: Waiting
) -> None:
    names = ["beating", "silent", "loggedout", "d", "e"]
    ids = _accounts(store, names)
    tables = Tables(store)
    queue = Queue(store, LOBBIES, tables, waiting, heartbeat_s=0.6)
    for n, name in enumerate(names):
        await queue.join(ids[name], name, "tonpuu", f"10.0.0.{n}")
    accounts.drop_logins(store, ids["loggedout"])
    await queue.forget(ids["loggedout"])  # what a logout does: its last session ended
    assert (await queue.status(ids["loggedout"]))["state"] == "idle"
    await queue.forget(ids["d"])  # still logged in: it stays
    assert (await queue.status(ids["d"]))["state"] == "waiting"
    for _ in range(4):
        await asyncio.sleep(0.25)
        for name in ("beating", "d", "e"):
            await queue.status(ids[name], beat=True)
    assert await queue.draw("tonpuu") == 0  # three left: no table
    assert (await queue.status(ids["silent"]))["state"] == "idle"
    for name in ("beating", "d", "e"):
        assert (await queue.status(ids[name]))["state"] == "waiting"
    accounts.drop_logins(store, ids["e"])  # a session that expired (no logout)
    late = _accounts(store, ["f", "g"])
    for n, (name, account) in enumerate(late.items()):
        await queue.join(account, name, "tonpuu", f"10.0.1.{n}")
    assert await queue.draw("tonpuu") == 1
    assert tables.tables == [sorted(["beating", "d", "f", "g"])]
    assert (await queue.status(ids["e"]))["state"] == "idle"
