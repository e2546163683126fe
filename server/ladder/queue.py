"""The ranked queue: accounts waiting per lobby, the lobby's draw that seats them, and the
seat each was given until its game is over.

Who waits where lives in a ``Waiting``: this process's memory (``LocalWaiting``) for a server
alone, Redis for a cluster (server/cluster/queue.py, one Lua script per step, so two nodes
never pop the same account). Joining is one atomic step that refuses an account already
waiting (in any lobby) or holding a seat marker, and appends it with its address. Tables
are not formed by a join: every ``ranked_draw_s`` the queue draws them from everyone waiting
(server/ladder/seating.py), so queueing together chooses nobody's table; the draw's
``take`` pops a table's accounts and marks them seated in one atomic step that refuses a
table whose accounts are no longer all there, so a table forms on one node and nobody is
seated twice. The store's ranked seats back this up across restarts (``ranked.seated``).

An entry lives as long as its player does: each ``GET /api/queue`` is its heartbeat, and
one without a heartbeat for ``queue_heartbeat_s`` is dropped at the next draw, as is one
whose account has no live session left (a logout drops it at once: ``forget``).

Seats are drawn at random (``secrets``); the game's shuffle is the server's as in every room
(committed before the first deal). Humans with accounts only: guests and bots never queue.
The queue starts games through ``Seater``, a seam app.py fits over the hub (this package
sits beside session and may not import it).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Protocol

import anyio
import msgspec

from server.ladder.lobbies import RankedLobby
from server.ladder.seating import draw_tables, seat_key
from server.storage import accounts as account_rows
from server.storage import ranked
from server.storage.sqlite import StorageFault, Store

log = logging.getLogger("server")

#: what a join step answers
QUEUED, SEATED, WAITING = "queued", "seated", "waiting"
#: one waiting account as the draw sees it: (account, name, seat key)
Entry = tuple[int, str, str]


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

    async def join(self, account: int, name: str, lobby: str, key: str) -> str:
        """QUEUED or SEATED (refused), or WAITING (queued now, its heartbeat now)."""
        ...

    async def beat(self, account: int) -> None:
        """The account's player is still there (``GET /api/queue``)."""
        ...

    async def pool(self, lobby: str, stale_s: float) -> tuple[list[Entry], list[int]]:
        """Everyone waiting in ``lobby`` (arrival order), after dropping the entries
        without a heartbeat for ``stale_s`` (returned second)."""
        ...

    async def take(self, lobby: str, tables: list[list[int]]) -> list[list[Entry]]:
        """Pop each table's accounts and mark them seated, a table only when every one of
        its accounts still waits in ``lobby``: the tables taken."""
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

    async def requeue(self, lobby: str, group: list[Entry]) -> None:
        """Put a popped group back in the lobby's queue (markers gone, heartbeat now)."""
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
        heartbeat_s: float = 30.0,
    ) -> None:
        self.store = store
        self.lobbies = lobbies
        self.seater = seater
        self.waiting: Waiting = waiting or LocalWaiting(clock)
        self.clock = clock
        #: an entry without a ``GET /api/queue`` for this long is dropped at the next draw
        self.heartbeat_s = heartbeat_s
        self.rng = secrets.SystemRandom()
        #: tables formed by this process, for the bench and metrics
        self.formed = 0

    async def join(self, account: int, name: str, lobby: str, address: str = "") -> None:
        """Queue ``account`` (raises QueueError) from ``address`` (the client's, for the
        draw's seating rule); its table forms at a later draw."""
        config = self.lobbies.get(lobby)
        if config is None:
            known = sorted(self.lobbies)
            raise QueueError("no_lobby", f"no ranked lobby {lobby!r}; one of {known}")
        if await anyio.to_thread.run_sync(ranked.seated, self.store, account) is not None:
            raise QueueError(SEATED, REFUSALS[SEATED])
        key = seat_key(address) if address else f"account:{account}"
        joined = await self.waiting.join(account, name, lobby, key)
        if joined == SEATED and await self._stale(account):
            await self.waiting.release([account])
            joined = await self.waiting.join(account, name, lobby, key)
        if joined in REFUSALS:
            raise QueueError(joined, REFUSALS[joined])

    async def run(self, every_s: float) -> None:
        """Draw every lobby's tables every ``every_s`` seconds, for as long as the server
        runs (one lobby's failure is logged, never the end of the queue)."""
        while True:
            await anyio.sleep(every_s)
            for lobby in list(self.lobbies):
                try:
                    await self.draw(lobby)
                except StorageFault as exc:  # the store is away: the next draw tries again
                    log.warning("the draw of ranked lobby %s waits for the store: %s", lobby, exc)
                except Exception:
                    log.exception("the draw of ranked lobby %s failed", lobby)

    async def draw(self, lobby: str) -> int:
        """One draw of ``lobby``: stale entries and accounts without a session go, tables
        are drawn from everyone left (server/ladder/seating.py) and started; how many."""
        config = self.lobbies[lobby]
        pool, _ = await self.waiting.pool(lobby, self.heartbeat_s)
        if len(pool) < config.players:
            return 0
        accounts = [a for a, _, _ in pool]
        live = await anyio.to_thread.run_sync(
            account_rows.with_session, self.store, accounts, self.clock()
        )
        for account in set(accounts) - live:  # its last session ended (expired)
            await self.waiting.leave(account)
        pool = [e for e in pool if e[0] in live]
        tables = draw_tables([(a, k) for a, _, k in pool], config.players, self.rng)
        taken = await self.waiting.take(lobby, tables) if tables else []
        formed = 0
        for n, group in enumerate(taken):  # a table that cannot start: its group goes back
            try:
                formed += await self._form(config, group)
            except QueueError as exc:
                log.warning("a table of ranked lobby %s could not start: %s", lobby, exc)
            except StorageFault:  # the store is away: this group and the rest wait on, first
                for left in taken[n:]:
                    await self._put_back(config, left)
                raise
        return formed

    async def _put_back(self, config: RankedLobby, group: list[Entry]) -> None:
        """A taken group not seated: its markers go and it waits again, first."""
        await self.waiting.release([a for a, _, _ in group])
        await self.waiting.requeue(config.name, group)

    async def forget(self, account: int) -> None:
        """The account's last session ended (a logout): its queue entry goes."""
        if not await anyio.to_thread.run_sync(
            account_rows.with_session, self.store, [account], self.clock()
        ):
            await self.waiting.leave(account)

    async def _form(self, config: RankedLobby, group: list[Entry]) -> bool:
        """Seat ``group`` (True), unless one of them was banned (or deleted) while waiting:
        that one goes, the others go back to the queue (False)."""
        accounts = [a for a, _, _ in group]
        banned = await anyio.to_thread.run_sync(ranked.banned_among, self.store, accounts)
        if banned:
            await self.waiting.release(accounts)
            await self.waiting.requeue(config.name, [g for g in group if g[0] not in banned])
            return False
        self.rng.shuffle(group)
        accounts = [a for a, _, _ in group]
        try:
            code, game, seats, node = self.seater.seat(config, [n for _, n, _ in group])
        except Exception as exc:  # no room for a table (stopping, full): they wait on, first
            await self._put_back(config, group)
            raise QueueError("no_table", f"no table could start: {exc}") from exc
        by_seat = [0] * len(seats)  # the accounts in the seats drawn for them
        for account, (seat, _) in zip(accounts, seats, strict=True):
            by_seat[seat] = account
        ranked.add_game(self.store, game, config.name, by_seat, self.clock())
        for account, (seat, token) in zip(accounts, seats, strict=True):
            grant = Grant(config.name, code, game, seat, token, node)
            await self.waiting.put_grant(account, msgspec.json.encode(grant))
        self.formed += 1
        return True

    async def leave(self, account: int) -> bool:
        return await self.waiting.leave(account)

    async def status(self, account: int, beat: bool = False) -> dict[str, object]:
        """What ``GET /api/queue`` says; ``beat``: it is the entry's heartbeat too."""
        if beat:
            await self.waiting.beat(account)
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
        #: lobby -> account -> (name, seat key, queued at); dicts keep arrival order
        self.queues: dict[str, dict[int, tuple[str, str, float]]] = {}
        #: account -> its last heartbeat
        self.beats: dict[int, float] = {}
        self.seats: dict[int, bytes] = {}

    async def join(self, account: int, name: str, lobby: str, key: str) -> str:
        if account in self.seats:
            return SEATED
        if any(account in q for q in self.queues.values()):
            return QUEUED
        now = self.clock()
        self.queues.setdefault(lobby, {})[account] = (name, key, now)
        self.beats[account] = now
        return WAITING

    async def beat(self, account: int) -> None:
        if account in self.beats:
            self.beats[account] = self.clock()

    async def pool(self, lobby: str, stale_s: float) -> tuple[list[Entry], list[int]]:
        queue = self.queues.get(lobby, {})
        cutoff = self.clock() - stale_s
        stale = [a for a in queue if self.beats.get(a, 0.0) < cutoff]
        for account in stale:
            del queue[account]
            self.beats.pop(account, None)
        return [(a, n, k) for a, (n, k, _) in queue.items()], stale

    async def take(self, lobby: str, tables: list[list[int]]) -> list[list[Entry]]:
        queue = self.queues.get(lobby, {})
        taken: list[list[Entry]] = []
        for table in tables:
            if len(set(table)) != len(table) or not all(a in queue for a in table):
                continue
            group = []
            for a in table:
                name, key, _ = queue.pop(a)
                self.beats.pop(a, None)
                self.seats[a] = b""
                group.append((a, name, key))
            taken.append(group)
        return taken

    async def leave(self, account: int) -> bool:
        found = [q for q in self.queues.values() if account in q]
        for queue in found:
            del queue[account]
        self.beats.pop(account, None)
        return bool(found)

    async def where(self, account: int) -> tuple[str, float, int] | None:
        for lobby, queue in self.queues.items():
            if account in queue:
                return lobby, queue[account][2], len(queue)
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

    async def requeue(self, lobby: str, group: list[Entry]) -> None:
        queue = self.queues.setdefault(lobby, {})
        now = self.clock()
        front = {a: (n, k, now) for a, n, k in group}
        for a in front:
            self.beats[a] = now
        self.queues[lobby] = {**front, **queue}
