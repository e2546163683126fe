"""The floor under a decision's server CPU on this machine (issue 14's 200 us gate).

Whatever a server does with a game, a decision of a table of four costs it at least: one read
of the answer, one SQLite commit before anything is sent (the write-ahead rule: the server's
own ``Storage.add_decision`` with the server's settings, WAL checkpointed in a thread), and
one write to each of the four seats' sockets (every seat sees every discard), with the event
loop's wake-ups around them. This stand-in server does exactly that and nothing else: raw TCP
lines instead of WebSocket frames, no engine, no framework, ~150 bytes per seat made up in
advance. It runs in its own process on uvloop pinned to core 0, its clients pinned to core 1,
and they play as bench.load's do: the seat whose turn it is answers after an exponential think
of mean ``--think`` seconds, and the next seat's turn comes with the frames. So its CPU per
decision is what the sockets, the disk and the loop alone cost here, to set beside bench.load's
``us per decision`` at the same number of tables:

    python -m bench.floor --tables 1000 [--duration 30] [--think 2]

The last line is ``floor: N tables, X us per decision (1 read, 4 writes, 1 commit)``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    MIN_DECISIONS,
    core_times,
    cpu_s,
    enough,
    file_limit,
    free_port,
    pin,
)
from server.settings import Settings  # noqa: E402
from server.storage.sqlite import SQL_ADD_DECISION, Storage  # noqa: E402

#: what every seat is sent for a decision: the size of a discard event as seats get it
PAD = b"." * 90
FRAME = b'{"type":"event","seq":%d,"event":{"seat":%d,"tile":%d,"x":"' + PAD + b'"},"next":%d}\n'


class Table:
    """Four seats' transports and the decisions so far."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seats: list[asyncio.Transport | None] = [None] * 4
        self.n = 0


class Group:
    """Group commit (``--group-ms``): the rows of that many ms are committed together, in one
    transaction, and the frames of their decisions wait for it."""

    def __init__(self, storage: Storage, seconds: float) -> None:
        self.storage = storage
        self.seconds = seconds
        self.waiting: list[tuple[SeatProtocol, Table, int]] = []

    def add(self, seat: SeatProtocol, table: Table, turn: int) -> None:
        if not self.waiting:
            asyncio.get_running_loop().call_later(self.seconds, self.commit)
        self.waiting.append((seat, table, turn))

    def commit(self) -> None:
        # a table's next decision waits for these frames: its ``n`` is still this row's
        waiting, self.waiting = self.waiting, []
        self.storage.transaction(
            [(SQL_ADD_DECISION, (t.name, t.n, t.n, s.seat, 1, 0, 0, None)) for s, t, _ in waiting]
        )
        for seat, table, turn in waiting:
            seat.send(table, turn)


class SeatProtocol(asyncio.Protocol):
    """One seat's socket: ``table seat`` first, then one line per answer."""

    def __init__(
        self, tables: dict[str, Table], storage: Storage, parts: str, group: Group | None
    ) -> None:
        self.tables = tables
        self.storage = storage
        self.group = group
        self.commit = "commit" in parts
        self.writes = "writes" in parts
        self.buffer = b""
        self.table: Table | None = None
        self.seat = -1
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            if self.table is None:
                self._sit(line)
            else:
                self._answer(self.table)

    def _sit(self, line: bytes) -> None:
        name, seat = line.decode().split()
        table = self.tables.setdefault(name, Table(name))
        self.table, self.seat = table, int(seat)
        table.seats[self.seat] = self.transport
        if all(table.seats):
            self._tell(table.seats, table, 0)  # the dealer's first turn

    def _answer(self, table: Table) -> None:
        table.n += 1
        turn = (self.seat + 1) % 4
        if self.group is not None:
            self.group.add(self, table, turn)
            return
        if self.commit:  # the server's own write: server/storage/sqlite.py
            self.storage.add_decision(table.name, table.n, self.seat, 1, 0, False)
        self.send(table, turn)

    def send(self, table: Table, turn: int) -> None:
        """Every seat hears of the decision (without ``writes``: only the seat to play)."""
        self._tell(table.seats if self.writes else [table.seats[turn]], table, turn)

    def _tell(self, seats: list[asyncio.Transport | None], table: Table, turn: int) -> None:
        frame = FRAME % (table.n, self.seat, table.n % 136, turn)
        for transport in seats:
            if transport is not None and not transport.is_closing():
                transport.write(frame)


def serve(port: int, db_path: str, parts: str, group_ms: float, synchronous: str) -> None:
    """The stand-in server: until killed."""
    import uvloop

    # the server's store with the server's settings: WAL, synchronous as asked (the server's
    # default: NORMAL), the WAL checkpointed in a thread of its own
    settings = Settings()
    storage = Storage(db_path, synchronous, settings.checkpoint_s)
    tables: dict[str, Table] = {}
    group = Group(storage, group_ms / 1000) if group_ms > 0 and "commit" in parts else None

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: SeatProtocol(tables, storage, parts, group), "127.0.0.1", port, backlog=4096
        )
        await server.serve_forever()

    uvloop.run(main())


class Counter:
    def __init__(self) -> None:
        self.decisions = 0
        self.connected = 0
        self.measuring = False


async def seat_client(
    port: int, table: int, seat: int, think: float, count: Counter, stop: asyncio.Event
) -> None:
    rng = random.Random(table * 4 + seat)
    for attempt in range(20):
        try:
            # ~4,000 sockets per loopback source address: one has ~28,000 ephemeral ports
            source = (f"127.0.{1 + table // 1000}.1", 0)
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=source)
            break
        except OSError:
            await asyncio.sleep(0.1 * (attempt + 1))
    else:
        raise SystemExit(f"table {table} seat {seat} could not connect")
    writer.write(f"t{table} {seat}\n".encode())
    count.connected += 1
    mine = b'"next":%d}' % seat
    try:
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                return
            if line.endswith(mine + b"\n"):
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
                writer.write(b"a\n")
                if count.measuring:
                    count.decisions += 1
    finally:
        writer.close()


async def run(args: argparse.Namespace) -> float:
    """Measure the stand-in; print its figures; its server CPU per decision, us."""
    file_limit(4 * args.tables + 200)
    port = free_port()
    data = tempfile.mkdtemp(prefix="riichi-floor-")
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "bench.floor", "--serve", str(port)),
            *("--db", f"{data}/floor.db", "--parts", args.parts, "--group-ms", str(args.group_ms)),
            *("--synchronous", args.synchronous),
        ],
        cwd=ROOT,
    )
    pin(server.pid, 0)
    pin(0, 1)
    count, stop = Counter(), asyncio.Event()
    try:
        await asyncio.sleep(1.0)
        tasks = []
        for t in range(args.tables):
            for s in range(4):
                tasks.append(asyncio.create_task(seat_client(port, t, s, args.think, count, stop)))
            if t % 50 == 49:
                await asyncio.sleep(0.05)  # the listen backlog: seat tables in batches
        while count.connected < 4 * args.tables:
            await asyncio.sleep(0.1)
        await asyncio.sleep(args.warmup)
        count.measuring = True
        cpu_before, core_before = cpu_s(server.pid), core_times(0)
        started = time.perf_counter()
        await asyncio.sleep(args.duration)
        count.measuring = False
        elapsed = time.perf_counter() - started
        server_cpu = cpu_s(server.pid) - cpu_before
        core_after = core_times(0)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.kill()
        server.wait()
    enough(count.decisions, count.decisions, args.min_decisions)
    ticks, stolen = (a - b for a, b in zip(core_after, core_before, strict=True))
    per_decision = server_cpu / max(1, count.decisions) * 1e6
    print(f"decisions: {count.decisions}, {count.decisions / elapsed:.0f}/s")
    stolen_share = 100 * stolen / max(1, ticks)
    print(f"server CPU: {server_cpu:.2f} s; core stolen by the host: {stolen_share:.1f} %")
    made = f"1 read, {4 if 'writes' in args.parts else 1} writes" + (
        ", 1 commit" if "commit" in args.parts else ""
    )
    if args.group_ms > 0 and "commit" in args.parts:
        made += f" per {args.group_ms:g} ms"
    print(f"floor: {args.tables} tables, {per_decision:.0f} us per decision ({made})")
    return per_decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds to measure")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument(
        "--parts",
        default="commit,writes",
        help="what a decision costs the stand-in: commit (the SQLite row), writes (to all four "
        "seats; without it only to the seat whose turn comes); a part left out shows its share",
    )
    parser.add_argument(
        "--group-ms",
        type=float,
        default=0.0,
        help="commit the rows of this many ms at once, their frames held until then (group "
        "commit; 0: a commit per decision, as the server does)",
    )
    parser.add_argument(
        "--synchronous",
        default=Settings().synchronous,
        choices=("NORMAL", "FULL"),
        help="SQLite durability (the server's setting of the same name)",
    )
    parser.add_argument(
        "--min-decisions",
        type=int,
        default=MIN_DECISIONS,
        help="fewer decisions than this in the window: exit non-zero",
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.db, args.parts, args.group_ms, args.synchronous)
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
