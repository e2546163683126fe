"""The relay's stream for one watcher on another node: every sequence number once, in order,
whatever the owner sends again (a restored table replays its game from the start)."""

from __future__ import annotations

import msgspec

from server.cluster.relay import _Stream
from server.edge.close_codes import CLOSE_MARK
from server.edge.messaging import End, EventMsg, Snapshot, decode_server, encode
from server.edge.transport import memory_pair
from server.session.outbox import Outbox


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
    return [(type(m).__name__, m.seq) for m in map(decode_server, texts) if hasattr(m, "seq")]


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
