"""The tournament API (docs/protocol.md, "Tournaments"): create, list, enter, start rounds,
the entrant's seat, standings (JSON, CSV, server-sent events) and the export of every game.

Writes need an account (bearer, or cookie + CSRF, as every account write); the store work
runs in worker threads, the seating of tables on the event loop (it opens rooms on the hub).
The export replays every game with the engine, in ``Heavy``'s worker threads. While a round
of a duplicate tournament is being played the export answers ``409 round_running``: its
walls are still being played at other tables (docs/security.md).
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from server.accounts import names
from server.edge.limits import Guard, too_many
from server.edge.web import error, json_response, read_body
from server.routes.accounts import AccountsApi
from server.routes.games import Heavy
from server.storage import accounts as account_rows
from server.storage import records
from server.tournament.models import (
    BadTournament,
    Empty,
    NewPenalty,
    NewTournament,
    Organizer,
    Substitute,
    Tournament,
    check,
)
from server.tournament.service import Caller, TournamentError, Tournaments

T = TypeVar("T")
#: a request body's type (server/tournament/models.py)
B = TypeVar("B")
#: how often an events stream looks for a change (seconds)
EVENTS_POLL_S = 0.25
#: a comment line this often on an idle stream
IDLE_S = 15.0


class TournamentsApi:
    def __init__(
        self,
        service: Tournaments,
        accounts: AccountsApi,
        guard: Guard,
        heavy: Heavy | None = None,
    ) -> None:
        self.service = service
        self.store = service.store
        self.accounts = accounts
        self.guard = guard
        self.heavy = heavy or Heavy()
        #: tournament -> (when read, version): the event streams of one tournament share
        #: one read of its version per poll, and one read of it per version
        self._versions: dict[str, tuple[float, int | None]] = {}
        self._views: dict[str, tuple[int | None, Tournament]] = {}

    async def _version(self, tid: str) -> int | None:
        now = anyio.current_time()
        kept = self._versions.get(tid)
        if kept is not None and now - kept[0] < EVENTS_POLL_S:
            return kept[1]
        version = await anyio.to_thread.run_sync(self.service.version, tid)
        self._versions[tid] = (now, version)
        return version

    async def _view(self, tid: str, version: int | None) -> Tournament:
        kept = self._views.get(tid)
        if kept is not None and kept[0] == version:
            return kept[1]
        found = await anyio.to_thread.run_sync(self.service.get, tid)
        self._views[tid] = (version, found)
        return found

    async def _caller(self, request: Request) -> Caller | Response:
        auth = await self.accounts.authenticate(request)
        if isinstance(auth, Response):
            return auth
        return Caller(auth.account.id, auth.account.name, auth.account.admin)

    async def _asked(self, request: Request, kind: type[B]) -> tuple[Caller, B] | Response:
        """The signed-in caller, then the body as ``kind``: a stranger is refused before its
        body is read."""
        caller = await self._caller(request)
        if isinstance(caller, Response):
            return caller
        body = await read_body(request, kind)
        return body if isinstance(body, Response) else (caller, body)

    async def _run(self, func: Callable[..., T], *args: Any) -> T | Response:
        try:
            return await anyio.to_thread.run_sync(func, *args)
        except TournamentError as exc:
            return error(exc.code, str(exc), exc.status)

    # -- routes --

    async def create(self, request: Request) -> Response:
        caller = await self._caller(request)
        if isinstance(caller, Response):
            return caller
        raw = await read_body(request, NewTournament)
        if isinstance(raw, Response):
            return error("bad_tournament", _why(raw), 400)
        try:
            body = check(raw, self.service.base_s, self.service.bank_s)
        except BadTournament as exc:
            return error("bad_tournament", str(exc), 400)
        made = await self._run(self.service.create, caller, body)
        return made if isinstance(made, Response) else json_response(made, 201)

    async def listing(self, request: Request) -> Response:
        found = await anyio.to_thread.run_sync(self.service.listing)
        return json_response({"tournaments": found})

    async def get(self, request: Request) -> Response:
        found = await self._run(self.service.get, request.path_params["id"])
        return found if isinstance(found, Response) else json_response(found)

    async def enter(self, request: Request) -> Response:
        asked = await self._asked(request, Empty)
        if isinstance(asked, Response):
            return asked
        caller, _ = asked
        done = await self._run(self.service.enter, request.path_params["id"], caller)
        return done if isinstance(done, Response) else json_response(done, 201)

    async def withdraw(self, request: Request) -> Response:
        caller = await self._caller(request)
        if isinstance(caller, Response):
            return caller
        done = await self._run(self.service.withdraw, request.path_params["id"], caller)
        return done if isinstance(done, Response) else json_response(done)

    async def start_round(self, request: Request) -> Response:
        asked = await self._asked(request, Empty)
        if isinstance(asked, Response):
            return asked
        caller, _ = asked
        tid = request.path_params["id"]
        started = await self._run(self.service.start_round, tid, caller)
        if isinstance(started, Response):
            return started
        await self.service.seat_pending()  # this node's share at once; the rest by the others
        found = await anyio.to_thread.run_sync(self.service.get, tid)
        tables = [t for t in found.tables if t.round == started]
        return json_response({"round": started, "tables": tables}, 201)

    async def seat(self, request: Request) -> Response:
        caller = await self._caller(request)
        if isinstance(caller, Response):
            return caller
        found = await self._run(self.service.seat, request.path_params["id"], caller)
        return found if isinstance(found, Response) else json_response(found)

    async def add_organizer(self, request: Request) -> Response:
        asked = await self._asked(request, Organizer)
        if isinstance(asked, Response):
            return asked
        caller, body = asked
        account = await anyio.to_thread.run_sync(
            account_rows.by_key, self.store, names.name_key(body.name)
        )
        if account is None:
            return error("no_account", f"no account {body.name!r}", 404)
        done = await self._run(
            self.service.add_organizer, request.path_params["id"], caller, account.id
        )
        if isinstance(done, Response):
            return done
        return json_response({"name": account.name, "organizer": True}, 201)

    async def penalize(self, request: Request) -> Response:
        asked = await self._asked(request, NewPenalty)
        if isinstance(asked, Response):
            return asked
        caller, body = asked
        tid = request.path_params["id"]
        done = await self._run(
            self.service.penalize, tid, caller, body.name, body.points, body.reason
        )
        return done if isinstance(done, Response) else json_response(done, 201)

    async def substitute(self, request: Request) -> Response:
        asked = await self._asked(request, Substitute)
        if isinstance(asked, Response):
            return asked
        caller, body = asked
        tid = request.path_params["id"]
        done = await self._run(self.service.substitute, tid, caller, body.name)
        if isinstance(done, Response):
            return done
        done["now"] = await self.service.take_over(tid, body.name)
        return json_response(done, 201)

    async def standings_json(self, request: Request) -> Response:
        found = await self._run(self.service.get, request.path_params["id"])
        if isinstance(found, Response):
            return found
        return json_response({"id": found.id, "standings": found.standings})

    async def standings_csv(self, request: Request) -> Response:
        found = await self._run(self.service.get, request.path_params["id"])
        if isinstance(found, Response):
            return found
        return Response(
            standings_csv(found),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{found.id}-standings.csv"'},
        )

    async def export(self, request: Request) -> Response:
        """standings.csv, standings.json and every game's Tenhou JSON and mjai, zipped."""
        tid = request.path_params["id"]
        found = await self._run(self.service.get, tid)
        if isinstance(found, Response):
            return found
        if any(t.status not in ("finished", "aborted") for t in found.tables):
            return error("round_running", "the export is made once the round is over", 409)
        client = self.guard.client(request.client, request.headers)
        refused = await self.guard.check_rate(self.guard.replays, client, "replays")
        if refused is not None:
            return refused
        body = await self.heavy.run(export_zip, self.store, found)
        return Response(
            body,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{tid}.zip"'},
        )

    async def events(self, request: Request) -> Response:
        """SSE: ``tournament`` (the whole tournament) at once and after every change, and a
        ``standings`` event after each finished game."""
        tid = request.path_params["id"]
        first = await self._run(self.service.get, tid)
        if isinstance(first, Response):
            return first
        client = self.guard.client(request.client, request.headers)
        if not self.guard.open_socket(client):
            return too_many("too_many_sockets", "too many open streams", 5)
        return StreamingResponse(self._stream(tid, first, client), media_type="text/event-stream")

    async def _stream(self, tid: str, first: Tournament, client: str) -> AsyncIterator[str]:
        try:
            version = await anyio.to_thread.run_sync(self.service.version, tid)
            first = await anyio.to_thread.run_sync(self.service.get, tid)  # not older than it
            seen = {t.game for t in first.tables if t.status == "finished"}
            yield _event("tournament", first)
            idle = 0.0
            while True:
                await anyio.sleep(EVENTS_POLL_S)
                now = await self._version(tid)
                if now == version:
                    idle += EVENTS_POLL_S
                    if idle >= IDLE_S:
                        idle = 0.0
                        yield ": idle\n\n"
                    continue
                idle, version = 0.0, now
                found = await self._view(tid, now)
                for t in found.tables:
                    if t.status == "finished" and t.game not in seen:
                        seen.add(t.game)
                        data = {
                            "round": t.round,
                            "table": t.table,
                            "game": t.game,
                            "points": t.points,
                            "standings": found.standings,
                        }
                        yield _event("standings", data)
                yield _event("tournament", found)
        finally:
            self.guard.close_socket(client)


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {msgspec.json.encode(data).decode()}\n\n"


def _why(response: Response) -> str:
    try:
        return str(msgspec.json.decode(bytes(response.body))["message"])
    except (msgspec.DecodeError, KeyError, TypeError):
        return "the body is not a tournament"


def standings_csv(found: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    places = [f"place_{i + 1}" for i in range(found.players)]
    writer.writerow(["rank", "name", "total", "games", *places, "average_placement", "bot"])
    for s in found.standings:
        average = "" if s.average_placement is None else f"{s.average_placement:.3f}"
        rank = "" if s.rank is None else s.rank
        writer.writerow(
            [rank, s.name, f"{s.total:.1f}", s.games, *s.placements, average, int(s.bot)]
        )
    return out.getvalue()


def export_zip(store: Any, found: Tournament) -> bytes:
    """The zip (blocking: every game is replayed by the engine; a worker thread's work)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("standings.csv", standings_csv(found))
        z.writestr("standings.json", msgspec.json.encode(found.standings))
        z.writestr("tournament.json", msgspec.json.encode(found))
        for t in found.tables:
            if t.game is None or t.status != "finished":
                continue
            record = store.load(t.game)
            if record is None:
                continue
            stem = f"games/round{t.round:02d}-table{t.table:02d}-{t.game}"
            for fmt, ext in (("tenhou", "tenhou.json"), ("mjai", "mjai.jsonl")):
                body, _ = records.export(record, fmt)
                z.writestr(f"{stem}.{ext}", body)
    return buffer.getvalue()
