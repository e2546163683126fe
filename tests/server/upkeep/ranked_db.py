"""A records database with real ranked games in it, made in-process: the hub, its real
engine and bots play each game to its end on a file store whose finish hook is the ladder's
(server/ladder/finish.py), as ``app.join_ladder`` wires it, so every standing in it was
written by the same code as on a live server, and every game replays."""

from __future__ import annotations

import time
from pathlib import Path

import anyio

from server.ladder import finish, lobbies
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.settings import Settings
from server.storage import accounts, persist, ranked
from server.storage.sqlite import Storage, Store

#: account names; each game seats four of them in turn
NAMES = ["ann", "bo", "cy", "di", "ed"]
LOBBY = "tonpuu"


async def build(
    data_dir: Path, games: int = 3, database_url: str = "", forfeit: tuple[int, int] | None = None
) -> list[str]:
    """``games`` ranked tonpuusen played and counted in ``data_dir`` (or the PostgreSQL
    database of ``database_url``); their ids. ``forfeit``: (game, seat) whose account is
    recorded as banned during that game (it does not count for that seat)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    settings = Settings(data_dir=str(data_dir), bot_pace_s=0.0, bot_think_s=0.0)
    store: Store = Storage(settings.db_path)
    if database_url:
        from server.storage.postgres import PgStore

        store.close()
        store = PgStore(database_url, node="")
    try:
        store.finish_hook = finish.ratings_hook(lobbies.parse(""))
        ids = [accounts.create(store, n, n, "-", time.time()) for n in NAMES]
        hub = Hub(settings, store, RealEngine())
        played = []
        async with anyio.create_task_group() as tg:
            hub.bind(tg)
            for i in range(games):
                room = hub.create(preset="tenhou-tonpuu", bots=4, base_s=5, bank_s=10)
                seated = [ids[(i + k) % len(ids)] for k in range(4)]
                ranked.add_game(store, room.game, LOBBY, seated, time.time())
                for seat in range(4):  # as if each account had played: the game counts
                    persist.mark_played(store, room.game, seat)
                if forfeit is not None and forfeit[0] == i:
                    ranked.set_forfeit(store, room.game, forfeit[1], "banned")
                table = hub.start(room)
                with anyio.fail_after(300):
                    await table.finished.wait()
                played.append(room.game)
            tg.cancel_scope.cancel()
        for game in played:
            finish.add_stats(store, game)
        return played
    finally:
        store.close()
