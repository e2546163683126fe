"""What a finished table leaves: nothing in a cycle (server/runtime/heap.py).

The server runs without the collector's young passes and sweeps once an hour, so a table or
a socket freed only by the collector would stay until then. Played over real sockets (seats, a
reconnect, a spectator) with the collector off: once the room is forgotten, the table, its
game, its spectators and every closed socket's protocol must already be gone, freed by
reference counting alone.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.edge.messaging import End, decode_server
from server.session.hub import Hub
from tests.server.live import WireBot, live_server, two_seats, watch


class _Found:
    """A stand-in for a weak reference to an object that takes none (the engine's Game,
    compiled by mypyc): the live object of that id and type in the collector's list, found
    when called (the collector is off, so a freed one is not there)."""

    def __init__(self, o: object) -> None:
        self.key, self.kind = id(o), type(o)

    def __call__(self) -> Any:
        return next(
            (x for x in gc.get_objects() if id(x) == self.key and type(x) is self.kind), None
        )

    def refers_to(self, o: object) -> bool:
        return id(o) == self.key and type(o) is self.kind


Ref = Callable[[], Any]


def _ref(o: object) -> Ref:
    try:
        return weakref.ref(o)
    except TypeError:  # a compiled class: no weak references
        found = _Found(o)
        assert found() is o  # the search finds a live object
        return found


def _held(refs: dict[object, Ref], o: object) -> bool:
    return any(r.refers_to(o) if isinstance(r, _Found) else r() is o for r in refs.values())


def _server_side(hub: Hub, refs: dict[object, Ref]) -> None:
    """Add weak references to every table, game, outbox and socket protocol the hub holds
    now, once per object: by its id, or by its id and a count when a freed object's id was
    given to a new one (the first socket's protocol, gone at the reconnect)."""
    for table in hub.tables.values():
        found: list[Any] = [table, table.game, table.spectators]
        outboxes = [s.outbox for s in table.room.seats if s.outbox is not None]
        for outbox in [*outboxes, *table.spectators.watchers]:
            found += [outbox, getattr(outbox.conn, "lane", None)]
        for o in found:
            if o is None or _held(refs, o):
                continue
            key: object = id(o) if id(o) not in refs else (id(o), len(refs))  # an id reused
            refs[key] = _ref(o)


async def test_a_finished_table_and_its_closed_sockets_are_freed_without_the_collector(
    tmp_path: Path,
) -> None:
    gc.collect()
    gc.disable()
    try:
        async with live_server(tmp_path, room_ttl_s=1.0, next_round_s=0.05) as (host, hub):
            ann_token, bob_token = await two_seats(host)
            ann = WireBot(host, ann_token, seed=3, batch=True)
            bob = WireBot(host, bob_token, seed=4, drop_after=40)  # a blip: a second socket
            playing = asyncio.gather(ann.play(), bob.play())
            while not hub.tables:
                await asyncio.sleep(0.01)
            (game,) = hub.tables
            watcher = asyncio.create_task(watch(host, game))
            refs: dict[object, Ref] = {}
            while not (ann.ended and bob.ended):
                _server_side(hub, refs)  # each socket's protocol, the reconnect's too
                await asyncio.sleep(0.02)
            await asyncio.wait_for(playing, 60)
            assert isinstance(decode_server((await asyncio.wait_for(watcher, 60))[-1]), End)
            while hub.tables:  # the room lingers ``room_ttl_s`` for late clients
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)  # the closing handshakes' callbacks run
            assert len(refs) >= 3 + 2 * 4  # the table's three, and four sockets' two each
            kinds = {type(r()).__name__ for r in refs.values() if r() is not None}
            assert not kinds, f"left for the collector: {sorted(kinds)}"
    finally:
        gc.enable()
