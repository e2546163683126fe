"""The relay's stream for one watcher on another node: every sequence number once, in order,
whatever the owner sends again (a restored table replays its game from the start); over a
real Redis, the owner's texts in one write per batch, and the watchers' one subscription."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import msgspec
import pytest
from redis.asyncio import Redis

import server.cluster.directory as directory
import server.cluster.relay as relay
from server.cluster.node import Cluster
from server.cluster.relay import _Stream
from server.edge.close_codes import CLOSE_MARK
from server.edge.codec import encode
from server.edge.messaging import End, EventMsg, Snapshot, decode_server
from server.edge.transport import memory_pair
from server.session.outbox import Outbox
from server.settings import Settings
from tests import system
from tests.services import redis_server


def event(seq: int) -> str:
    return encode(EventMsg(seq, msgspec.Raw(b'{"type":"Draw"}')))


async def received(texts: list[str], first: int) -> tuple[list[str], int | None]:
    """What the watcher's socket gets when the relay passes ``texts`` on, and its close."""
    server, client = memory_pair()
    outbox = Outbox(server, 100)
    stream = _Stream(outbox, first)
    for text in texts:
        if not stream.forward(text):
            break
    outbox.shut(outbox.close_code)
    await outbox.pump()
    got = []
    while client.inbox:
        got.append(await client.receive_text())
    return got, client.closed_with


def seqs(texts: list[str]) -> list[tuple[str, int]]:
    return [
        (type(m).__name__, m.seq)
        for m in map(decode_server, texts)
        if isinstance(m, EventMsg | Snapshot)
    ]


async def test_texts_from_before_the_greeting_or_sent_again_are_dropped() -> None:
    replayed = [event(s) for s in range(0, 7)]
    reveal = encode(Snapshot(5, [], None))  # the hand of events 0..4 ended: revealed at 5
    texts = [event(3), event(4), reveal, event(5), *replayed, reveal, event(7)]
    got, code = await received(texts, first=4)
    want = [("EventMsg", 4), ("Snapshot", 5), ("EventMsg", 5), ("EventMsg", 6), ("EventMsg", 7)]
    assert seqs(got) == want
    assert code == 1000


async def test_the_end_and_a_close_mark_finish_the_stream() -> None:
    end = encode(End("g", "/api/games/g/record", 7))
    got, code = await received([event(0), end, event(1)], first=0)
    assert seqs(got) == [("EventMsg", 0)] and isinstance(decode_server(got[-1]), End)
    got, code = await received([event(0), f"{CLOSE_MARK}1012", event(1)], first=0)
    assert seqs(got) == [("EventMsg", 0)] and code == 1012


# ---------------------------------------------------------------- over a real Redis


@pytest.fixture
def redis_url() -> Iterator[str]:
    system.redis()
    with redis_server() as url:
        yield url


async def _reads(client: Redis) -> int:
    """Reads Redis made from its clients' sockets so far (each INFO is one more)."""
    info: dict[str, Any] = await client.info("stats")
    return int(info["total_reads_processed"])


async def test_texts_queued_in_one_turn_leave_in_one_write_each_stream_in_order(
    redis_url: str,
) -> None:
    """What two tables release in one loop turn reaches Redis in one write (a pipeline):
    a ``PUBLISH`` awaited each, as before, was a read of Redis's and a round trip each."""
    cluster = Cluster(Settings(redis_url=redis_url, node_id="n"))
    watcher = Redis.from_url(redis_url, decode_responses=True)
    async with cluster.redis, watcher, watcher.pubsub() as pubsub:
        await pubsub.subscribe(relay.channel("g1"), relay.channel("g2"))
        one, two = cluster.relay("g1", restored=False), cluster.relay("g2", restored=False)
        await cluster.redis.ping()  # its connection made (HELLO and the rest: reads too)
        before = await _reads(watcher)
        for seq in range(200):  # interleaved, as two tables release them
            one(event(seq))
            two(event(1000 + seq))
        async with anyio.create_task_group() as tg:
            tg.start_soon(cluster._relay_loop)
            got: dict[str, list[int]] = {relay.channel("g1"): [], relay.channel("g2"): []}
            with anyio.fail_after(10):
                while sum(map(len, got.values())) < 400:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
                    if message is not None:
                        text = decode_server(message["data"])
                        assert isinstance(text, EventMsg)
                        got[message["channel"]].append(text.seq)
            reads = await _reads(watcher) - before
            tg.cancel_scope.cancel()
    cluster._relay_in.close()
    cluster._relay_out.close()
    assert got[relay.channel("g1")] == list(range(200))
    assert got[relay.channel("g2")] == list(range(1000, 1200))
    # the pipeline (~40 KB in one write: Redis reads up to 16 KB at a time) and the INFO;
    # a PUBLISH awaited each was 400 reads
    assert reads <= 5, f"{reads} reads for 400 texts"


async def test_watchers_of_two_nodes_share_one_subscription_and_a_restart_ends_one_nodes(
    redis_url: str,
) -> None:
    """Relayed watchers share the node's one pub/sub connection (a channel once, however
    many watch it); texts before a watcher follows are kept for it; a node whose boot id
    changed has its watchers told to reconnect, ``PACE`` at a time, the other's go on."""
    client = Redis.from_url(redis_url, decode_responses=True)
    watching = relay.Watching(client)
    async with client:
        await client.set(directory.boot_key("x"), "bx")
        await client.set(directory.boot_key("y"), "by")
        subs = [await watching.subscribe(f"g{i % 40}", "xy"[i % 2]) for i in range(80)]
        assert len(watching.pubsub.channels) == 40
        pairs = [memory_pair() for _ in subs]
        outboxes = [Outbox(server, 100) for server, _ in pairs]
        async with anyio.create_task_group() as tg:
            tg.start_soon(watching.run)
            await client.publish(relay.channel("g0"), event(0))  # before anyone follows
            await anyio.sleep(0.2)
            for sub, outbox in zip(subs, outboxes, strict=True):
                tg.start_soon(sub.follow, outbox, 0, f"b{sub.node}")
            await client.publish(relay.channel("g0"), event(1))
            over: list[int] = []  # how many of x's watchers were let go, each loop turn

            async def tick() -> None:
                while True:
                    over.append(sum(s.over.is_set() for s in subs if s.node == "x"))
                    await anyio.sleep(0)

            tg.start_soon(tick)
            await client.set(directory.boot_key("x"), "bx2")  # x restarted
            with anyio.fail_after(10):
                while not all(s.over.is_set() for s in subs if s.node == "x"):
                    await anyio.sleep(0.05)
            await anyio.sleep(0.1)
            assert not any(s.over.is_set() for s in subs if s.node == "y")
            tg.cancel_scope.cancel()
    # 40 watchers let go 32 at a time: some loop turn saw part of them gone
    assert any(0 < n < 40 for n in over), sorted(set(over))
    for i, ((_, socket), outbox) in enumerate(zip(pairs, outboxes, strict=True)):
        outbox.shut(outbox.close_code)
        await outbox.pump()
        got = []
        while socket.inbox:
            got.append(await socket.receive_text())
        if i % 40 == 0:  # g0's two watchers: the text from before they followed, then one
            assert seqs(got)[:2] == [("EventMsg", 0), ("EventMsg", 1)]
        assert socket.closed_with == (1012 if i % 2 == 0 else 1000)
