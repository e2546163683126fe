"""A start's paced restore (server/session/resume.py ``restore_paced``): every stored game
comes back, at the decision it was stored at, and the event loop runs between every two
games, so a node's restart does not hold its core (or the store) in one go."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import anyio

from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.session.table import Table
from server.settings import Settings
from server.storage.sqlite import Storage, Store

GAMES = 6


def _decisions(storage: Store, game: str) -> list[Any]:
    record = storage.load(game)
    assert record is not None
    return list(record.decisions)


async def _stored_games(settings: Settings, path: Path) -> dict[str, list[Any]]:
    """``GAMES`` all-bot games played a few decisions each, then the server stops: game ->
    its decisions stored."""
    hub = Hub(settings, Storage(path), RealEngine())
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        rooms = [
            hub.create(preset="tenhou-tonpuu", bots=4, base_s=5, bank_s=10) for _ in range(GAMES)
        ]
        for room in rooms:
            hub.start(room)
        with anyio.fail_after(60):
            while min(len(hub.storage.trails(r.game)) for r in rooms) < 12:
                await anyio.sleep(0.01)
        hub.stop()
        tg.cancel_scope.cancel()
    stored = {r.game: _decisions(hub.storage, r.game) for r in rooms}
    hub.storage.close()
    return stored


async def test_a_paced_restore_brings_every_game_back_and_yields_between_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "records.sqlite3"
    stored = await _stored_games(Settings(bot_pace_s=0.01, bot_think_s=0.0), path)
    # the bots of the restarted hub wait a minute: little is played while it is checked
    hub = Hub(Settings(bot_pace_s=60.0, bot_think_s=0.0), Storage(path), RealEngine())
    ticks = 0
    seen: list[int] = []  # the ticks counted when each table started
    hub.on_table.append(lambda _table: seen.append(ticks))

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await anyio.sleep(0)

    async with anyio.create_task_group() as tg:
        hub.bind(tg, restore=False)
        tg.start_soon(tick)
        early: list[str] = []  # a table that went live while the restore still ran

        async def watch() -> None:
            while not hub.opened.is_set():
                early.extend(g for g, t in hub.tables.items() if t.feed is None)
                await anyio.sleep(0)

        tg.start_soon(watch)
        with anyio.fail_after(60):
            await hub.restore_paced(batch=2, rest=0.5)
        done = hub.resumed
        tables: list[Table] = [hub.tables[game] for game in stored]
        # nothing was asked live before the server took its players again (a long restore
        # would have spent the first games' start grace and clocks with nobody able to come)
        assert early == []
        with anyio.fail_after(10):
            while any(t.feed is not None for t in tables):
                await anyio.sleep(0.01)
        assert (done.games, done.aborted) == (GAMES, 0)
        assert len(seen) == GAMES and all(a < b for a, b in itertools.pairwise(seen))
        for table in tables:  # each at the live point its log left, its game going on
            assert table.caught_up.is_set() and not table.finished.is_set()
        for game, decisions in stored.items():  # every stored decision kept, in its place
            assert _decisions(hub.storage, game)[: len(decisions)] == decisions
        tg.cancel_scope.cancel()
    hub.storage.close()
