"""``/metrics`` in Prometheus text format: what an operator watches on a running node.

One registry per app (never prometheus_client's global one: a process may hold several apps,
as the tests do). Counts that the hub already knows (rooms, tables, seats, spectators,
sockets) are read at scrape time, so the game path pays nothing for them; the game path
only counts decisions and times the step from an answer to the next question. The garbage
collector's pauses and the event loop's lag are what stop every table at once, so they are
measured too (docs/perf-notes.md, issue 14).

Nothing here names a seat, a player, a tile or a token, and nothing moves with what a seat
may not know (docs/security.md, "the invariant"): a table's decisions and step timings are
held until its hand ends, since the bots' instant answers to claim offers would count, at each
discard, the seats that could call it. The page is an operator's: it is served on a listener of
its own (``RIICHI_METRICS_PORT``, bound to ``RIICHI_METRICS_HOST``) or, on the public port, only
to ``Authorization: Bearer <RIICHI_METRICS_TOKEN>``; anyone else gets a 404 like any unknown
path (``RIICHI_METRICS=0`` turns it off).
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import itertools
import secrets
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import anyio
import uvicorn
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry
from prometheus_client import generate_latest as render
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from server.session.meter import TableMeter

if TYPE_CHECKING:
    from server.edge.limits import Guard
    from server.session.hub import Hub
    from server.session.table import Table

#: answer -> next question, and the GC's and the loop's pauses: sub-millisecond to seconds
BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
#: how often the event loop's lag is sampled
LAG_EVERY_S = 0.5


class Tally:
    """A histogram fed from the event loop's thread alone: plain counts and no lock, read at
    scrape time (prometheus_client's ``Histogram`` takes a lock for its sum and for the
    bucket, and with the labelled decision counter cost 3.7 % of a decision's instructions,
    bench.decision)."""

    def __init__(self, bounds: tuple[float, ...] = BUCKETS) -> None:
        self.bounds = bounds
        #: per bucket (the last: over every bound), not cumulative
        self.counts = [0] * (len(bounds) + 1)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value

    def buckets(self) -> list[tuple[str, float]]:
        """Cumulative counts per upper bound, as Prometheus writes them."""
        running: list[float] = list(itertools.accumulate(self.counts))
        edges = [repr(b) for b in self.bounds] + ["+Inf"]
        return list(zip(edges, running, strict=True))


def _histogram(name: str, doc: str, tallies: dict[str, Tally], label: str = "") -> Metric:
    family = HistogramMetricFamily(name, doc, labels=[label] if label else None)
    for value, tally in tallies.items():
        family.add_metric([value] if label else [], tally.buckets(), tally.sum)
    return family


class HubCollector(Collector):
    """The hub's counts, read when scraped."""

    def __init__(self, hub: Hub, guard: Guard) -> None:
        self.hub = hub
        self.guard = guard

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        rooms = GaugeMetricFamily("riichi_rooms", "rooms on this node", labels=["status"])
        counts: dict[str, int] = {}
        for room in hub.rooms.by_code.values():
            counts[room.status] = counts.get(room.status, 0) + 1
        for status in ("waiting", "playing", "finished"):
            rooms.add_metric([status], counts.get(status, 0))
        yield rooms
        yield _gauge("riichi_tables", "tables whose game runs on this node", len(hub.tables))
        seats = sum(s.connected for t in hub.tables.values() for s in t.room.seats if s.human)
        yield _gauge("riichi_seats_connected", "human seats with a live connection", seats)
        watchers = sum(len(t.spectators.watchers) for t in hub.tables.values())
        yield _gauge("riichi_spectators", "spectator streams open on this node", watchers)
        sockets = sum(self.guard.sockets.values())
        yield _gauge("riichi_sockets", "WebSockets and event streams open", sockets)
        yield _gauge("riichi_games_finished", "games finished since the node started", hub.finished)


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


class Metrics(Collector):
    """The node's registry and the instruments the game path and the lifespan feed."""

    def __init__(self, hub: Hub, guard: Guard) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        #: decisions taken: [by a seat or a bot, by the clock]
        self.decisions = [0, 0]
        self.step = Tally()
        self.gc_pause = {str(g): Tally() for g in range(3)}
        self.loop_lag = Tally()
        self.registry.register(HubCollector(hub, guard))
        self.registry.register(self)
        hub.on_table.append(self.meter)
        self._gc_started = 0.0

    def collect(self) -> Iterator[Metric]:
        decisions = CounterMetricFamily(
            "riichi_decisions",
            "answers taken at the tables (by a seat or by its clock)",
            labels=["how"],
        )
        decisions.add_metric(["answer"], self.decisions[False])
        decisions.add_metric(["timeout"], self.decisions[True])
        yield decisions
        yield _histogram(
            "riichi_step_seconds",
            "from the answer that settled an inquiry to the next inquiry asked",
            {"": self.step},
        )
        yield _histogram(
            "riichi_gc_pause_seconds",
            "garbage collector pauses (every table waits for them)",
            self.gc_pause,
            "generation",
        )
        yield _histogram(
            "riichi_event_loop_lag_seconds",
            f"how late a {LAG_EVERY_S} s sleep of the event loop wakes",
            {"": self.loop_lag},
        )

    def meter(self, table: Table) -> None:
        table.answers.meter = TableMeter(self)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_started
            self.gc_pause[str(info["generation"])].observe(pause)

    async def run(self) -> None:
        """Until cancelled: time the collector's pauses and sample the loop's lag."""
        gc.callbacks.append(self._on_gc)
        try:
            while True:
                asked = time.perf_counter()
                await anyio.sleep(LAG_EVERY_S)
                self.loop_lag.observe(max(0.0, time.perf_counter() - asked - LAG_EVERY_S))
        finally:
            gc.callbacks.remove(self._on_gc)

    def endpoint(self, token: str = "") -> Callable[[Request], Any]:
        """The page; with ``token``, only for ``Authorization: Bearer <token>`` (anyone else
        gets the 404 of an unknown path: the public port does not even say it is there)."""
        wanted = token.encode()

        async def scrape(request: Request) -> Response:
            if token:
                scheme, _, given = request.headers.get("authorization", "").partition(" ")
                ok = scheme.lower() == "bearer"
                if not (ok and secrets.compare_digest(given.strip().encode(), wanted)):
                    return Response(b"Not Found", 404, media_type="text/plain")
            return Response(render(self.registry), media_type=CONTENT_TYPE_LATEST)

        return scrape

    async def serve(self, host: str, port: int) -> None:
        """Until cancelled: the page alone on ``host:port`` (the operator's listener)."""
        app = Starlette(routes=[Route("/metrics", self.endpoint())])
        config = uvicorn.Config(app, host=host, port=port, lifespan="off", access_log=False)
        await _QuietServer(config).serve()


class _QuietServer(uvicorn.Server):
    """uvicorn's server without its signal handlers: the main server owns the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
