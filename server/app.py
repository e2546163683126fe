"""The app factory: HTTP routes, WebSocket endpoints and the lifespan that runs the games.

``create_app(settings, hub=None)`` takes its services, so tests inject a hub with an
in-memory storage or a fake engine; ``python -m server`` builds the real ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from engine.rules.bagime import bagime
from server.edge.limits import Guard, parse_list
from server.edge.names import clean_name
from server.edge.security import POLICY_VIOLATION, Shield, TrustedHosts
from server.edge.socket_lanes import SocketLanes
from server.edge.transport import WebSocketConnection
from server.edge.web import error
from server.ladder import finish, lobbies
from server.ladder.forfeits import Forfeits
from server.ladder.lobbies import RankedLobby
from server.ladder.queue import Queue
from server.review.jobs import Reviews
from server.routes.accounts import AccountsApi
from server.routes.games import GamesApi, Heavy
from server.routes.metrics import Metrics
from server.routes.ranked import RankedApi
from server.routes.replays import ReplayApi
from server.routes.reviews import ReviewApi
from server.routes.rooms import RoomsApi
from server.routes.tournaments import TournamentsApi
from server.runtime import heap
from server.runtime.process import refuse_in_worker
from server.runtime.shutdown import StoppingGate
from server.seats.mjai_seat import serve_mjai
from server.seats.mjai_stdio import seat_processes
from server.session.client import serve_play, serve_watcher
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.session.table import Table
from server.settings import Settings
from server.storage import persist, ranked
from server.storage.sqlite import DamagedRecord, FinishHook, Reader, Statement, StorageFault
from server.storage.stores import open_store
from server.tournament.finish import standings_hook
from server.tournament.service import BOT, Opened, TableSpec, Tournaments

if TYPE_CHECKING:
    from server.cluster.node import Cluster


def create_app(settings: Settings | None = None, hub: Hub | None = None) -> Starlette:
    refuse_in_worker("the server's start (opening its store)")
    settings = settings or Settings()
    if hub is None:
        hub = Hub(settings, open_store(settings), RealEngine())
    the_hub = hub
    cluster = join_cluster(settings, the_hub)
    if settings.mjai_commands:  # the administrator's stdio mjai bots get their processes
        the_hub.on_table.append(seat_processes(the_hub))

    guard = Guard(settings, buckets=None if cluster is None else cluster.limiter)
    accounts, ladder = join_ladder(settings, the_hub, guard, cluster)
    forfeits = Forfeits(the_hub.storage, the_hub)
    accounts.on_delete.append(forfeits.sweep)  # a deleted seat plays the default at once
    heavy = Heavy()  # one queue for every replay the engine plays for a request
    events = join_tournaments(settings, the_hub, cluster)
    tournament_api = TournamentsApi(events, accounts, guard, heavy)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # a review worker that imported this must never restore (nor, after, suspend) the
        # server's games: another process runs them (server/runtime/process.py)
        refuse_in_worker("the server's start (restoring its games)")
        async with anyio.create_task_group() as tg:
            the_hub.bind(tg, restore=False)
            await the_hub.restore_paced()  # before the server listens, as all at once was
            tg.start_soon(pending_stats, the_hub)
            tg.start_soon(ladder.queue.run, settings.ranked_draw_s)
            tg.start_soon(forfeits.run, settings.forfeit_sweep_s)
            tg.start_soon(events.run)
            if cluster is not None:
                tg.start_soon(cluster.run, the_hub)
            if metrics is not None:
                tg.start_soon(metrics.run)
                if settings.metrics_port:
                    tg.start_soon(metrics.serve, settings.metrics_host, settings.metrics_port)
            tg.start_soon(heap.collect, settings.gc_sweep_s)
            yield
            the_hub.stop()  # no-op when server/runtime/shutdown.py already stopped it
            if cluster is not None:
                await cluster.close()
            await anyio.to_thread.run_sync(review_jobs.close)
            tg.cancel_scope.cancel()

    rooms = RoomsApi(the_hub, settings, guard)
    games = GamesApi(the_hub, guard, heavy)
    replays = ReplayApi(the_hub, guard, heavy)
    review_jobs = Reviews(settings, the_hub.storage)
    review = ReviewApi(review_jobs, guard, accounts.account_of)
    metrics = Metrics(the_hub, guard) if settings.metrics else None

    async def ws_play(ws: WebSocket) -> None:
        with guard.socket(guard.client(ws.client, ws.headers)) as allowed:
            if not allowed:
                await ws.close(POLICY_VIOLATION)  # before accept: HTTP 403
                return
            await ws.accept()
            await serve_play(the_hub, WebSocketConnection(ws))

    async def ws_mjai(ws: WebSocket) -> None:
        with guard.socket(guard.client(ws.client, ws.headers)) as allowed:
            if not allowed:
                await ws.close(POLICY_VIOLATION)
                return
            await ws.accept()
            await serve_mjai(the_hub, WebSocketConnection(ws))

    async def ws_watch(ws: WebSocket) -> None:
        with guard.socket(guard.client(ws.client, ws.headers)) as allowed:
            if not allowed:
                await ws.close(POLICY_VIOLATION)
                return
            await ws.accept()
            await serve_watcher(the_hub, WebSocketConnection(ws), ws.path_params["game"])

    routes: list[BaseRoute] = [
        Route("/healthz", rooms.healthz),
        # the public port's /metrics: the operator's token only (none set: a 404 for all)
        *(
            [Route("/metrics", metrics.endpoint(settings.metrics_token))]
            if metrics is not None and settings.metrics_token
            else []
        ),
        Route("/api/presets", rooms.presets),
        Route("/api/bots", rooms.bots),
        Route("/api/rooms", rooms.list_rooms, methods=["GET"]),
        Route("/api/rooms", rooms.create_room, methods=["POST"]),
        Route("/api/rooms/{code}", rooms.get_room),
        Route("/api/rooms/{code}/join", rooms.join_room, methods=["POST"]),
        Route("/api/rooms/{code}/start", rooms.start_room, methods=["POST"]),
        Route("/api/rooms/{code}/kick", rooms.kick, methods=["POST"]),
        Route("/api/rooms/{code}/lock", rooms.lock, methods=["POST"]),
        Route("/api/games", games.list_games),
        Route("/api/games/{game}/state", games.game_state),
        Route("/api/games/{game}/events", games.game_events),
        Route("/api/games/{game}/answer", games.post_answer, methods=["POST"]),
        Route("/api/games/{game}/record", games.game_record),
        Route("/api/games/{game}/verify", games.game_verify),
        Route("/api/games/{game}/replay", replays.game_replay),
        Route("/api/games/{game}/review", review.state, methods=["GET"]),
        Route("/api/games/{game}/review", review.ask, methods=["POST"]),
        Route("/api/replay", replays.upload, methods=["POST"]),
        Route("/api/accounts", accounts.register, methods=["POST"]),
        Route("/api/account", accounts.delete, methods=["DELETE"]),
        Route("/api/account/password", accounts.change_password, methods=["POST"]),
        Route("/api/session", accounts.login, methods=["POST"]),
        Route("/api/session", accounts.whoami, methods=["GET"]),
        Route("/api/session", accounts.logout, methods=["DELETE"]),
        Route("/api/lobbies", ladder.lobby_list, methods=["GET"]),
        Route("/api/queue", ladder.join, methods=["POST"]),
        Route("/api/queue", ladder.status, methods=["GET"]),
        Route("/api/queue", ladder.leave, methods=["DELETE"]),
        Route("/api/players/{name}", ladder.player),
        Route("/api/players/{name}/games", ladder.games),
        Route("/api/leaderboard", ladder.leaderboard),
        *tournament_routes(tournament_api),
        WebSocketRoute("/ws/play", ws_play),
        WebSocketRoute("/ws/watch/{game}", ws_watch),
        WebSocketRoute("/ws/mjai", ws_mjai),
    ]
    static = Path(settings.static_dir) if settings.static_dir else _packaged_static()
    if static is not None and static.is_dir():
        routes.append(Mount("/", StaticFiles(directory=static, html=True), name="static"))
    # the Shield (headers, Origin, content type, body cap) sees every request and response
    # except the bare 500 of an unhandled exception
    shield = Middleware(Shield, settings=settings)

    async def storage_refused(request: Request, exc: Exception) -> Response:
        """A write the store refused while answering (a new room, a join): a clear 503."""
        assert isinstance(exc, StorageFault)
        the_hub.storage_failed(exc)
        response = error("storage", "the records cannot be written now; try again soon", 503)
        response.headers["Retry-After"] = "5"
        return response

    async def damaged(request: Request, exc: Exception) -> Response:
        """One record that no longer reads: a clear 500; every other one is still served."""
        return error("damaged_record", str(exc), 500)

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        # a seat's socket skips the router's layers (server/edge/socket_lanes.py); the
        # route below still names it
        middleware=[
            shield,
            # inside the Shield, so its 400 for an unknown Host carries the security headers
            Middleware(TrustedHosts, allowed_hosts=allowed_hosts(settings)),
            Middleware(SocketLanes, lanes={"/ws/play": ws_play}),
        ],
        exception_handlers={StorageFault: storage_refused, DamagedRecord: damaged},
    )
    app.state.settings = settings
    app.state.reviews = review_jobs
    app.add_middleware(StoppingGate, hub=the_hub)
    return app


class HubSeater:
    """The ranked queue's seam to the hub (server/ladder/queue.py ``Seater``): a room of the
    lobby's preset with no bots, every named account sat in the order given, so it starts."""

    def __init__(self, hub: Hub, settings: Settings) -> None:
        self.hub = hub
        self.settings = settings

    def seat(
        self, lobby: RankedLobby, names: list[str]
    ) -> tuple[str, str, list[tuple[int, str]], str]:
        room = self.hub.create(
            preset=lobby.preset,
            bots=0,
            base_s=self.settings.base_s if lobby.base_s is None else lobby.base_s,
            bank_s=self.settings.bank_s if lobby.bank_s is None else lobby.bank_s,
            advice=False,  # a ranked table never advises, whoever sits at it
        )
        room.ranked = True  # an absent seat keeps its clock (saved with the first join)
        seats = [self.hub.join(room.code, clean_name(name))[1] for name in names]
        # the last join filled the room and started it: each seat object now holds the
        # index the seed's draw gave its place
        assert room.draw is not None and all(seat.token is not None for seat in seats)
        node = "" if self.hub.peers is None else self.hub.peers.url
        return room.code, room.game, [(seat.index, seat.token or "") for seat in seats], node


def join_ladder(
    settings: Settings, hub: Hub, guard: Guard, cluster: Cluster | None
) -> tuple[AccountsApi, RankedApi]:
    """Accounts and the ranked queue: the store applies a ranked game's ratings in the
    transaction that ends it, and each table's end frees its seats and adds its stats."""
    config = lobbies.parse(settings.ranked_lobbies)
    store = hub.storage
    accounts = AccountsApi(
        store, settings, guard, shared=None if cluster is None else cluster.limiter
    )
    waiting = None if cluster is None else cluster.ranked_queue()
    queue = Queue(
        store, config, HubSeater(hub, settings), waiting, heartbeat_s=settings.queue_heartbeat_s
    )
    ladder = RankedApi(store, queue, accounts, config)
    store.finish_hook = chain(finish.ratings_hook(config), standings_hook())

    async def after(table: Table) -> None:
        await queue.ended(table.room.game)
        if table.error is None:
            await anyio.to_thread.run_sync(finish.add_stats, store, table.room.game)

    hub.on_end.append(lambda table: hub.spawn(after, table))  # at the end, not a task per game
    return accounts, ladder


def chain(*hooks: FinishHook) -> FinishHook:
    """One finishing transaction for every room that counts a game (ladder, tournaments)."""

    def hook(read: Reader, game: str, status: str, result: bytes) -> list[Statement]:
        return [s for h in hooks for s in h(read, game, status, result)]

    return hook


class HubTables:
    """The tournament service's seam to the hub (server/tournament/service.py ``Seater``):
    a private room of the tournament's preset, its bots seated at their places, the round's
    seed (duplicate walls) set before anyone joins, then the entrants joined in place order
    with the token hashes the service made (so a restart can hand the tokens out again)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    @property
    def node_url(self) -> str:
        return "" if self.hub.peers is None else self.hub.peers.url

    def open(self, spec: TableSpec) -> Opened:
        hub = self.hub
        room = hub.create(  # a tournament table never advises (Room.advises)
            preset=spec.preset,
            bots=0,
            base_s=spec.base_s,
            bank_s=spec.bank_s,
            public=False,
            advice=False,
        )
        if spec.seed is not None and spec.salt is not None:
            room.seed, room.salt = spec.seed, spec.salt
        room.sealed, room.fixed_seats = spec.sealed, spec.fixed
        for place, name in enumerate(spec.places):
            if name in spec.bots:
                room.seats[place].seat_bot(BOT)
                room.seats[place].name = name
        hub.save(room)
        draw = None if spec.fixed else list(bagime(room.seed, len(room.seats)))
        return Opened(room.code, room.game, room.commitment, draw)

    def fill(self, game: str, humans: list[tuple[str, str]]) -> None:
        room = self.hub.rooms.by_game[game]
        for name, token_hash in humans:
            self.hub.join(room.code, clean_name(name), reserved=token_hash)
        self.hub.start_if_full(room)

    def substitute(self, game: str, name: str) -> bool:
        return self.hub.substitute(game, name, BOT)

    def drop(self, game: str) -> None:
        room = self.hub.rooms.by_game.get(game)
        if room is not None and room.status == "waiting":
            self.hub.rooms.forget(room)
            persist.drop_room(self.hub.storage, game)


def join_tournaments(settings: Settings, hub: Hub, cluster: Cluster | None) -> Tournaments:
    """The tournament service on the hub; in a cluster each node seats its share of a
    round's tables (the live nodes counted in the Redis directory)."""
    service = Tournaments(hub.storage, HubTables(hub), settings.base_s, settings.bank_s)
    if cluster is not None:
        service.nodes = cluster.live_nodes
    return service


def tournament_routes(api: TournamentsApi) -> list[BaseRoute]:
    base = "/api/tournaments"
    return [
        Route(base, api.listing, methods=["GET"]),
        Route(base, api.create, methods=["POST"]),
        Route(base + "/{id}", api.get, methods=["GET"]),
        Route(base + "/{id}/entries", api.enter, methods=["POST"]),
        Route(base + "/{id}/entries", api.withdraw, methods=["DELETE"]),
        Route(base + "/{id}/rounds", api.start_round, methods=["POST"]),
        Route(base + "/{id}/seat", api.seat, methods=["GET"]),
        Route(base + "/{id}/organizers", api.add_organizer, methods=["POST"]),
        Route(base + "/{id}/penalties", api.penalize, methods=["POST"]),
        Route(base + "/{id}/substitutes", api.substitute, methods=["POST"]),
        Route(base + "/{id}/standings.csv", api.standings_csv, methods=["GET"]),
        Route(base + "/{id}/standings.json", api.standings_json, methods=["GET"]),
        Route(base + "/{id}/events", api.events, methods=["GET"]),
        Route(base + "/{id}/export.zip", api.export, methods=["GET"]),
    ]


async def pending_stats(hub: Hub) -> None:
    """Stats of ranked games counted before a restart but not yet added."""
    games = await anyio.to_thread.run_sync(ranked.stats_pending, hub.storage, hub.storage.node)
    for game in games:
        await anyio.to_thread.run_sync(finish.add_stats, hub.storage, game)


def join_cluster(settings: Settings, hub: Hub) -> Cluster | None:
    """The hub's cluster with ``redis_url`` set (imported only then: ``redis`` is optional)."""
    if not settings.redis_url:
        return None
    from server.cluster.node import Cluster

    cluster = Cluster(settings)
    cluster.attach(hub)
    hub.peers = cluster
    return cluster


def allowed_hosts(settings: Settings) -> list[str]:
    """``allowed_hosts`` as TrustedHosts' list (``*``: any)."""
    hosts = sorted(parse_list(settings.allowed_hosts))
    return hosts or ["*"]


def _packaged_static() -> Path | None:
    """The browser client: ``server/static`` in an installed wheel (setup.py maps it there),
    else the repository's top-level ``static/`` (a checkout or an editable install)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "static", here.parent / "static"):
        if (candidate / "index.html").exists():
            return candidate
    return None
