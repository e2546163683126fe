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

from server import heap
from server.games_api import GamesApi, Heavy
from server.limits import Guard
from server.metrics import Metrics
from server.mjai_seat import serve_mjai
from server.mjai_stdio import seat_processes
from server.replays import ReplayApi
from server.rooms_api import RoomsApi
from server.security import POLICY_VIOLATION, Shield
from server.session.client import serve_play, serve_watcher
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.settings import Settings
from server.shutdown import StoppingGate
from server.storage import DamagedRecord, StorageFault
from server.stores import open_store
from server.transport import WebSocketConnection
from server.web import error

if TYPE_CHECKING:
    from server.cluster.node import Cluster


def create_app(settings: Settings | None = None, hub: Hub | None = None) -> Starlette:
    settings = settings or Settings()
    if hub is None:
        hub = Hub(settings, open_store(settings), RealEngine())
    the_hub = hub
    cluster = join_cluster(settings, the_hub)
    if settings.mjai_commands:  # the administrator's stdio mjai bots get their processes
        the_hub.on_table.append(seat_processes(the_hub))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tg:
            the_hub.bind(tg)
            if cluster is not None:
                tg.start_soon(cluster.run, the_hub)
            if metrics is not None:
                tg.start_soon(metrics.run)
                if settings.metrics_port:
                    tg.start_soon(metrics.serve, settings.metrics_host, settings.metrics_port)
            tg.start_soon(heap.collect, settings.gc_sweep_s)
            yield
            the_hub.stop()  # no-op when server/shutdown.py already stopped it
            if cluster is not None:
                await cluster.close()
            tg.cancel_scope.cancel()

    guard = Guard(settings, buckets=None if cluster is None else cluster.limiter)
    rooms = RoomsApi(the_hub, settings, guard)
    heavy = Heavy()  # one queue for every replay the engine plays for a request
    games = GamesApi(the_hub, guard, heavy)
    replays = ReplayApi(the_hub, guard, heavy)
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
        Route("/api/replay", replays.upload, methods=["POST"]),
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
        middleware=[shield],
        exception_handlers={StorageFault: storage_refused, DamagedRecord: damaged},
    )
    app.state.settings = settings
    app.add_middleware(StoppingGate, hub=the_hub)
    return app


def join_cluster(settings: Settings, hub: Hub) -> Cluster | None:
    """The hub's cluster with ``redis_url`` set (imported only then: ``redis`` is optional)."""
    if not settings.redis_url:
        return None
    from server.cluster.node import Cluster

    cluster = Cluster(settings)
    cluster.attach(hub)
    return cluster


def _packaged_static() -> Path | None:
    """The browser client: ``server/static`` in an installed wheel (setup.py maps it there),
    else the repository's top-level ``static/`` (a checkout or an editable install)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "static", here.parent / "static"):
        if (candidate / "index.html").exists():
            return candidate
    return None
