"""Bans and deletions reach a ranked game in progress: the seat of an account banned (by the
operator's CLI, another process on the same store) or deleted while seated plays the default
from then on, and the game does not count for it (server/ladder/finish.py).

The server looks every ``forfeit_sweep_s`` (and at once after a deletion) for seats of
ranked games not over yet whose account is banned, being deleted or gone
(``ranked.to_forfeit``: the live ranked games' seats by their index). Each one found is
stored as forfeited (so the game's end knows it after any restart) and handed to the hub
through ``Forfeiter``, which app.py fits over it (this package may not import session). An
account marked for deletion whose game is over by other means (an error, an abort) is
deleted here.
"""

from __future__ import annotations

import logging
from typing import Protocol

import anyio

from server.storage import accounts, ranked
from server.storage.sqlite import StorageFault, Store

log = logging.getLogger("server")


class Forfeiter(Protocol):
    def forfeit(self, game: str, index: int, why: str) -> bool:
        """The seat plays the default from now on; False when this node has no such game."""
        ...


class Forfeits:
    def __init__(self, store: Store, hub: Forfeiter) -> None:
        self.store = store
        self.hub = hub

    async def sweep(self, *_: object) -> int:
        """One look (any arguments ignored: it is also an ``on_delete`` hook): how many
        seats were handed to the hub."""
        found = await anyio.to_thread.run_sync(ranked.to_forfeit, self.store)
        handed = 0
        for game, seat, _account, why in found:
            await anyio.to_thread.run_sync(ranked.set_forfeit, self.store, game, seat, why)
            handed += self.hub.forfeit(game, seat, why)
        await anyio.to_thread.run_sync(self._deleted_unseated)
        return handed

    def _deleted_unseated(self) -> None:
        for account in accounts.deleting(self.store):
            if ranked.seated(self.store, account) is None:
                accounts.delete(self.store, account, ranked.seats_json_of(self.store, account))

    async def run(self, every_s: float) -> None:
        while True:
            try:
                await self.sweep()
            except StorageFault as exc:  # the store is away (announced once): look again later
                log.warning("the sweep for banned and deleted seats waits for the store: %s", exc)
            except Exception:
                log.exception("the sweep for banned and deleted ranked seats failed")
            await anyio.sleep(every_s)
