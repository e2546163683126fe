"""Load: N tables of four real WebSocket player clients against a server on loopback.

The server runs in its own process (``python -m server``) pinned to one core, the clients here
pinned to the other, so the server's CPU and RSS are its own. Players think as people do: an
exponential time with mean ``--think`` seconds (2 by default) before each answer (random legal
choices, wins taken); ``--think 0`` answers at once and measures saturation. Each decision is
timed from the answer being sent to the next event arriving, turns (discard, riichi, kan,
tsumo) and claims (pon, chii, ron, skip) apart; a claim's next event also waits for any
other seat offered the same tile, so its tail is that seat's think time (the ``step`` line,
from the server's metrics, is the server's own time from the settling answer on). Rooms are
made, every client connected and ``--warmup`` seconds played (the deal and first turns of
every game come at once) before the clock starts, so the figures are the steady state of
play. A table whose game ends makes a new room and plays again, so the whole window is play
at every think time (at ``--think 0`` a game lasts seconds). A window with fewer than
``--min-decisions`` decisions measured nothing: the bench exits non-zero and says so.

Then (``--floor 1``, the default) bench/floor.py runs, right after, with the same
tables, think time, window and durability (``--synchronous``), and the server's CPU per
decision is printed beside the floor's and as a ratio. The last line is

    load: N tables, p99 X ms, Y KiB per table, Z us per decision, floor F us (R x)

(without the floor it ends at ``us per decision``). The line before it says whether the
window was steady play (``window: steady play``) or why not: seating still under way, seats
timing out, the clients' core full, other processes on the server's core.

    python -m bench.load --tables 500 [--duration 30] [--think 2] [--batch 1] [--floor 1]

``--batch 0`` runs the clients of before batched frames (one message per frame): the baseline
for the send path's cost.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import light  # noqa: E402
from bench.light import LightSocket  # noqa: E402
from server.edge.codec import encode  # noqa: E402
from server.edge.messaging import (  # noqa: E402
    Answer,
    Answered,
    End,
    Hello,
    InquiryMsg,
    Snapshot,
    Welcome,
    decode_server,
)
from server.settings import Settings  # noqa: E402


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_s(pid: int) -> float:
    """Seconds the process's main thread (the server's event loop) has spent runnable but
    waiting for a CPU (/proc/PID/schedstat): what other processes on its core cost its
    tables, beside what the host steals."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: action types of an own-turn inquiry (anything else is a claim on another's tile)
TURN_TYPES = frozenset({"discard", "riichi", "tsumo", "ankan", "kakan", "kita", "kyuushu"})


#: seating that connects no client for this long has stopped (a cap, a refused socket)
STALLED_S = 90.0


def file_limit(need: int) -> None:
    """At least ``need`` file descriptors for this process and what it starts (every socket
    is one: a 6,000-table run holds 24,000 on each side). Raising the hard limit needs
    CAP_SYS_RESOURCE, which this machine's root lacks (hard limit 20,000: ~4,900 tables)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= need:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, max(need, hard)))
    except (ValueError, OSError):
        raise SystemExit(
            f"{need} file descriptors needed, the limit is {soft} (hard {hard}): "
            "run as root or raise it (ulimit -n)"
        ) from None


#: idle HTTP connections are dropped before the server's keep-alive (5 s) would close them:
#: a request sent on a connection the server is closing fails (httpx.ReadError)
LIMITS = httpx.Limits(keepalive_expiry=1.0)

#: fewer decisions than this in the window is a figure from nothing: the bench fails
MIN_DECISIONS = 200


def enough(decisions: int, samples: int, least: int) -> None:
    """Exit non-zero when the window held too few decisions (or latency samples) to mean
    anything, saying so, instead of printing figures from nothing."""
    if decisions < least or samples < least:
        raise SystemExit(
            f"measured nothing: {decisions} decisions and {samples} latency samples in the "
            f"window, at least {least} of each needed"
        )


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        #: the same samples split by what was answered
        self.turn: list[float] = []
        self.claim: list[float] = []
        self.decisions = 0
        self.games = 0
        self.connected = 0
        #: rooms left unfilled because the server dropped a request (and made again)
        self.abandoned = 0
        #: rooms made (seated) while measuring: a finished game's next one, or a retry
        self.seated_measuring = 0
        self.abandoned_measuring = 0
        #: clients that could not connect, and why
        self.failed: list[str] = []
        #: figures count only between "every client connected (+1 s)" and the end
        self.measuring = False
        #: this process's own event loop lag, sampled while measuring
        self.client_lag: list[float] = []


def choose(inquiry: InquiryMsg, rng: random.Random) -> Answer:
    for i, action in enumerate(inquiry.actions):
        if action.type in ("tsumo", "ron"):
            return Answer(inquiry.id, i, 0)
    i = rng.randrange(len(inquiry.actions))
    return Answer(inquiry.id, i, rng.randrange(len(inquiry.actions[i].options)))


class Seat:
    """One player's client state: when it last answered, and which figure that feeds."""

    def __init__(self, seed: int, think: float, stats: Stats, first: bool = True) -> None:
        self.rng = random.Random(seed)
        self.think = think
        self.stats = stats
        #: the table's first game: its connection counts towards "every client connected"
        self.first = first
        self.sent_at: float | None = None
        self.bucket: list[float] = stats.turn
        #: answers sent, measuring or not
        self.made = 0
        #: answers the server said it took (``answered``, not timed out): each was stored
        self.acked = 0
        #: the seat the server drew for this client (``welcome``): where its answers are
        #: stored, which need not be its place in the join order
        self.index = -1
        #: set once the client said hello (or could not connect): its table may make the next
        self.seated: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def sat(self) -> None:
        if not self.seated.done():
            self.seated.set_result(None)

    async def react(self, ws: Any, text: str, now: float) -> bool:
        """Handle one server message; True at the end of the game."""
        inquiry = self.read(text, now)
        if isinstance(inquiry, InquiryMsg):
            delay = self.delay(inquiry)
            if delay:
                await asyncio.sleep(delay)
            await ws.send(self.answer(inquiry))
            self.sent()
        return inquiry is END

    def heard(self, sock: LightSocket, text: str, now: float) -> bool:
        """``react`` for a light socket: the think time is a loop timer, not a sleeping task."""
        inquiry = self.read(text, now)
        if isinstance(inquiry, InquiryMsg):
            delay = self.delay(inquiry)
            if delay:
                asyncio.get_running_loop().call_later(delay, self._answer_on, sock, inquiry)
            else:
                self._answer_on(sock, inquiry)
        return inquiry is END

    def _answer_on(self, sock: LightSocket, inquiry: InquiryMsg) -> None:
        sock.send_text(self.answer(inquiry))
        self.sent()

    def read(self, text: str, now: float) -> InquiryMsg | object | None:
        """Take one server message in: an inquiry to answer, ``END`` at the end of the game,
        else None."""
        stats = self.stats
        if text.startswith('{"type":"event"'):  # the hot path: no need to decode
            if self.sent_at is not None and stats.measuring:
                stats.latencies.append(now - self.sent_at)
                self.bucket.append(now - self.sent_at)
            self.sent_at = None
            return None
        msg = decode_server(text)
        if isinstance(msg, Answered):
            self.acked += not msg.timeout
            return None
        if isinstance(msg, Welcome) and msg.seat is not None:
            self.index = msg.seat
            return None
        inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
        if isinstance(inquiry, InquiryMsg):
            return inquiry
        if isinstance(msg, End):
            stats.games += stats.measuring
            return END
        return None

    def delay(self, inquiry: InquiryMsg) -> float:
        """Seconds to think before answering (none for the between-rounds acknowledgement)."""
        if self.think and inquiry.actions[0].type != "next_round":
            return self.rng.expovariate(1 / self.think)
        return 0.0

    def answer(self, inquiry: InquiryMsg) -> str:
        """The answer's text; the figure its latency will feed is chosen here."""
        turn = any(a.type in TURN_TYPES for a in inquiry.actions)
        self.bucket = self.stats.turn if turn else self.stats.claim
        return encode(choose(inquiry, self.rng))

    def sent(self) -> None:
        self.sent_at = time.perf_counter()
        self.made += 1
        self.stats.decisions += self.stats.measuring


#: what ``Seat.read`` returns at the end of the game
END = object()


#: WebSocket handshakes in flight at once: thousands at a time time out on one core
CONNECTING = 64
#: tries of a client's handshake before it counts as failed
TRIES = 5


async def connected(url: str, gate: asyncio.Semaphore, stats: Stats) -> Any:
    """A client WebSocket, opened at most ``CONNECTING`` at a time and tried ``TRIES`` times;
    None (and the failure noted) when it cannot be."""
    for attempt in range(TRIES):
        async with gate:
            try:
                # no client-side pings: a browser sends none (the server pings every ws_ping_s)
                return await websockets.connect(
                    url, max_size=2**22, compression=None, ping_interval=None, open_timeout=30
                )
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                error = exc
        await asyncio.sleep(0.5 * 2**attempt)
    stats.failed.append(repr(error))
    return None


async def bot_client(
    url: str, token: str, seat: Seat, stop: asyncio.Event, batch: bool, gate: asyncio.Semaphore
) -> None:
    """One seat over /ws/play; with ``batch`` it reads several messages per frame."""
    ws = await connected(url, gate, seat.stats)
    if ws is None:
        seat.sat()
        return
    async with ws:
        await ws.send(encode(Hello(token, batch=batch)))
        seat.stats.connected += seat.first
        seat.sat()
        closer = asyncio.create_task(_close_on(stop, ws))
        try:
            async for frame in ws:
                assert isinstance(frame, str)
                now = time.perf_counter()
                for text in frame.split("\n") if batch else (frame,):
                    if await seat.react(ws, text, now):
                        return
        finally:
            closer.cancel()


async def light_client(
    port: int,
    token: str,
    seat: Seat,
    socks: set[LightSocket],
    batch: bool,
    gate: asyncio.Semaphore,
    source: str,
) -> None:
    """One seat over /ws/play on a light socket from loopback address ``source``; the bench
    closes what is left in ``socks`` at the end."""
    box: list[LightSocket] = []
    ended = asyncio.get_running_loop().create_future()

    def on_text(frame: str) -> None:
        now = time.perf_counter()
        for text in frame.split("\n") if batch else (frame,):
            if seat.heard(box[0], text, now) and not ended.done():
                ended.set_result(None)

    error: Exception | None = None
    for attempt in range(TRIES):
        async with gate:
            try:
                box.append(await light.connect("127.0.0.1", port, "/ws/play", on_text, source, 30))
                break
            except (OSError, TimeoutError) as exc:
                error = exc
        await asyncio.sleep(0.5 * 2**attempt)
    if not box:
        seat.stats.failed.append(repr(error))
        seat.sat()
        return
    sock = box[0]
    socks.add(sock)
    sock.send_text(encode(Hello(token, batch=batch)))
    seat.stats.connected += seat.first
    seat.sat()
    try:
        await asyncio.wait([ended, sock.closed], return_when=asyncio.FIRST_COMPLETED)
    finally:
        socks.discard(sock)
        sock.close()


async def _close_on(stop: asyncio.Event, ws: Any) -> None:
    await stop.wait()
    await ws.close()


async def seat_tokens(http: httpx.AsyncClient, n: int, stats: Stats) -> list[str]:
    """A private tonpuusen room for four clients; their seat tokens. A request whose
    connection the server dropped (a loaded server at thousands of tables) leaves its room
    unfilled, and a new one is made (counted in ``stats.abandoned``)."""
    body = {"name": "L0", "preset": "tenhou-tonpuu", "bots": 0, "public": False}
    for attempt in range(TRIES):
        try:
            grant = (await http.post("/api/rooms", json=body)).json()
            tokens = [grant["token"]]
            for i in range(1, 4):
                url = f"/api/rooms/{grant['room']['code']}/join"
                tokens.append((await http.post(url, json={"name": f"L{i}"})).json()["token"])
            return tokens
        except httpx.TransportError:
            stats.abandoned += 1
            stats.abandoned_measuring += stats.measuring
            await asyncio.sleep(0.5 * 2**attempt)
    raise SystemExit(f"table {n}: no room after {TRIES} tries (the server dropped them)")


def core_times(core: int) -> tuple[int, int]:
    """(all, stolen) clock ticks of one core so far (/proc/stat): a virtual machine's host may
    take the core away (steal), and every table on it stops meanwhile."""
    cores = sorted(os.sched_getaffinity(0) | set(range(os.cpu_count() or 1)))
    name = f"cpu{cores[core % len(cores)]} "
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith(name):
            ticks = [int(x) for x in line.split()[1:]]
            return sum(ticks[:8]), ticks[7]
    return 0, 0


#: the operator token the bench's server is started with, to read its /metrics
TOKEN = "bench-operator"


def pin(pid: int, core: int) -> None:
    """Keep a process on one core (when the machine has more than one)."""
    cores = os.sched_getaffinity(0)
    if len(cores) > 1:
        os.sched_setaffinity(pid, {sorted(cores)[core % len(cores)]})


async def scrape(http: httpx.AsyncClient) -> str:
    """The server's ``/metrics`` page now."""
    return (await http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})).text


def gc_pauses(text: str) -> dict[str, tuple[float, float]]:
    """The server's collector pauses so far, per generation: (count, seconds in all)."""
    out: dict[str, list[float]] = {}
    for line in text.splitlines():
        for at, part in enumerate(("_count", "_sum")):
            head = f'riichi_gc_pause_seconds{part}{{generation="'
            if line.startswith(head):
                out.setdefault(line[len(head)], [0.0, 0.0])[at] = float(line.rsplit(" ", 1)[1])
    return {gen: (n, t) for gen, (n, t) in out.items()}


def decided(text: str) -> dict[str, float]:
    """The server's decisions so far by how they were taken ("answer", "timeout"): counted
    when a hand ends, so a window's difference is close, not exact."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith('riichi_decisions_total{how="'):
            how, count = line[len('riichi_decisions_total{how="') :].split('"} ')
            out[how] = float(count)
    return out


def buckets(text: str, name: str) -> dict[float, float]:
    """A histogram of a ``/metrics`` page without labels: upper bound -> count so far."""
    head = f'{name}_bucket{{le="'
    out: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith(head):
            bound, count = line[len(head) :].split('"} ')
            out[float(bound)] = float(count)
    return out


def bucket_quantile(before: dict[float, float], after: dict[float, float], q: float) -> str:
    """The bucket bound under which ``q`` of the samples taken between two scrapes fell."""
    total = after.get(float("inf"), 0.0) - before.get(float("inf"), 0.0)
    if total <= 0:
        return "no samples"
    for bound in sorted(after):
        if after[bound] - before.get(bound, 0.0) >= q * total:
            return f"<= {bound * 1000:g} ms" if bound != float("inf") else "> the last bucket"
    return "?"


async def own_lag(stats: Stats, every: float = 0.01) -> None:
    """Sample this process's own loop lag while measuring: a late client inflates every
    latency it reads, and the figure should say when that happened."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        if stats.measuring:
            stats.client_lag.append(max(0.0, time.perf_counter() - asked - every))


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def server_env(root: Path, tables: int, seating: int) -> dict[str, str]:
    """The environment of a server that ``tables`` tables of loopback clients load."""
    env = {**os.environ, "RIICHI_SPECTATOR_DELAY_S": "0", "PYTHONPATH": str(root)}
    # one loopback client plays every seat of every table: lift the per-client limits
    for name in ("CREATE_PER_MIN", "JOIN_PER_MIN", "LOOKUP_PER_MIN", "MAX_OPEN_ROOMS"):
        env[f"RIICHI_{name}"] = "1000000"
    env["RIICHI_MAX_SOCKETS_PER_CLIENT"] = env["RIICHI_MAX_CONNS_PER_CLIENT"] = "100000"
    env["RIICHI_MAX_ROOMS"] = str(max(1000, 2 * tables))
    # The server fits its two caps (HTTP connections, WebSockets) into its file limit, and
    # its default of 3,000 WebSockets (issue 31) holds 750 tables: ask for what the tables
    # need, with room for the HTTP requests of the tables being seated.
    env["RIICHI_MAX_SOCKETS"] = str(4 * tables + 4 * seating + 64)
    # (the seating's requests go one at a time per table: a few hundred HTTP places leave
    # 4,800 tables' sockets inside a 20,000 file limit)
    env["RIICHI_MAX_CONNECTIONS"] = str(4 * seating + 128)
    return env


async def run(args: argparse.Namespace) -> tuple[float, float, float]:
    """Measure the server; print its figures; (p99 ms, KiB per table, us per decision)."""
    port = free_port()
    host = f"127.0.0.1:{port}"
    data = tempfile.mkdtemp(prefix="riichi-load-")
    root = Path(args.root).resolve()
    env = server_env(root, args.tables, args.seating)
    env["RIICHI_GC_SWEEP_S"] = str(args.gc_sweep)
    env["RIICHI_METRICS_TOKEN"] = TOKEN  # the operator's page
    env["RIICHI_SYNCHRONOUS"] = args.synchronous
    file_limit(4 * args.tables + args.seating + 200)  # the clients' sockets and the HTTP ones
    log = open(Path(data) / "server.log", "wb")  # noqa: SIM115  # closed once handed over
    server = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--data-dir", data],
        cwd=root,
        env=env,
        stdout=log,
        stderr=log,
    )
    log.close()  # the server holds its own
    pin(server.pid, 0)
    pin(0, 1)
    try:
        async with httpx.AsyncClient(base_url=f"http://{host}", timeout=30, limits=LIMITS) as http:
            for _ in range(200):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
            base = rss_kib(server.pid)
            gate = asyncio.Semaphore(args.seating)
            stats, stop, connecting = Stats(), asyncio.Event(), asyncio.Semaphore(CONNECTING)
            socks: set[LightSocket] = set()
            tasks: list[asyncio.Task[None]] = []

            async def table(n: int) -> None:
                """Game after game at one table until the end: a room and its four clients
                at once (a room whose humans do not connect within the server's start
                grace, 30 s, plays itself out by defaults), a new room when the game ends."""
                for game in itertools.count():
                    seats = [
                        Seat(n * 4 + i + 1_000_000 * game, args.think, stats, game == 0)
                        for i in range(4)
                    ]
                    url, batch = f"ws://{host}/ws/play", bool(args.batch)
                    source = f"127.0.{1 + n // 1000}.1"  # ~4,000 sockets per source address
                    # the next room waits for this one's clients: rooms made faster than
                    # their clients connect outlive the start grace and play by defaults at
                    # full speed (the server stalled and dropped HTTP requests: ReadError)
                    async with gate:
                        stats.seated_measuring += stats.measuring
                        four = await seat_tokens(http, n, stats)
                        clients = [
                            asyncio.create_task(
                                light_client(port, token, seat, socks, batch, connecting, source)
                                if args.clients == "light"
                                else bot_client(url, token, seat, stop, batch, connecting)
                            )
                            for token, seat in zip(four, seats, strict=True)
                        ]
                        await asyncio.gather(*(seat.seated for seat in seats))
                    await asyncio.gather(*clients)
                    if stop.is_set() or stats.failed:
                        return

            made = time.monotonic()
            tasks.extend(asyncio.create_task(table(n)) for n in range(args.tables))
            clients, shown = 4 * args.tables, time.monotonic()
            moved, last = time.monotonic(), stats.connected
            while stats.connected + len(stats.failed) < clients:  # the steady state only
                await asyncio.sleep(0.05)
                if stats.connected != last:
                    moved, last = time.monotonic(), stats.connected
                elif time.monotonic() - moved > STALLED_S:
                    raise SystemExit(
                        f"seating stalled: {last} of {clients} clients connected, none for "
                        f"{STALLED_S:.0f} s (the server's log: {data}/server.log)"
                    )
                failed = [t for t in tasks if t.done() and t.exception() is not None]
                if failed:
                    raise SystemExit(
                        f"a table failed while seating: {failed[0].exception()!r} "
                        f"(the server's log: {data}/server.log)"
                    )
                if time.monotonic() - shown > 10:
                    shown = time.monotonic()
                    print(f"connecting: {stats.connected} of {clients}", file=sys.stderr)
            print(
                f"seated: {args.tables} tables in {time.monotonic() - made:.0f} s", file=sys.stderr
            )
            if stats.failed:
                raise SystemExit(
                    f"{len(stats.failed)} clients could not connect: {stats.failed[0]}"
                )
            # every game starts within the seconds its clients connect: dealing, welcomes
            # and the first discards of all of them at once are a start-up burst (first
            # answers waited up to a second at 1,000 tables), not what players meet later
            await asyncio.sleep(args.warmup)
            # the clients' own collector must not stop them all at once: their latency
            # figures would show the load process's pauses, not the server's (thousands of
            # browsers would not pause together). Frozen, then off while measuring: with
            # answers seconds apart its young passes grew as the server's did, and at 2,000
            # tables they put 300 ms on the turn p99 by themselves
            gc.collect()
            gc.freeze()
            gc.disable()
            # that full pass stopped these clients (200 ms at 2,000 tables): the frames that
            # came meanwhile are read late, and the clock starts only once they are
            await asyncio.sleep(1.0)
            lag_task = asyncio.create_task(own_lag(stats))
            stats.measuring = True
            peak = rss_kib(server.pid)
            page = await scrape(http)
            gc_before = gc_pauses(page)
            decided_before = decided(page)
            lag_before = buckets(page, "riichi_event_loop_lag_seconds")
            step_before = buckets(page, "riichi_step_seconds")
            cpu_before = cpu_s(server.pid)
            wait_before = waited_s(server.pid)
            core_before = core_times(0)
            client_before = time.process_time()
            started = time.perf_counter()
            deadline = started + args.duration
            while time.perf_counter() < deadline and not any(t.done() for t in tasks):
                await asyncio.sleep(0.25)
                peak = max(peak, rss_kib(server.pid))
            stats.measuring = False
            lag_task.cancel()
            elapsed = time.perf_counter() - started
            server_cpu = cpu_s(server.pid) - cpu_before
            server_wait = waited_s(server.pid) - wait_before
            core_after = core_times(0)
            client_cpu = time.process_time() - client_before
            page = await scrape(http)
            gc_after = gc_pauses(page)
            decided_after = decided(page)
            lag_after = buckets(page, "riichi_event_loop_lag_seconds")
            step_after = buckets(page, "riichi_step_seconds")
            gc.enable()
            stop.set()
            for sock in list(socks):
                sock.close()
            # a client still thinking (a long --think) would finish its sleep first: the
            # sockets are closing, so what is still running after a grace is cancelled
            broken = [t for t in tasks if t.done() and t.exception() is not None]
            _, running = await asyncio.wait(tasks, timeout=15)
            for task in running:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # thousands of sockets to close: do not hang
            server.kill()
    if broken:
        raise SystemExit(f"a table stopped while measuring: {broken[0].exception()!r}")
    if elapsed < 0.9 * args.duration:
        raise SystemExit(f"the window ran {elapsed:.1f} s of {args.duration:g}: tables stopped")
    enough(stats.decisions, len(stats.latencies), args.min_decisions)
    lat = stats.latencies
    p50 = statistics.median(lat) * 1000
    p99 = percentile(lat, 0.99)
    per_table = (peak - base) / args.tables
    think = f"exponential, mean {args.think:g} s" if args.think else "none: saturation"
    frames = "batched frames" if args.batch else "one message per frame"
    print(f"tables: {args.tables} (4 WebSocket player clients each; think {think}; {frames})")
    print(f"games finished while measuring: {stats.games // 4} in {elapsed:.1f} s")
    if stats.abandoned:
        print(f"rooms made again after the server dropped a request: {stats.abandoned}")
    print(f"decisions: {stats.decisions}, {stats.decisions / elapsed:.0f}/s")
    taken = {how: n - decided_before.get(how, 0.0) for how, n in decided_after.items()}
    print(
        f"server's count (at hands' ends): {taken.get('answer', 0):.0f} answers, "
        f"{taken.get('timeout', 0):.0f} time-outs"
    )
    print(f"latency answer->next event: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(lat)} samples)")
    for name, samples in (("turn", stats.turn), ("claim", stats.claim)):
        print(
            f"  {name}: p50 {percentile(samples, 0.5):.1f} ms, "
            f"p99 {percentile(samples, 0.99):.1f} ms ({len(samples)} samples)"
        )
    per_decision = server_cpu / max(1, stats.decisions) * 1e6
    print(
        f"server CPU: {server_cpu:.1f} s ({per_decision:.0f} us per decision), "
        f"clients CPU: {client_cpu:.1f} s, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"load clients' own loop lag: p99 {percentile(stats.client_lag, 0.99):.1f} ms, "
        f"max {percentile(stats.client_lag, 1.0):.1f} ms"
    )
    ticks, stolen = (a - b for a, b in zip(core_after, core_before, strict=True))
    print(f"server core stolen by the host while measuring: {100 * stolen / max(1, ticks):.1f} %")
    print(
        f"server's event loop runnable but waiting for a CPU while measuring: "
        f"{server_wait:.1f} s ({100 * server_wait / elapsed:.1f} % of the window)"
    )
    pauses = []
    for g, (n, t) in sorted(gc_after.items()):
        n0, t0 = gc_before.get(g, (0.0, 0.0))
        pauses.append(f"gen{g} {n - n0:.0f} ({1000 * (t - t0):.0f} ms)")
    print(f"server GC pauses while measuring: {', '.join(pauses) or 'none'}")
    n, t = gc_before.get("2", (0.0, 0.0))
    print(f"server GC sweeps while seating and warming up: {n:.0f} ({1000 * t:.0f} ms in all)")
    print(
        "server event loop lag p99 "
        f"{bucket_quantile(lag_before, lag_after, 0.99)}, max "
        f"{bucket_quantile(lag_before, lag_after, 1.0)}; step (answer to next inquiry) p99 "
        f"{bucket_quantile(step_before, step_after, 0.99)}"
    )
    print(f"server RSS: base {base / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB")
    unsteady = not_steady(
        stats,
        args.tables,
        timeouts=taken.get("timeout", 0.0),
        client_share=client_cpu / elapsed,
        waiting=server_wait / elapsed,
        stolen=stolen / max(1, ticks),
    )
    print(f"window: not steady play: {'; '.join(unsteady)}" if unsteady else "window: steady play")
    return p99, per_table, per_decision


def not_steady(
    stats: Stats,
    tables: int,
    *,
    timeouts: float,
    client_share: float,
    waiting: float,
    stolen: float,
) -> list[str]:
    """Why the window was not the server's steady play, if it was not: seating under way
    (rooms made and sockets handshaking while measuring: a finished game's next room, or a
    retry after a dropped request), seats played by their clocks (a room whose clients never
    came), the clients' core saturated (their latencies are their own), or other processes
    on the server's core (its loop waited for a CPU, the host stole it, the load average is
    above what the server and its clients make). Its figures are then not the curve's."""
    why = []
    if stats.seated_measuring or stats.abandoned_measuring:
        why.append(
            f"seating under way ({stats.seated_measuring} rooms made, "
            f"{stats.abandoned_measuring} made again, of {tables} tables)"
        )
    if timeouts > 0.01 * max(1, stats.decisions):
        why.append(f"{timeouts:.0f} seats played by their clocks (time-outs)")
    if client_share > 0.8:
        why.append(f"the clients used {100 * client_share:.0f} % of their core")
    if waiting > 0.05:
        why.append(f"the server's loop waited for a CPU {100 * waiting:.0f} % of the window")
    if stolen > 0.05:
        why.append(f"the host stole {100 * stolen:.0f} % of the server's core")
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    if load > cores + 0.5:
        why.append(f"load average {load:.1f} on {cores} cores: other processes shared them")
    return why


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds to measure")
    parser.add_argument(
        "--root",
        default=str(ROOT),
        help="the checkout whose server to load (another commit's worktree: an A/B run)",
    )
    parser.add_argument(
        "--gc-sweep",
        type=float,
        default=3600.0,
        help="the server's seconds between full collector sweeps at most (less: one while "
        "measuring, to see its pause)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds of play after every client connected before measuring",
    )
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean think time, seconds (0: saturation)"
    )
    parser.add_argument(
        "--seating", type=int, default=64, help="tables being made and connected at once"
    )
    parser.add_argument(
        "--clients",
        default="light",
        choices=("light", "websockets"),
        help="light: bench/light.py's bare sockets (one core plays 6,000 tables); websockets: "
        "the websockets library's client, as before",
    )
    parser.add_argument(
        "--min-decisions",
        type=int,
        default=MIN_DECISIONS,
        help="fewer decisions (or latency samples) than this in the window: exit non-zero",
    )
    parser.add_argument(
        "--synchronous",
        default=Settings().synchronous,
        choices=("NORMAL", "FULL"),
        help="SQLite durability of the server and of the floor's stand-in (the same)",
    )
    parser.add_argument(
        "--floor",
        type=int,
        default=1,
        choices=(0, 1),
        help="1: run bench.floor after the server with the same tables, think, window and "
        "durability, and print the ratio",
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=1,
        choices=(0, 1),
        help="1: clients say batch in their hello (several messages per frame); 0: one each",
    )
    args = parser.parse_args()
    p99, per_table, per_decision = asyncio.run(run(args))
    line = (
        f"load: {args.tables} tables, p99 {p99:.1f} ms, {per_table:.0f} KiB per table, "
        f"{per_decision:.0f} us per decision"
    )
    if not args.floor:
        print(line)
        return
    under = floor(args)
    print(f"{line}, floor {under:.0f} us ({per_decision / under:.2f}x)")


def floor(args: argparse.Namespace) -> float:
    """bench.floor's CPU per decision (us) for a run of this one's shape, in a process of its
    own right after the server's (its output shown as it comes)."""
    shape = ["--tables", str(args.tables), "--duration", str(args.duration)]
    shape += ["--think", str(args.think), "--synchronous", args.synchronous]
    shape += ["--min-decisions", str(args.min_decisions)]
    done = subprocess.run(
        [sys.executable, "-m", "bench.floor", *shape], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    print(done.stdout, end="", flush=True)
    last = done.stdout.strip().rsplit("\n", 1)[-1]
    if done.returncode != 0 or not last.startswith("floor: "):
        raise SystemExit(f"bench.floor failed (exit {done.returncode}): no floor to compare with")
    return float(last.split(", ")[1].split(" us")[0])


if __name__ == "__main__":
    main()
