"""The games API: seed 003's polled state and answers, the SSE stream, record downloads."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from server.edge.limits import Guard, too_many
from server.edge.mailbox import Closed
from server.edge.messaging import Answer, Snapshot
from server.edge.transport import StreamConnection
from server.edge.web import bearer, error, json_response, query_int, query_number, read_body
from server.session.client import answer, serve_seat, serve_watcher
from server.session.hub import Hub
from server.session.outbox import Outbox
from server.storage import records
from server.storage.sqlite import STATUSES, GameSummary, StorageFault

#: the most games one page of ``GET /api/games`` lists
MAX_LIST = 100
#: replays (exports, verifications) run at once, each in a worker thread: a storm queues
#: instead of holding a game in memory per request
HEAVY_AT_ONCE = 2
T = TypeVar("T")
log = logging.getLogger("server")


class Heavy:
    """Work that replays a game, off the event loop and at most ``HEAVY_AT_ONCE`` at a time."""

    def __init__(self) -> None:
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, func: Callable[..., T], *args: Any) -> T:
        if self._limiter is None:  # made in the loop that uses it
            self._limiter = anyio.CapacityLimiter(HEAVY_AT_ONCE)
        return await anyio.to_thread.run_sync(func, *args, limiter=self._limiter)


class PostAnswer(msgspec.Struct, forbid_unknown_fields=True):
    token: str
    inquiry: int
    action: int
    option: int = 0


class RecordCache:
    """Exported records of finished games by (game id, format), least recently used
    dropped first: a finished record never changes, so a download storm replays it once."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], tuple[bytes, str]] = OrderedDict()
        #: exports actually computed (tests prove the cache by this)
        self.misses = 0

    def get(self, key: tuple[str, str]) -> tuple[bytes, str] | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: tuple[str, str], item: tuple[bytes, str]) -> None:
        if self.size <= 0:
            return
        self._items[key] = item
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class GamesApi:
    def __init__(self, hub: Hub, guard: Guard | None = None, heavy: Heavy | None = None) -> None:
        self.hub = hub
        self.guard = guard or Guard(hub.settings)
        self.records = RecordCache(hub.settings.record_cache)
        self.heavy = heavy or Heavy()

    async def _refused(self, request: Request) -> Response | None:
        """A replay that is not cached draws on the client's replay budget (429 when spent)."""
        client = self.guard.client(request.client, request.headers)
        return await self.guard.check_rate(self.guard.replays, client, "replays")

    async def game_state(self, request: Request) -> Response:
        game = request.path_params["game"]
        table = self.hub.tables.get(game)
        if table is None:
            return error("no_game", "no running game", 404)
        entry = self.hub.rooms.seat_of(bearer(request))
        if entry is not None and entry[0].game == game:
            return json_response(table.snapshot(entry[1].index))
        return json_response(Snapshot(*table.spectators.view()))

    async def game_events(self, request: Request) -> Response:
        game = request.path_params["game"]
        client = self.guard.client(request.client, request.headers)
        if not self.guard.open_socket(client):
            limit = self.hub.settings.max_sockets_per_client
            return too_many("too_many_sockets", f"at most {limit} open streams per client", 5)
        token = bearer(request)
        entry = self.hub.rooms.seat_of(token)
        if entry is not None and entry[0].game == game and _socket_held(entry[1].outbox):
            # the stream would replace the seat's connection: a bot author's debug stream
            # must not close its own player's WebSocket (CloseCode.REPLACED) mid-game
            self.guard.close_socket(client)
            message = "this seat plays over a WebSocket; its events arrive there"
            return error("seat_connected", message, 409)
        conn = StreamConnection(self.hub.settings.send_queue)
        if entry is not None and entry[0].game == game:
            self.hub.spawn(serve_seat, self.hub, conn, token)
        else:
            self.hub.spawn(serve_watcher, self.hub, conn, game)

        idle = self.hub.settings.ws_ping_s

        async def stream() -> AsyncIterator[str]:
            try:
                while True:
                    frame = None
                    with anyio.move_on_after(idle):
                        frame = await conn.frames.get()
                    # a comment line when idle: a peer that went away is found by the write,
                    # and proxies do not time the stream out
                    yield ": idle\n\n" if frame is None else f"data: {frame}\n\n"
            except Closed:
                return
            finally:
                self.guard.close_socket(client)
                await conn.close()

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def post_answer(self, request: Request) -> Response:
        body = await read_body(request, PostAnswer)
        if isinstance(body, Response):
            return body
        entry = self.hub.rooms.seat_of(body.token)
        if entry is None or entry[0].game != request.path_params["game"]:
            return error("bad_token", "not a seat of this game", 403)
        msg = Answer(body.inquiry, body.action, body.option)
        refused = answer(self.hub, entry[0].game, entry[1].index, msg)
        if refused is not None:
            return json_response(refused, 409)
        return json_response({"ok": True})

    async def list_games(self, request: Request) -> Response:
        """Games of public rooms by status, newest first:
        ``?status=finished&limit=20&before=<finished ms>`` (``before`` pages finished games)."""
        q = request.query_params
        status = q.get("status", "finished")
        if status not in STATUSES:
            return error("bad_status", f"status is one of {', '.join(STATUSES)}")
        try:
            limit = query_int(q, "limit", 20, 1, MAX_LIST, clamp=True)
            before = query_number(q, "before")
        except ValueError:
            return error("bad_query", "limit and before are numbers")
        storage = self.hub.storage
        if status == "finished":
            games = await anyio.to_thread.run_sync(storage.finished_games, limit, before)
        elif status == "waiting":
            games = self._waiting(limit)
        else:
            games = await anyio.to_thread.run_sync(storage.games_with_status, status, limit)
        return json_response({"games": games})

    def _waiting(self, limit: int) -> list[GameSummary]:
        rooms = [r for r in self.hub.rooms.by_code.values() if r.public and r.status == "waiting"]
        return [
            GameSummary(
                r.game,
                r.preset,
                0,
                [s.name for s in r.seats],
                msgspec.Raw(b"null"),
                "waiting",
                r.practice,
            )
            for r in rooms[:limit]
        ]

    async def game_record(self, request: Request) -> Response:
        fmt = request.query_params.get("format", "json")
        if fmt not in records.FORMATS:
            return error("bad_format", f"format must be one of {records.FORMATS}")
        hit = self.records.get((request.path_params["game"], fmt))
        if hit is not None:
            return Response(hit[0], media_type=hit[1])
        record = await anyio.to_thread.run_sync(self.hub.storage.load, request.path_params["game"])
        if record is None:
            return error("no_game", "no such game", 404)
        table = self.hub.tables.get(record.id)
        if record.status == "playing" and table is not None:
            if fmt != "json":
                return error("playing", "this format is available when the game ends", 409)
            # the spectator's view: delayed
            return json_response(records.unfinished(table.delayed(record)))
        refused = await self._refused(request)
        if refused is not None:
            return refused
        try:
            body, media = await self.heavy.run(records.export, record, fmt)
        except records.NotAvailable as exc:
            status = 409 if record.status in records.UNFINISHED else 501
            return error("not_available", str(exc), status)
        self.records.misses += 1
        if record.status == "finished":  # only a finished record can never change
            self.records.put((record.id, fmt), (body, media))
        return Response(body, media_type=media)

    async def game_verify(self, request: Request) -> Response:
        """``{"commitment_ok", "replay_ok", "practice", "failures"}`` of a game that is over:
        its seed matches the commitment every seat had, and it replays to its record. Worked
        out once (a miss draws on the client's replay budget) and kept with the record."""
        game = request.path_params["game"]
        storage = self.hub.storage
        kept = self.records.get((game, "verify"))
        if kept is None:
            verdict = await anyio.to_thread.run_sync(records.kept_verdict, storage, game)
            kept = None if verdict is None else (verdict, "application/json")
        if kept is not None:
            self.records.put((game, "verify"), kept)
            return Response(kept[0], media_type=kept[1])
        record = await anyio.to_thread.run_sync(storage.load, game)
        if record is None:
            return error("no_game", "no such game", 404)
        if record.status not in records.OVER:
            return error("playing", "a game is verified when it ends", 409)
        refused = await self._refused(request)
        if refused is not None:
            return refused
        body = msgspec.json.encode(await self.heavy.run(records.verify, record))
        try:
            await anyio.to_thread.run_sync(records.keep_verdict, storage, game, body)
        except StorageFault as exc:  # served all the same; kept when asked again
            log.warning("verdict of game %s not kept: %s", game, exc)
        self.records.put((game, "verify"), (body, "application/json"))
        return Response(body, media_type="application/json")


def _socket_held(outbox: Outbox | None) -> bool:
    """A live WebSocket (or mjai pipe) holds the seat; another SSE stream may replace one."""
    return (
        outbox is not None and not outbox.closed and not isinstance(outbox.conn, StreamConnection)
    )
