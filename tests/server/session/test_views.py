"""A table takes each event's views in one call (``Table.on_views``): every seat gets exactly
the frames, and the record exactly the god view, that one call per seat (``on_event``) gives,
over a whole game, and a draw is encoded once per visibility class, not once per seat."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

import server.session.hub as hub_module
import server.session.table as compiled_table
from server.edge.codec import encode_twice
from server.edge.transport import memory_pair
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.session.outbox import Outbox
from server.session.rooms import Rooms
from server.settings import Settings
from server.storage.sqlite import Storage
from tests.interpreted import interpreted
from tests.server.harness import undrawn_seed

#: the table's interpreted twin (a compiled one binds ``encode_twice`` and its methods)
table_module = interpreted(compiled_table)


async def _play(
    seed: int, views: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[str]], str, int]:
    """Every seat's event frames, the record's replay hash and how many encodings a game of
    ``seed`` takes, its four seats connected and answered by their clocks (no thinking)."""
    hub = Hub(
        Settings(spectator_delay_s=0.0, next_round_s=0.05),
        Storage(":memory:"),
        RealEngine(),
        Rooms(lambda: seed),
    )
    encoded = 0
    real = encode_twice

    def counted(value: Any) -> Any:
        nonlocal encoded
        encoded += 1
        return real(value)

    monkeypatch.setattr(table_module, "encode_twice", counted)
    monkeypatch.setattr(hub_module, "Table", table_module.Table)
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        room = hub.rooms.create(preset="tenhou-tonpuu", bots=0, base_s=0, bank_s=0)
        for name in ("A", "B", "C", "D"):
            room, _ = hub.rooms.join(room.code, name)
        outboxes = [Outbox(memory_pair()[0], 10**9) for _ in room.seats]
        for seat, outbox in zip(room.seats, outboxes, strict=True):
            seat.outbox = outbox
        table = hub.start(room)
        if not views:
            table.on_views = None  # type: ignore[assignment,method-assign]
        with anyio.fail_after(120):
            await table.finished.wait()
        trail = table.recording.trail.mark()
        tg.cancel_scope.cancel()
    monkeypatch.undo()
    frames = [
        [t for t in outbox._queue.drain() if t.startswith('{"type":"event"')] for outbox in outboxes
    ]
    return frames, trail, encoded


async def test_one_call_per_event_gives_every_seat_and_the_record_the_same_as_one_per_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed = undrawn_seed()
    frames, trail, encoded = await _play(seed, True, monkeypatch)
    per_seat, per_seat_trail, per_seat_encoded = await _play(seed, False, monkeypatch)
    assert all(len(f) > 300 for f in frames)
    assert frames == per_seat
    assert trail == per_seat_trail
    # the per-seat path re-encodes whenever a seat's view differs from the last one encoded
    # (a draw: the others', the drawer's, the others' again, the god view), the one call not
    draws = sum('"type":"Draw"' in t for t in frames[0])
    assert draws > 50 and encoded <= per_seat_encoded - draws
