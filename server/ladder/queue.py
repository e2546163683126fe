"""The ranked queue: accounts waiting per lobby, a table formed as soon as a lobby holds
enough of them, and the seat each was given until its game is over.

Who waits where lives in a ``Waiting``: this process's memory (``LocalWaiting``) for a server
alone, Redis for a cluster (server/cluster/queue.py, one Lua script per step, so two nodes
never pop the same account). Joining is one atomic step that refuses an account already
waiting (in any lobby) or holding a seat marker, appends it, and when the lobby holds a
table's worth pops the longest-waiting ones and marks them seated; the node that made that
step seats the table, so a table forms on one node and nobody is seated twice. The store's
ranked seats back this up across restarts (``ranked.seated``).

Seats are drawn at random (``secrets``); the game's shuffle is the server's as in every room
(committed before the first deal). Humans with accounts only: guests and bots never queue.
The queue starts games through ``Seater``, a seam app.py fits over the hub (this package
sits beside session and may not import it).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from typing import Protocol

import anyio
import msgspec

from server.ladder.lobbies import RankedLobby
from server.storage import ranked
from server.storage.sqlite import Store

#: what a join step answers besides a group to seat
QUEUED, SEATED, WAITING = "queued", "seated", "waiting"


class Grant(msgspec.Struct, frozen=True):
    """A ranked seat: the room to play in over /ws/play and the seat's token."""

    lobby: str
    code: str
    game: str
    seat: int
    token: str
    #: the node that runs the table ("" alone; its URL in a cluster)
    node: str = ""


class Seater(Protocol):
    def seat(
        self, lobby: RankedLobby, names: list[str]
    ) -> tuple[str, str, list[tuple[int, str]], str]:
        """Start a table of ``lobby`` with ``names`` sitting down in that order: (room code,
        game id, each name's seat and token, node URL). The seat is the one the seed's draw
        gave that place (engine/rules/bagime.py), not the order of ``names``."""
        ...


class Waiting(Protocol):
    """Who waits in which lobby, and the seat markers of those popped for a table."""

    async def join(
        self, account: int, name: str, lobby: str, players: int
    ) -> list[tuple[int, str]] | str:
        """QUEUED or SEATED (refused), WAITING, or the ``players`` accounts (with their
        names) popped for a table, each now marked seated."""
        ...

    async def leave(self, account: int) -> bool: ...

    async def where(self, account: int) -> tuple[str, float, int] | None:
        """(lobby, queued at, accounts waiting there) or None."""
        ...

    async def counts(self, lobbies: list[str]) -> dict[str, int]: ...

    async def put_grant(self, account: int, grant: bytes) -> None: ...

    async def grant(self, account: int) -> bytes | None:
        """The seat marker: a grant, b"" while its table forms, None without one."""
        ...

    async def release(self, accounts: list[int]) -> None:
        """Their game is over (or never started): the seat markers go."""
        ...

    async def requeue(self, lobby: str, group: list[tuple[int, str]]) -> None:
        """Put a popped group back at the front of the lobby's queue (markers gone)."""
        ...


class QueueError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


REFUSALS = {
    QUEUED: "already in a ranked queue: leave it first",
    SEATED: "already seated at a ranked table",
}


class Queue:
    def __init__(
        self,
        store: Store,
        lobbies: Mapping[str, RankedLobby],
        seater: Seater,
        waiting: Waiting | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lobbies = lobbies
        self.seater = seater
        self.waiting: Waiting = waiting or LocalWaiting(clock)
        self.clock = clock
        #: tables formed by this process, for the bench and metrics
        self.formed = 0

    async def join(self, account: int, name: str, lobby: str) -> None:
        """Queue ``account`` (raises QueueError); a full table starts at once, here."""
        config = self.lobbies.get(lobby)
        if config is None:
            known = sorted(self.lobbies)
            raise QueueError("no_lobby", f"no ranked lobby {lobby!r}; one of {known}")
        if await anyio.to_thread.run_sync(ranked.seated, self.store, account) is not None:
            raise QueueError(SEATED, REFUSALS[SEATED])
        group = await self.waiting.join(account, name, lobby, config.players)
        if group == SEATED and await self._stale(account):
            await self.waiting.release([account])
            group = await self.waiting.join(account, name, lobby, config.players)
        if isinstance(group, str):
            if group in REFUSALS:
                raise QueueError(group, REFUSALS[group])
            return
        await self._form(config, group)

    async def _form(self, config: RankedLobby, group: list[tuple[int, str]]) -> None:
        """Seat ``group``, unless one of them was banned (or deleted) while waiting: that
        one goes, the others go back to the front of the queue."""
        accounts = [a for a, _ in group]
        banned = await anyio.to_thread.run_sync(ranked.banned_among, self.store, accounts)
        if banned:
            await self.waiting.release(accounts)
            await self.waiting.requeue(config.name, [g for g in group if g[0] not in banned])
            return
        secrets.SystemRandom().shuffle(group)
        accounts = [a for a, _ in group]
        try:
            code, game, seats, node = self.seater.seat(config, [n for _, n in group])
        except Exception as exc:  # no room for a table (stopping, full): they wait on, first
            await self.waiting.release(accounts)
            await self.waiting.requeue(config.name, group)
            raise QueueError("no_table", f"no table could start: {exc}") from exc
        by_seat = [0] * len(seats)  # the accounts in the seats drawn for them
        for account, (seat, _) in zip(accounts, seats, strict=True):
            by_seat[seat] = account
        ranked.add_game(self.store, game, config.name, by_seat, self.clock())
        for account, (seat, token) in zip(accounts, seats, strict=True):
            grant = Grant(config.name, code, game, seat, token, node)
            await self.waiting.put_grant(account, msgspec.json.encode(grant))
        self.formed += 1

    async def leave(self, account: int) -> bool:
        return await self.waiting.leave(account)

    async def status(self, account: int) -> dict[str, object]:
        where = await self.waiting.where(account)
        if where is not None:
            lobby, since, count = where
            return {"state": WAITING, "lobby": lobby, "since": int(since * 1000), "waiting": count}
        grant = await self.waiting.grant(account)
        if grant == b"":
            return {"state": "forming"}
        if grant is not None and not await self._stale(account):
            return {"state": SEATED, **msgspec.json.decode(grant)}
        game = await anyio.to_thread.run_sync(ranked.seated, self.store, account)
        if game is not None:  # seated before a restart: the token was given then, only then
            return {"state": "playing", "game": game}
        return {"state": "idle"}

    async def _stale(self, account: int) -> bool:
        """Whether ``account``'s seat marker outlived its game. The store ends a game before
        any client sees its end, and ``ended`` frees the markers only after: a player who
        queues again at once must not be told they are still seated. A marker still forming
        (b"") or one whose game the store has not yet ended is live."""
        grant = await self.waiting.grant(account)
        if not grant:
            return False
        game = msgspec.json.decode(grant, type=Grant).game
        seated = await anyio.to_thread.run_sync(ranked.seated, self.store, account)
        return seated != game

    async def ended(self, game: str) -> None:
        """A game is over: its seats are free for the next queue."""
        rows = await anyio.to_thread.run_sync(
            self.store.query, "SELECT account FROM ranked_seats WHERE game = ?", (game,)
        )
        accounts = [int(r[0]) for r in rows if r[0] is not None]
        if accounts:
            await self.waiting.release(accounts)


class LocalWaiting:
    """``Waiting`` in this process's memory (a server alone): every step runs without an
    await in it, so each is atomic on the event loop."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        #: lobby -> account -> (name, queued at); dicts keep arrival order
        self.queues: dict[str, dict[int, tuple[str, float]]] = {}
        self.seats: dict[int, bytes] = {}

    async def join(
        self, account: int, name: str, lobby: str, players: int
    ) -> list[tuple[int, str]] | str:
        if account in self.seats:
            return SEATED
        if any(account in q for q in self.queues.values()):
            return QUEUED
        queue = self.queues.setdefault(lobby, {})
        queue[account] = (name, self.clock())
        if len(queue) < players:
            return WAITING
        group = [(a, queue.pop(a)[0]) for a in list(queue)[:players]]
        for a, _ in group:
            self.seats[a] = b""
        return group

    async def leave(self, account: int) -> bool:
        found = [q for q in self.queues.values() if account in q]
        for queue in found:
            del queue[account]
        return bool(found)

    async def where(self, account: int) -> tuple[str, float, int] | None:
        for lobby, queue in self.queues.items():
            if account in queue:
                return lobby, queue[account][1], len(queue)
        return None

    async def counts(self, lobbies: list[str]) -> dict[str, int]:
        return {lobby: len(self.queues.get(lobby, {})) for lobby in lobbies}

    async def put_grant(self, account: int, grant: bytes) -> None:
        self.seats[account] = grant

    async def grant(self, account: int) -> bytes | None:
        return self.seats.get(account)

    async def release(self, accounts: list[int]) -> None:
        for account in accounts:
            self.seats.pop(account, None)

    async def requeue(self, lobby: str, group: list[tuple[int, str]]) -> None:
        queue = self.queues.setdefault(lobby, {})
        now = self.clock()
        front = {a: (n, now) for a, n in group}
        self.queues[lobby] = {**front, **queue}
