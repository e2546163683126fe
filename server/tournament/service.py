"""The tournament service: create, enter, start rounds, seat their tables, penalties, and
what the API shows of it all.

A round starts in one transaction that stores its seating, its tables (``pending``) and,
with duplicate walls, its committed seed. Tables are then seated by the nodes: each one
claims pending tables (one atomic statement, server/storage/tournaments.py ``claim``) and
opens their rooms through ``Seater`` (app.py fits it over the hub; this package sits beside
session and may not import it), alone all of them, in a cluster its share, so a round's
tables spread over the nodes. A table's game id, code and seat tokens are stored before
anyone joins: a restart finds a claimed table whose game never began (``unstarted``) and
seats it afresh, and one whose game began resumes with the hub's other games. Its end is
counted in the transaction that marks the game finished (server/tournament/finish.py).
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, Protocol

import anyio
import msgspec

from engine.rules.config import PRESETS
from engine.rules.wall import SEED_BITS, seed_commitment
from server.storage import tournaments as rows
from server.storage.sqlite import Statement, StorageFault, Store
from server.tournament import finish, seating
from server.tournament.models import (
    NewTournament,
    Penalty,
    Summary,
    Table,
    Tournament,
    summary,
)

log = logging.getLogger("server")
#: how often each node looks for tables nobody seated yet (seconds)
POLL_S = 0.5
#: the bot that plays a bot entrant (server/session/bots.py: the strongest built in)
BOT = "strong"


class TournamentError(Exception):
    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class TableSpec(NamedTuple):
    """A room to open for one table: ``places`` in join order, ``bots`` the places a bot
    plays, the round's seed and salt (duplicate walls) or None (the room's own)."""

    preset: str
    base_s: float
    bank_s: float
    places: list[str]
    bots: set[str]
    seed: int | None
    salt: str | None
    fixed: bool
    sealed: bool


class Opened(NamedTuple):
    code: str
    game: str
    commitment: str
    #: ``draw[place]`` = seat, or None for fixed seats (the places are the seats)
    draw: list[int] | None


class Seater(Protocol):
    @property
    def node_url(self) -> str:
        """This node's URL in a cluster, "" alone."""
        ...

    def open(self, spec: TableSpec) -> Opened:
        """A room with the bots seated and the seed set; nobody has joined yet."""
        ...

    def fill(self, game: str, humans: list[tuple[str, str]]) -> None:
        """Sit the humans (name, token hash) in place order; the full room starts."""
        ...

    def drop(self, game: str) -> None:
        """Forget the waiting room of ``game`` (a crash came before it started)."""
        ...

    def substitute(self, game: str, name: str) -> bool:
        """A bot takes ``name``'s seat in the running ``game`` (False: not here)."""
        ...


class Caller(NamedTuple):
    """Who asks: an account (its id, name, whether an admin)."""

    id: int
    name: str
    admin: bool


def _nobody_else() -> Awaitable[int]:
    async def one() -> int:
        return 1

    return one()


class Tournaments:
    def __init__(
        self,
        store: Store,
        seater: Seater,
        base_s: float,
        bank_s: float,
        nodes: Callable[[], Awaitable[int]] = _nobody_else,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.seater = seater
        self.base_s = base_s
        self.bank_s = bank_s
        self.nodes = nodes
        self.clock = clock
        self._seating: anyio.Lock | None = None

    # -- organisers --

    def may_organize(self, tid: str, caller: Caller) -> bool:
        return caller.admin or rows.is_organizer(self.store, tid, caller.id)

    def create(self, caller: Caller, body: NewTournament) -> Tournament:
        """A new tournament (blocking): an admin, or an organiser of another one."""
        if not (caller.admin or rows.organizes_any(self.store, caller.id)):
            raise TournamentError("not_organizer", "only an admin or an organiser may", 403)
        tid = secrets.token_urlsafe(9)
        values = (
            *(tid, body.name, body.preset, body.rounds, body.seating),
            *(int(body.duplicate), body.fill, body.base_s, body.bank_s),
        )
        rows.create(self.store, values, caller.id, self.clock())
        return self.get(tid)

    def add_organizer(self, tid: str, caller: Caller, account: int) -> None:
        self._tournament(tid)
        if not caller.admin:
            raise TournamentError("not_organizer", "only an admin makes organisers", 403)
        rows.add_organizer(self.store, tid, account)

    def _tournament(self, tid: str) -> tuple[Any, ...]:
        row = rows.tournament(self.store, tid)
        if row is None:
            raise TournamentError("no_tournament", "no such tournament", 404)
        return row

    def _organizer(self, tid: str, caller: Caller) -> tuple[Any, ...]:
        row = self._tournament(tid)
        if not self.may_organize(tid, caller):
            raise TournamentError("not_organizer", "only this tournament's organisers may", 403)
        return row

    # -- entries --

    def enter(self, tid: str, caller: Caller) -> dict[str, Any]:
        row = self._tournament(tid)
        if row[9] != "registering":
            raise TournamentError("closed", "entries are closed: the tournament has started")
        entered = rows.enter(self.store, tid, caller.name, caller.id, self.clock())
        names = [e[0] for e in rows.entries(self.store, tid)]
        if not entered and caller.name not in names:  # the first round started meanwhile
            raise TournamentError("closed", "entries are closed: the tournament has started")
        return {"name": caller.name, "tournament": tid, "entries": len(names)}

    def withdraw(self, tid: str, caller: Caller) -> dict[str, Any]:
        row = self._tournament(tid)
        if row[9] != "registering":
            raise TournamentError("closed", "entries are closed: the tournament has started")
        if not rows.withdraw(self.store, tid, caller.name):
            raise TournamentError("not_entered", "you have not entered", 404)
        return {"name": caller.name, "tournament": tid, "withdrawn": True}

    # -- rounds --

    def start_round(self, tid: str, caller: Caller) -> int:
        """Store the next round (its tables pending) and return its number (blocking): its
        seating, with duplicate walls its committed seed, and for round 1 the bots that fill
        the last table and the balanced plan of every round, in one transaction."""
        row = self._organizer(tid, caller)
        done = self._last_round_over(row)
        size = PRESETS[row[2]].players
        names = [e[0] for e in rows.entries(self.store, tid)]
        statements: list[Statement] = []
        if done == 0:
            statements.append(rows.close_entries(tid, names))
            names, bots = self._fill(row, names, size)
            statements += rows.add_bots(tid, bots, self.clock())
        tables, plan = self._seating_of(row, names, size, done + 1)
        if plan is not None:
            statements.append(rows.set_plan(tid, _json(plan)))
        seed_text = salt = commitment = None
        if row[5]:  # duplicate walls: one seed for every table, committed now
            seed = secrets.randbits(SEED_BITS)
            seed_text, salt = str(seed), secrets.token_hex(16)
            commitment = seed_commitment(seed, salt)
        statements += rows.new_round(
            tid, done + 1, (seed_text, salt, commitment), [_json(t) for t in tables], self.clock()
        )
        try:
            self.store.transaction(statements)
        except Exception as exc:  # another request (or node) started this round first
            if rows.round_row(self.store, tid, done + 1) is not None:
                raise TournamentError("round_running", f"round {done + 1} started already") from exc
            raise
        return done + 1

    def _last_round_over(self, row: tuple[Any, ...]) -> int:
        """The number of the last round started, once every one of its games is over."""
        tid, state, done, total = row[0], row[9], int(row[10]), int(row[3])
        if state == "finished":
            raise TournamentError("finished", "the tournament is over")
        if done:
            if any(t[4] not in finish.DONE for t in rows.tables(self.store, tid, done)):
                raise TournamentError("round_running", f"round {done} is still being played")
            if done >= total:
                raise TournamentError("finished", "every round has been played")
        return done

    def _fill(
        self, row: tuple[Any, ...], names: list[str], size: int
    ) -> tuple[list[str], list[str]]:
        """The entrants and the bots that fill the last table (``fill: bots``)."""
        short = -len(names) % size
        if not names or (short and row[6] != "bots"):
            raise TournamentError(
                "entries",
                f"{len(names)} entrants do not fill tables of {size}"
                + ("" if not names else f"; {short} more, or fill: bots"),
            )
        taken = set(names)
        bots: list[str] = []
        n = 1
        while len(bots) < short:
            name = f"Bot {n}"
            if name not in taken:
                bots.append(name)
            n += 1
        return names + bots, bots

    def _seating_of(
        self, row: tuple[Any, ...], names: list[str], size: int, round_: int
    ) -> tuple[list[list[str]], Any]:
        """(this round's tables in place order, the whole plan when it is made now)."""
        tid, total = row[0], int(row[3])
        if row[4] == "balanced":
            if round_ == 1:
                plan = seating.balanced(names, total, size)
                return plan[0], plan
            plan = msgspec.json.decode(row[13] or "[]", type=list[list[list[str]]])
            return plan[round_ - 1], None
        if round_ == 1:
            order = names[:]
            secrets.SystemRandom().shuffle(order)
            return [order[i : i + size] for i in range(0, len(order), size)], None
        standing = finish.standings(self.store.query, tid)
        previous = [json_list(t[2]) for t in rows.tables(self.store, tid)]
        order = [s.name for s in standing]
        ranks = [s.rank for s in standing]
        return seating.swiss(order, previous, size, ranks=ranks), None

    # -- seating tables (on the event loop: the seater touches the hub) --

    async def run(self) -> None:
        """Until cancelled: seat again what a crash left unstarted, then every pending
        table this node may take, every ``POLL_S``."""
        recovered = False
        while True:
            try:
                if not recovered:
                    await self.recover()
                    recovered = True
                await self.seat_pending()
            except StorageFault as exc:  # the store is away: the hub waits for it, so do we
                log.warning("tournament tables wait for the store: %s", exc)
            except Exception:
                log.exception("tournament tables could not be seated")
            await anyio.sleep(POLL_S)

    async def recover(self) -> None:
        """Tables this node claimed whose game never began go back to pending."""
        node = self.store.node
        for tid, round_, tab, game in await anyio.to_thread.run_sync(
            rows.unstarted, self.store, node
        ):
            if game is not None:
                self.seater.drop(game)
            await anyio.to_thread.run_sync(self.store.transaction, rows.unclaim(tid, round_, tab))
        for tid, game in await anyio.to_thread.run_sync(rows.lost, self.store, node):
            # the restart could not replay it (aborted, never finished): no points, and the
            # round is not held up by it
            statements = await anyio.to_thread.run_sync(
                finish.finish_statements, self.store.query, tid, game, "aborted", b"{}", 0.0
            )
            await anyio.to_thread.run_sync(self.store.transaction, statements)

    async def seat_pending(self) -> int:
        """Seat this node's share of the pending tables; how many it seated. A node takes
        at most its fair share of a round's tables (the round's tables over the live nodes),
        so a round spreads over the cluster; a node that dies drops out of the count within
        seconds and the others take its share."""
        if self._seating is None:
            self._seating = anyio.Lock()
        async with self._seating:
            pending = await anyio.to_thread.run_sync(rows.pending, self.store)
            if not pending:
                return 0
            nodes = max(1, await self.nodes())
            seated = 0
            for tid, round_, tab in pending:
                shares = await anyio.to_thread.run_sync(
                    rows.shares, self.store, tid, round_, self.store.node
                )
                if shares[1] >= math.ceil(shares[0] / nodes):
                    continue
                if await self._seat_one(str(tid), int(round_), int(tab)):
                    seated += 1
            return seated

    async def _seat_one(self, tid: str, round_: int, tab: int) -> bool:
        store = self.store
        if not await anyio.to_thread.run_sync(rows.claim, store, tid, round_, tab, store.node):
            return False
        spec = await anyio.to_thread.run_sync(self._spec, tid, round_, tab)
        game = None
        try:
            opened = self.seater.open(spec)
            game = opened.game
            draw = opened.draw or list(range(len(spec.places)))
            tokens = [
                None if name in spec.bots else secrets.token_urlsafe(32) for name in spec.places
            ]
            by_seat = [""] * len(spec.places)
            seats: list[tuple[str, int, str | None]] = []
            for place, name in enumerate(spec.places):
                by_seat[draw[place]] = name
                seats.append((name, draw[place], tokens[place]))
            statements = rows.seated(
                *(tid, round_, tab, opened.game, opened.code, _json(by_seat)),
                *(opened.commitment, seats, self.seater.node_url),
            )
            await anyio.to_thread.run_sync(store.transaction, statements)
            humans = [
                (name, _hash(token))
                for name, token in zip(spec.places, tokens, strict=True)
                if token is not None
            ]
            self.seater.fill(opened.game, humans)
        except Exception:  # no room now (stopping, full): pending again, for any node
            if game is not None:
                self.seater.drop(game)
            await anyio.to_thread.run_sync(store.transaction, rows.unclaim(tid, round_, tab))
            raise
        return True

    def _spec(self, tid: str, round_: int, tab: int) -> TableSpec:
        row = self._tournament(tid)
        table = next(t for t in rows.tables(self.store, tid, round_) if int(t[1]) == tab)
        places = json_list(table[2])
        bots = {e[0] for e in rows.entries(self.store, tid) if e[2] or e[3]}
        seed = salt = None
        found = rows.round_row(self.store, tid, round_)
        if found is not None and found[0] is not None:
            seed, salt = int(found[0]), str(found[1])
        return TableSpec(
            row[2],
            float(row[7]),
            float(row[8]),
            places,
            bots & set(places),
            seed,
            salt,
            row[4] == "balanced",
            bool(row[5]),
        )

    # -- the entrant's seat --

    def seat(self, tid: str, caller: Caller) -> dict[str, Any]:
        row = self._tournament(tid)
        if caller.name not in {e[0] for e in rows.entries(self.store, tid)}:
            raise TournamentError("not_entered", "you have not entered this tournament", 404)
        if row[9] == "finished":
            return {"state": "done"}
        round_ = int(row[10])
        found = None if round_ == 0 else rows.seat_of(self.store, tid, round_, caller.name)
        if found is None or found[3] in ("pending", "claimed"):
            return {"state": "waiting"}
        tab, seat, token, status, game, code, node = found
        if status in finish.DONE:
            return {"state": "done" if round_ >= int(row[3]) else "waiting"}
        return {
            "state": "seated",
            "round": round_,
            "table": int(tab),
            "code": code,
            "game": game,
            "seat": int(seat),
            "token": token,
            "node": node or "",
        }

    # -- penalties and substitutes --

    def penalize(self, tid: str, caller: Caller, name: str, points: float, reason: str) -> Penalty:
        self._organizer(tid, caller)
        if name not in {e[0] for e in rows.entries(self.store, tid)}:
            raise TournamentError("not_entered", f"{name!r} has not entered", 404)
        if not reason.strip():
            raise TournamentError("bad_penalty", "a penalty needs a reason", 400)
        if not math.isfinite(points) or abs(points) > 10_000:
            raise TournamentError("bad_penalty", "points must be a number up to 10000", 400)
        now = self.clock()
        n = len(rows.penalties(self.store, tid)) + 1
        insert = (
            "INSERT INTO tournament_penalties (tournament, n, name, points, reason, at, by_name) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tid, n, name, points, reason.strip()[:200], now, caller.name),
        )
        self.store.transaction([insert, rows.bump(tid)])
        self.store.transaction(finish.standings_statements(self.store.query, tid, None))
        return Penalty(name, points, reason.strip()[:200], now, caller.name)

    def substitute(self, tid: str, caller: Caller, name: str) -> dict[str, Any]:
        """A bot plays ``name``'s seat in every table seated from now on (still their entry)."""
        self._organizer(tid, caller)
        if name not in {e[0] for e in rows.entries(self.store, tid)}:
            raise TournamentError("not_entered", f"{name!r} has not entered", 404)
        self.store.transaction(
            [
                (
                    "UPDATE tournament_entries SET substitute = 1 "
                    "WHERE tournament = ? AND name = ?",
                    (tid, name),
                ),
                rows.bump(tid),
            ]
        )
        return {"name": name, "substitute": True}

    async def take_over(self, tid: str, name: str) -> bool:
        """The substitute's bot takes ``name``'s seat in this round's game too, when that
        game runs on this node and is not over (on the event loop: it touches the hub)."""
        row = await anyio.to_thread.run_sync(self._tournament, tid)
        round_ = int(row[10])
        if round_ == 0:
            return False
        found = await anyio.to_thread.run_sync(rows.seat_of, self.store, tid, round_, name)
        if found is None or found[3] != "playing" or found[4] is None:
            return False
        if not self.seater.substitute(str(found[4]), name):
            return False
        await anyio.to_thread.run_sync(
            self.store.execute,
            "UPDATE tournament_seats SET token = NULL WHERE tournament = ? AND round = ? "
            "AND name = ?",
            (tid, round_, name),
        )
        return True

    # -- what the API shows --

    def listing(self) -> list[Summary]:
        return [summary(r[:15], int(r[15])) for r in rows.listing(self.store)]

    def get(self, tid: str) -> Tournament:
        row = self._tournament(tid)
        entries = rows.entries(self.store, tid)
        players = PRESETS[row[2]].players if row[2] in PRESETS else 4
        revealed = {}
        tables = []
        for t in rows.tables(self.store, tid):
            tables.append(_table(t))
        for r in range(1, int(row[10]) + 1):
            found = rows.round_row(self.store, tid, r)
            if found is not None and found[0] is not None and found[3]:
                revealed[str(r)] = str(found[0])
        standing = finish.standings(self.store.query, tid)
        return Tournament(
            id=row[0],
            name=row[1],
            preset=row[2],
            rounds=int(row[3]),
            round=int(row[10]),
            state=row[9],
            seating=row[4],
            duplicate=bool(row[5]),
            entries=[e[0] for e in entries],
            tables=tables,
            standings=list(standing),
            fill=row[6],
            base_s=float(row[7]),
            bank_s=float(row[8]),
            players=players,
            bots=[e[0] for e in entries if e[2]],
            penalties=[
                Penalty(str(p[1]), float(p[2]), str(p[3]), float(p[4]), str(p[5]))
                for p in rows.penalties(self.store, tid)
            ],
            organizers=rows.organizers(self.store, tid),
            seeds=revealed,
        )

    def version(self, tid: str) -> int | None:
        return rows.version(self.store, tid)


def _table(t: tuple[Any, ...]) -> Table:
    round_, tab, entrants, seats, status, _node, game, code, commitment, points, _ = t
    return Table(
        int(round_),
        int(tab),
        game,
        code,
        json_list(seats or entrants),
        status,
        None if points is None else msgspec.json.decode(points, type=list[float]),
        commitment,
    )


def json_list(text: str) -> list[str]:
    return msgspec.json.decode(text, type=list[str])


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _hash(token: str) -> str:
    """What a room keeps of a seat token (server/session/rooms.py ``token_hash``)."""
    return hashlib.sha256(token.encode()).hexdigest()
