"""Cluster: human-paced tables over two nodes on a real Redis and PostgreSQL, one node killed.

Node A runs on core 0 and node B on core 1 (``taskset``); the load clients, Redis and
PostgreSQL run on whichever of the two was freer just before the start (``--layout split``).
``--layout shared`` puts both nodes on core 0 and the rest on core 1. Rooms are made on one
node and joined through the other (seat reservations over Redis); each table's four clients
connect to the room's node as soon as it is full, and one spectator per table watches from
the other node (the relay over pub/sub). Players think as in bench/load.py (exponential,
mean ``--think`` s). Every client is a light socket (bench/light.py, as bench.load's): the
clients share a core with Redis, PostgreSQL and one node, so the websockets library's task
and generator parser per frame (before 2026-12-07) slowed what they measure. The records
and write-ahead decisions are in PostgreSQL (``RIICHI_DATABASE_URL``), shared by both nodes.

After ``--warmup`` s of play the bench measures ``--duration`` s of both nodes (the ``2
nodes`` row), then kills node A with SIGKILL, restarts it ``--down`` s later on the same port
and node id, and measures ``--duration`` s more, and on until A's tables are back: node B's
tables alone (they must not notice: their p99 and any connection they lost are printed
apart), and A's tables, which reconnect and resume from PostgreSQL (how many did, how long
it took, their p99 once back). The survivor's figure is B's tables' answers timed from A's
start until A's last table was back (``survivor during A's restart``), printed with what
else could have slowed them in that span: the clients' own loop lag, how long B's loop
waited for a CPU, A's CPU; and B's p99 second by second from the kill. Then every answer a
client was told was taken (``answered``) is looked for in PostgreSQL: the bench fails if one
is missing, if a window measured fewer than ``--min-decisions`` decisions, or if a table of
A did not resume. ``--solo 1`` first plays the same tables on one node alone (SQLite, no
Redis): the cluster's own cost beside it. The last line is

    cluster: N tables on K nodes, p99 X ms, survivor p99 Y ms during the restart

    python -m bench.cluster [--tables 1000] [--duration 30] [--think 2] [--solo 0]
                            [--layout split|shared]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import light  # noqa: E402
from bench.light import LightSocket  # noqa: E402
from bench.load import (  # noqa: E402
    CONNECTING,
    LIMITS,
    MIN_DECISIONS,
    TRIES,
    Seat,
    Stats,
    cpu_s,
    enough,
    file_limit,
    free_port,
    own_lag,
    percentile,
    waited_s,
)
from server.edge.codec import encode  # noqa: E402
from server.edge.messaging import End, Hello, InquiryMsg, decode_server  # noqa: E402
from tests.services import fresh_database, postgres_server, redis_server  # noqa: E402

#: the cores this bench may use, read before it pins itself to the clients' core: read
#: after, every node inherited the clients' core (every run before 2026-12-07 did)
CPUS = sorted(os.sched_getaffinity(0))
#: one loopback client plays every seat: lift the per-client limits
ENV = {
    **{f"RIICHI_{n}": "1000000" for n in ("CREATE_PER_MIN", "JOIN_PER_MIN", "LOOKUP_PER_MIN")},
    "RIICHI_MAX_OPEN_ROOMS": "1000000",
    "RIICHI_MAX_SOCKETS_PER_CLIENT": "100000",
    "RIICHI_MAX_CONNS_PER_CLIENT": "100000",
    "RIICHI_MAX_CONNECTIONS": "100000",
    "RIICHI_MAX_SOCKETS": "100000",
    "RIICHI_MAX_ROOMS": "100000",
    "RIICHI_SPECTATOR_DELAY_S": "0",
    "RIICHI_LOBBY_TTL_S": "1",
}
#: seconds a node has to stop after SIGTERM before it is killed (and the bench says so)
STOP_S = 20.0
#: seconds a node has to listen after its start (a restart restores its games first, paced)
START_S = 180.0
#: seconds a client of a killed node keeps trying to reconnect
BACK_S = 180.0
#: the wait before each try to reconnect: the browser's (static/js/net.js, BACKOFF_MS).
#: Every 0.5 s, as before 2026-12-07, A's 2,000 clients made ~4,000 refused connections a
#: second while it was down, on the core the clients share with the survivor
BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0, 10.0)


def _core(i: int) -> int:
    return CPUS[i % len(CPUS)]


def _busy() -> dict[int, int]:
    """Each core's busy ticks so far (/proc/stat: all but idle and iowait)."""
    out = {}
    for line in Path("/proc/stat").read_text().splitlines():
        name, *ticks = line.split()
        if name.startswith("cpu") and name != "cpu":
            t = [int(x) for x in ticks]
            out[int(name[3:])] = sum(t) - t[3] - t[4]
    return out


def _freer(seconds: float = 1.0) -> int:
    """Of the first two cores, the one less busy over ``seconds`` (the other engineers'
    work on this shared machine): the clients', Redis's and PostgreSQL's."""
    before = _busy()
    time.sleep(seconds)
    after = _busy()
    first, second = _core(0), _core(1)
    return min((first, second), key=lambda c: after.get(c, 0) - before.get(c, 0))


def _layout(layout: str) -> tuple[dict[str, int], int]:
    """(node name -> core, the clients' core)."""
    if layout == "shared":
        return {"solo": _core(0), "a": _core(0), "b": _core(0)}, _core(1)
    return {"solo": _core(0), "a": _core(0), "b": _core(1)}, _freer()


def _taskset(core: int) -> list[str]:
    return ["taskset", "-c", str(core)] if len(CPUS) > 1 else []


class Node:
    """One ``python -m server`` pinned to its core, restartable on its port."""

    def __init__(self, name: str, env: dict[str, str], core: int) -> None:
        self.name = name
        self.core = core
        self.port = free_port()
        self.host = f"127.0.0.1:{self.port}"
        self.data = tempfile.mkdtemp(prefix=f"riichi-cluster-{name}-")
        self.env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT), **env}
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        args = [sys.executable, "-m", "server", "--port", str(self.port), "--data-dir", self.data]
        with open(Path(self.data) / "server.log", "ab") as log:  # the child keeps its own fd
            self.proc = subprocess.Popen(
                [*_taskset(self.core), *args], cwd=ROOT, env=self.env, stdout=log, stderr=log
            )
        async with httpx.AsyncClient(base_url=f"http://{self.host}") as http:
            up_by = time.monotonic() + START_S
            while time.monotonic() < up_by:
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/healthz")).status_code == 200:
                        return
                if self.proc.poll() is not None:
                    break
                await asyncio.sleep(0.05)
        raise SystemExit(f"node {self.name} did not start: see {self.data}/server.log")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait()

    def stop(self) -> None:
        """SIGTERM; SIGKILL after ``STOP_S`` (said on stderr: a node should stop in time)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(STOP_S)
        except subprocess.TimeoutExpired:
            print(f"node {self.name} did not stop within {STOP_S:g} s: killed", file=sys.stderr)
            self.proc.kill()
            self.proc.wait()


@contextlib.asynccontextmanager
async def _nodes(
    names: list[str], env: dict[str, str], cores: dict[str, int]
) -> AsyncIterator[list[Node]]:
    nodes = [
        Node(n, {**env, "RIICHI_NODE_ID": n} if len(names) > 1 else env, cores[n]) for n in names
    ]
    try:
        for node in nodes:
            await node.start()
        yield nodes
    finally:
        for node in nodes:
            node.stop()


async def _post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """The answer, asked again while it is "not yet" (the room's directory entry may land
    a moment after the room is made); ``Dropped`` when the room's owner answered after the
    RPC deadline (it may still have seated the player: the room is left, a new one made);
    any other error stops the bench with its text."""
    for _ in range(100):
        reply = await http.post(url, json=body)
        try:
            answer: dict[str, Any] = reply.json()
        except ValueError:
            raise SystemExit(f"{url}: {reply.status_code} {reply.text[:200]}") from None
        if answer.get("code") == "node_down":
            raise Dropped(f"{url}: {answer}")
        if answer.get("code") not in ("rate_limited", "no_room"):
            if "token" not in answer:
                raise SystemExit(f"{url}: {answer}")
            return answer
        await asyncio.sleep(0.05)
    raise SystemExit(f"{url}: {answer}")


class Dropped(Exception):
    """A node dropped a request, or answered it too late (``node_down``)."""


class Table:
    """One table of the run: where it plays, its game and its four seats."""

    def __init__(self, host: str, game: str, tokens: list[str], seats: list[Seat]) -> None:
        self.host = host
        self.game = game
        self.tokens = tokens
        self.seats = seats
        #: connections this table's clients lost (and made again)
        self.lost = 0
        #: when one of its clients was welcomed back after losing its connection
        self.back_at: float | None = None
        #: decisions its clients made after they were back
        self.after = 0


async def _made(
    http: httpx.AsyncClient, made_on: str, joined_on: str
) -> tuple[str, str, list[str]]:
    """(room's host, game, four seat tokens): made on one node, joined through another."""
    body = {"name": "L0", "preset": "tenhou-tonpuu", "bots": 0, "public": False}
    grant = await _post(http, f"http://{made_on}/api/rooms", body)
    code, tokens = grant["room"]["code"], [grant["token"]]
    node = f"http://{made_on}"
    for i in range(1, 4):
        joined = await _post(http, f"http://{joined_on}/api/rooms/{code}/join", {"name": f"L{i}"})
        tokens.append(joined["token"])
        node = joined["room"].get("node") or node
    return node.removeprefix("http://"), grant["room"]["game"], tokens


class Player(Seat):
    """A seat whose answers after a reconnection count towards its table's ``after``."""

    def __init__(self, seed: int, think: float, stats: Stats, table: Table) -> None:
        super().__init__(seed, think, stats)
        self.table = table
        #: it lost its connection and is back: its answers show the table resumed
        self.back = False

    def sent(self) -> None:
        super().sent()
        self.table.after += self.back

    def _answer_on(self, sock: LightSocket, inquiry: InquiryMsg) -> None:
        """An answer whose think time outlasted its connection is not sent (the snapshot
        on the next connection asks again)."""
        if sock.transport is not None and not sock.transport.is_closing():
            super()._answer_on(sock, inquiry)


async def _connect(
    host: str,
    path: str,
    on_text: Callable[[str], None],
    first: bool,
    stop: asyncio.Event,
    gate: asyncio.Semaphore | None = None,
) -> LightSocket | None:
    """A light socket to ``host`` (at most ``gate``'s count being made at once); after a
    lost connection tried as the browser tries (``BACKOFF_S`` before each) for up to
    ``BACK_S``; None when it could not be made."""
    name, port = host.rsplit(":", 1)
    give_up = time.monotonic() + BACK_S
    tries = 0
    while time.monotonic() < give_up and not stop.is_set():
        if not first:
            await asyncio.sleep(BACKOFF_S[min(tries, len(BACKOFF_S) - 1)])
            tries += 1
        with contextlib.suppress(OSError, TimeoutError):
            async with gate or contextlib.nullcontext():
                return await light.connect(name, int(port), path, on_text, "127.0.0.1", 30)
        if first:
            await asyncio.sleep(0.5)
    return None


async def _until(stop: asyncio.Event, *waits: asyncio.Future[None]) -> None:
    """Until one of ``waits`` is done or the bench stops."""
    stopping: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait([*waits, stopping], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()


class _Session:
    """One connection of a seat: its frames read into the seat as they come."""

    def __init__(self, seat: Player) -> None:
        self.seat = seat
        self.sock: LightSocket | None = None
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_text(self, frame: str) -> None:
        now = time.perf_counter()
        for text in frame.split("\n"):
            sock = self.sock
            if sock is not None and self.seat.heard(sock, text, now) and not self.ended.done():
                self.ended.set_result(None)


async def _player(table: Table, i: int, stop: asyncio.Event, gate: asyncio.Semaphore) -> None:
    """One seat until its game ends or the bench stops, on a light socket (bench/light.py:
    frames parsed in the protocol's callback, a think time a loop timer, not a task and a
    generator parser per frame as the websockets library's client costs); a lost
    connection (its node was killed) is made again as the browser makes it."""
    seat = table.seats[i]
    assert isinstance(seat, Player)
    first = True
    while not stop.is_set():
        session = _Session(seat)
        sock = await _connect(table.host, "/ws/play", session.on_text, first, stop, gate)
        if sock is None:
            if not stop.is_set():
                seat.stats.failed.append(f"{table.game} seat {i}: no connection in {BACK_S} s")
            return
        session.sock = sock
        seat.sent_at = None  # the answer before the loss is not timed across it
        sock.send_text(encode(Hello(table.tokens[i], batch=True)))
        if first:
            seat.stats.connected += 1
        elif table.back_at is None:
            table.back_at = time.perf_counter()
        seat.back = not first
        try:
            await _until(stop, session.ended, sock.closed)
        finally:
            sock.close()
        if session.ended.done() or stop.is_set():
            return
        first = False
        table.lost += 1


class _Watcher:
    """One spectator connection: its texts counted, the game's end noted."""

    def __init__(self, seen: list[int]) -> None:
        self.seen = seen
        self.got = 0
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_text(self, text: str) -> None:
        self.got += 1
        self.seen[0] += 1
        if text.startswith('{"type":"event"') or self.ended.done():
            return
        if isinstance(decode_server(text), End):
            self.ended.set_result(None)


async def _watch(host: str, game: str, stop: asyncio.Event, seen: list[int]) -> None:
    """One spectator until the end; again while the game is not found yet (its node's
    directory write may land a moment after the start)."""
    while not stop.is_set():
        watcher = _Watcher(seen)
        sock = await _connect(host, f"/ws/watch/{game}", watcher.on_text, True, stop)
        if sock is not None:
            try:
                await _until(stop, watcher.ended, sock.closed)
            finally:
                sock.close()
        if watcher.ended.done() or watcher.got > 2:
            return
        await asyncio.sleep(0.2)


class Run:
    """The tables of one run and their clients, each node's tables with figures of their own
    (a ``Stats`` per node)."""

    def __init__(self, nodes: list[Node], args: argparse.Namespace) -> None:
        self.nodes = nodes
        self.args = args
        self.stats = {n.host: Stats() for n in nodes}
        self.tables: list[Table] = []
        self.stop = asyncio.Event()
        self.seen = [0]
        self.tasks: list[asyncio.Task[None]] = []
        #: rooms left unfilled because a node dropped a request (and made again)
        self.abandoned = 0

    async def _made_again(
        self, http: httpx.AsyncClient, n: int, hosts: list[str]
    ) -> tuple[str, str, list[str]]:
        """``_made``, made again when a node dropped a request (a keep-alive connection it
        closed as the pool reused it): the unfilled room is left, and counted."""
        for attempt in range(TRIES):
            try:
                return await _made(http, hosts[n % len(hosts)], hosts[(n + 1) % len(hosts)])
            except (httpx.TransportError, Dropped):
                self.abandoned += 1
                await asyncio.sleep(0.5 * 2**attempt)
        raise SystemExit(f"table {n}: no room after {TRIES} tries (the nodes dropped them)")

    async def seat(self) -> None:
        """Make every table and connect its clients as it fills (a full room whose players
        do not come within the start grace plays itself out by defaults)."""
        hosts = [n.host for n in self.nodes]
        gate, connecting = asyncio.Semaphore(self.args.seating), asyncio.Semaphore(CONNECTING)
        made = time.monotonic()
        async with httpx.AsyncClient(timeout=30, limits=LIMITS) as http:

            async def one(n: int) -> None:
                async with gate:
                    host, game, tokens = await self._made_again(http, n, hosts)
                stats = self.stats[host]
                table = Table(host, game, tokens, [])
                table.seats = [Player(n * 4 + i, self.args.think, stats, table) for i in range(4)]
                self.tables.append(table)
                for i in range(4):
                    self.tasks.append(asyncio.create_task(_player(table, i, self.stop, connecting)))
                other = hosts[(hosts.index(host) + 1) % len(hosts)]
                self.tasks.append(asyncio.create_task(_watch(other, game, self.stop, self.seen)))

            await asyncio.gather(*(one(n) for n in range(self.args.tables)))
        clients = 4 * self.args.tables
        while sum(s.connected for s in self.stats.values()) < clients:
            failed = [f for s in self.stats.values() for f in s.failed]
            if failed:
                raise SystemExit(f"a client could not connect: {failed[0]}")
            await asyncio.sleep(0.1)
        again = f" ({self.abandoned} rooms made again)" if self.abandoned else ""
        print(
            f"seated: {self.args.tables} tables in {time.monotonic() - made:.0f} s{again}",
            file=sys.stderr,
        )

    async def window(
        self, seconds: float, hosts: list[str], until: asyncio.Event | None = None
    ) -> dict[str, dict[str, float]]:
        """Figures of ``hosts``' tables over ``seconds`` of play (and on until ``until``
        is done): per host and in all."""
        for host in hosts:
            self.stats[host] = _fresh(self.stats[host])
        for table in self.tables:
            for seat in table.seats:
                seat.stats = self.stats[table.host]
        picked = [self.stats[h] for h in hosts]
        for s in picked:
            s.measuring = True
        cpu_before = {}
        for n in self.nodes:
            with contextlib.suppress(FileNotFoundError):  # a node killed just now
                cpu_before[n.pid] = cpu_s(n.pid)
        watched, started = self.seen[0], time.perf_counter()
        await asyncio.sleep(seconds)
        if until is not None:
            await until.wait()
        for s in picked:
            s.measuring = False
        elapsed = time.perf_counter() - started
        try:  # a node killed meanwhile has no CPU figure for the window
            cpu = sum(cpu_s(n.pid) - cpu_before[n.pid] for n in self.nodes)
        except (KeyError, FileNotFoundError):
            cpu = float("nan")
        out = {h: _figures(self.stats[h], elapsed) for h in hosts}
        merged = Stats()
        for s in picked:
            merged.latencies += s.latencies
            merged.turn += s.turn
            merged.claim += s.claim
            merged.decisions += s.decisions
        out["all"] = _figures(merged, elapsed)
        out["all"]["us"] = cpu / max(1, merged.decisions) * 1e6
        out["all"]["watched"] = (self.seen[0] - watched) / elapsed
        return out

    async def end(self) -> None:
        self.stop.set()
        _, running = await asyncio.wait(self.tasks, timeout=30)
        for task in running:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class Timed(list[float]):
    """Samples with the moment each was taken (``perf_counter``): a span's figure is read
    from the samples of a window (``during``)."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def append(self, value: float) -> None:
        super().append(value)
        self.at.append(time.perf_counter())

    def during(self, start: float, end: float) -> list[float]:
        return [v for v, t in zip(self, self.at, strict=True) if start <= t <= end]


def _fresh(old: Stats) -> Stats:
    """New figures for a window, each latency timed; the connection counts carry over."""
    stats = Stats()
    stats.latencies, stats.turn = Timed(), Timed()
    stats.connected, stats.failed = old.connected, old.failed
    return stats


class Gauges:
    """Every half second, what could slow the survivor besides its own work: how long its
    event loop has waited for a CPU, its CPU and the restarted node's, so far."""

    def __init__(self, survivor: Node, restarted: Node, clients: int) -> None:
        self.survivor, self.restarted, self.clients = survivor, restarted, clients
        #: (perf_counter, survivor's wait for a CPU, survivor's CPU, restarted node's CPU,
        #: the clients' CPU, the clients' core's busy seconds: theirs and anyone's)
        self.rows: list[tuple[float, ...]] = []

    async def run(self) -> None:
        while True:
            try:
                other = cpu_s(self.restarted.pid)
            except (FileNotFoundError, AssertionError):
                other = 0.0  # killed, or not started yet: its CPU counts from its start
            pid, tick = self.survivor.pid, os.sysconf("SC_CLK_TCK")
            busy = _busy().get(self.clients, 0) / tick
            row = (time.perf_counter(), waited_s(pid), cpu_s(pid), other, cpu_s(os.getpid()), busy)
            self.rows.append(row)
            await asyncio.sleep(0.5)

    def over(self, start: float, end: float) -> tuple[float, ...]:
        """(survivor's wait, survivor's CPU, restarted node's CPU, the clients' CPU, their
        core's busy time) in seconds between the samples nearest ``start`` and ``end``."""
        first = min(self.rows, key=lambda r: abs(r[0] - start))
        last = min(self.rows, key=lambda r: abs(r[0] - end))
        return (
            last[1] - first[1],
            last[2] - first[2],
            last[3],  # the restarted node's CPU since its start, where the span starts
            last[4] - first[4],
            last[5] - first[5],
        )


def _figures(stats: Stats, elapsed: float) -> dict[str, Any]:
    return {
        "latencies": stats.latencies,
        "turns": stats.turn,
        "n": stats.decisions,
        "decisions": stats.decisions / elapsed,
        "p50": percentile(stats.latencies, 0.5),
        "p99": percentile(stats.latencies, 0.99),
        "turn99": percentile(stats.turn, 0.99),
        "claim99": percentile(stats.claim, 0.99),
        "samples": len(stats.latencies),
    }


def _row(label: str, r: dict[str, float]) -> str:
    return (
        f"| {label} | {r['decisions']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | "
        f"{r['turn99']:.1f} | {r['claim99']:.1f} | {_us(r.get('us'))} | "
        f"{_us(r.get('watched'))} |"
    )


def _us(value: float | None) -> str:
    """A whole-run figure (per-node rows and a window with a killed node have none)."""
    return "" if value is None or value != value else f"{value:.0f}"


def _check(r: dict[str, float], what: str, least: int) -> None:
    try:
        enough(int(r["n"]), int(r["samples"]), least)
    except SystemExit as exc:
        raise SystemExit(f"{what}: {exc}") from None


async def _solo(args: argparse.Namespace, cores: dict[str, int]) -> dict[str, Any]:
    async with _nodes(["solo"], {}, cores) as nodes:
        run = Run(nodes, args)
        await run.seat()
        await asyncio.sleep(args.warmup)
        figures = (await run.window(args.duration, [nodes[0].host]))["all"]
        await run.end()
    _check(figures, "one node", args.min_decisions)
    return figures


def _stored(url: str) -> dict[tuple[str, int], int]:
    """(game, seat) -> decisions PostgreSQL holds that were not time-outs."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT game, seat, count(*) FROM decisions WHERE timeout = 0 GROUP BY game, seat"
        ).fetchall()
    return {(str(g), int(s)): int(n) for g, s, n in rows}


async def _cluster(
    args: argparse.Namespace, redis: str, database: str, cores: dict[str, int]
) -> str:
    """The two-node run with its kill; the rows it prints, and the last line."""
    env = {"RIICHI_REDIS_URL": redis, "RIICHI_DATABASE_URL": database}
    async with _nodes(["a", "b"], env, cores) as (a, b):
        await asyncio.sleep(1.5)  # both directories written
        run = Run([a, b], args)
        await run.seat()
        await asyncio.sleep(args.warmup)
        both = await run.window(args.duration, [a.host, b.host])
        print(_row("2 (Redis, PostgreSQL)", both["all"]))
        for node in (a, b):
            print(_row(f"  node {node.name}'s tables", both[node.host]), flush=True)
        lag = Stats()
        lag.client_lag, lag.measuring = Timed(), True
        gauges = Gauges(b, a, next(iter(os.sched_getaffinity(0))))
        watching = [asyncio.create_task(own_lag(lag)), asyncio.create_task(gauges.run())]
        killed_at = time.perf_counter()
        a.kill()
        all_back = asyncio.Event()
        window = asyncio.create_task(run.window(args.duration, [a.host, b.host], all_back))
        await asyncio.sleep(args.down)
        restarted_at = time.perf_counter()
        await a.start()
        started_in = time.perf_counter() - restarted_at
        watching.append(asyncio.create_task(_all_back(run, all_back)))
        after = await window
        for task in watching:
            task.cancel()
        await run.end()
    print(_row("  node b's tables, A killed", after[b.host]))
    print(_row("  node a's tables, killed and back", after[a.host]))
    mine = [t for t in run.tables if t.host == a.host]
    theirs = [t for t in run.tables if t.host == b.host]
    back = sorted(t.back_at - restarted_at for t in mine if t.back_at is not None and t.after)
    span = (restarted_at, restarted_at + (back[-1] if back else started_in))
    survived = _survivor(after[b.host], lag, gauges, span)
    print(
        f"node a killed (SIGKILL) {args.warmup + args.duration:.0f} s into play with "
        f"{len(mine)} tables; restarted {args.down:g} s later, listening {started_in:.1f} s "
        f"after; {len(back)} of its tables resumed (a decision after reconnecting), the "
        f"first client back {back[0] if back else float('nan'):.1f} s after the restart, "
        f"the last {back[-1] if back else float('nan'):.1f} s"
    )
    print(f"node b's tables: {sum(t.lost for t in theirs)} connections lost while A was down")
    print(survived)
    print(_timeline(after[b.host], killed_at, restarted_at, span[1]))
    # by the seat the server drew for each client (its join place is not where it is stored)
    acked = {(t.game, s.index): s.acked for t in run.tables for s in t.seats}
    stored = _stored(database)
    missing = {k: (n, stored.get(k, 0)) for k, n in acked.items() if stored.get(k, 0) < n}
    print(
        f"decisions: {sum(acked.values())} answers the clients were told were taken, "
        f"{sum(stored.values())} non-default decisions in PostgreSQL, "
        f"{len(missing)} seats with an answer missing"
    )
    _check(both["all"], "two nodes", args.min_decisions)
    _check(after[b.host], "node b while A was down", args.min_decisions // 2)
    if missing:
        (game, seat), (told, kept) = next(iter(missing.items()))
        raise SystemExit(f"decisions lost: {game} seat {seat} was told {told}, {kept} stored")
    if any(t.lost for t in theirs):
        raise SystemExit("node b's tables lost connections while A was down")
    if len(back) < len(mine):
        raise SystemExit(f"only {len(back)} of node a's {len(mine)} tables resumed")
    during = percentile(_timed(after[b.host]).during(*span), 0.99)
    turns = percentile(_timed(after[b.host], "turns").during(*span), 0.99)
    return (
        f"cluster: {args.tables} tables on 2 nodes, p99 {both['all']['p99']:.1f} ms, "
        f"survivor p99 {during:.1f} ms (turn p99 {turns:.1f} ms) during the restart"
    )


async def _all_back(run: Run, done: asyncio.Event) -> None:
    """Set ``done`` once every table whose connections were cut (its node was killed) has
    made a decision since (or ``BACK_S`` passed): started once the node is back up."""
    waited = time.monotonic() + BACK_S
    while time.monotonic() < waited and any(t.lost and not t.after for t in run.tables):
        await asyncio.sleep(0.5)
    done.set()


def _timed(figures: dict[str, Any], which: str = "latencies") -> Timed:
    samples = figures[which]
    assert isinstance(samples, Timed)
    return samples


def _survivor(
    figures: dict[str, Any], lag: Stats, gauges: Gauges, span: tuple[float, float]
) -> str:
    """The survivor's answers from the restarted node's start to its last table back, and
    what else in that span could have slowed them."""
    samples = _timed(figures).during(*span)
    turns = _timed(figures, "turns").during(*span)
    client_lag = lag.client_lag
    assert isinstance(client_lag, Timed)
    wait, mine, theirs, clients, busy = gauges.over(*span)
    length = span[1] - span[0]
    return (
        f"survivor (node b's tables) during A's restart (its start to its last table back, "
        f"{length:.1f} s): p50 {percentile(samples, 0.5):.1f} ms, "
        f"p99 {percentile(samples, 0.99):.1f} ms over {len(samples)} answers (turn p99 "
        f"{percentile(turns, 0.99):.1f} ms over {len(turns)}); the clients' "
        f"own loop lag p99 {percentile(client_lag.during(*span), 0.99):.1f} ms; node b's loop "
        f"waited {wait:.2f} s for a CPU ({100 * wait / max(length, 1e-9):.1f} %), used "
        f"{mine:.1f} s of CPU; node a used {theirs:.1f} s "
        f"({100 * theirs / max(length, 1e-9):.0f} % of a core); the clients used {clients:.1f} s, "
        f"their core was busy {100 * busy / max(length, 1e-9):.0f} % (all its processes)"
    )


def _timeline(figures: dict[str, Any], killed: float, restarted: float, back: float) -> str:
    """The survivor's turn p99 second by second from the kill (a claim's answer may wait
    for another player's think time): where in the restart it rose."""
    samples = _timed(figures, "turns")
    cells = []
    for i in range(int(back - killed) + 3):
        start = killed + i
        mark = "^" if start <= restarted < start + 1 else ""
        cells.append(f"{mark}{percentile(samples.during(start, start + 1), 0.99):.0f}")
    return (
        "survivor turn p99 ms, second by second from the kill (^ A started; "
        f"its last table back {back - killed:.0f} s after the kill): {' '.join(cells)}"
    )


async def _main(args: argparse.Namespace, cores: dict[str, int], clients: int) -> None:
    if args.solo:
        print(_row("1", await _solo(args, cores)), flush=True)
    with redis_server(cpu=clients) as redis, postgres_server() as pg:
        database = fresh_database(pg, "riichi")
        print(await _cluster(args, redis, database, cores))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds per window")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--down", type=float, default=3.0, help="seconds node A stays dead")
    parser.add_argument("--solo", type=int, default=0, choices=(0, 1), help="1: one node first")
    parser.add_argument("--min-decisions", type=int, default=MIN_DECISIONS)
    parser.add_argument("--seating", type=int, default=8, help="tables being made at once")
    parser.add_argument(
        "--layout",
        choices=("split", "shared"),
        default="split",
        help="split: A on core 0, B on core 1, the clients on the freer; shared: both on 0",
    )
    args = parser.parse_args()
    cores, clients = _layout(args.layout)
    # the clients, Redis and PostgreSQL (started from here: they inherit it) on one core
    os.sched_setaffinity(0, {clients})
    file_limit(5 * args.tables + args.seating + 200)  # four players and a spectator a table
    think = f"exponential, mean {args.think:g} s" if args.think else "none: saturation"
    print(f"{args.tables} tables of 4 WebSocket players (think {think}) + 1 spectator each;")
    print(
        f"node a on core {cores['a']}, node b on core {cores['b']}; clients, Redis and "
        f"PostgreSQL on core {clients} (load average {os.getloadavg()[0]:.1f})"
    )
    print(
        "| nodes | decisions/s | p50 ms | p99 ms | turn p99 | claim p99 "
        "| server us/decision | spectator msgs/s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    asyncio.run(_main(args, cores, clients))


if __name__ == "__main__":
    main()
