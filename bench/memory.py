"""Where a table's memory goes: what the server allocated for N tables in play, by line.

The server (bench/memory_server.py) starts tracing allocations once it is up and empty; N
tables of four light WebSocket clients (bench.load's, thinking ``--think`` seconds) are
seated and play ``--play`` seconds, and the traced heap is snapshotted after the play.
Each allocation still alive is charged to the innermost frame of the project (``server/``,
``engine/``) on its stack — the line that made a library allocate it — and to a part: the
module of that frame, or the library's when no project frame made it. Printed per table,
beside the RSS growth per table measured in the same run (tracemalloc's own bookkeeping
taken out) and the objects the collector tracks, by type. A run that seated no table or saw
no growth measured nothing and exits non-zero.

    python -m bench.memory --tables 200 [--play 20] [--think 2] [--top 30] [--root CHECKOUT]

bench.load's ``KiB per table`` is the RSS figure without tracemalloc, at scale.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
#: the traced server's script
SERVER = ROOT / "bench" / "memory_server.py"

from bench import load  # noqa: E402
from bench.light import LightSocket  # noqa: E402


def own(root: Path) -> tuple[str, str]:
    """The project's own packages in ``root``: an allocation is charged to its innermost frame
    in one."""
    return (str(root / "server") + os.sep, str(root / "engine") + os.sep)


#: a dump: the traced heap (None at the first, which starts tracing), the tracked objects
#: by type (count, bytes), the server's RSS (KiB) and tracemalloc's own memory (bytes)
Dump = tuple[tracemalloc.Snapshot | None, dict[str, tuple[int, int]], int, int]


async def snapshot(pid: int, base: str, n: int) -> Dump:
    """Ask the server for its ``n``-th dump (the first starts tracing)."""
    rss = load.rss_kib(pid)
    os.kill(pid, signal.SIGUSR1)
    done = Path(f"{base}.{n}.done")
    for _ in range(1200):
        if done.exists():
            break
        await asyncio.sleep(0.1)
    else:
        raise SystemExit(f"the server wrote no heap dump {n} in 120 s")
    types = {}
    for line in Path(f"{base}.{n}.types").read_text().splitlines():
        name, count, size = line.rsplit(maxsplit=2)
        types[name] = (int(count), int(size))
    own = int(done.read_text())
    heap = Path(f"{base}.{n}")
    return (tracemalloc.Snapshot.load(str(heap)) if heap.exists() else None), types, rss, own


def charge(
    snap: tracemalloc.Snapshot, root: Path
) -> tuple[collections.Counter[str], collections.Counter[str]]:
    """Bytes alive by the project's innermost line, and by part (project module or library)."""
    lines: collections.Counter[str] = collections.Counter()
    parts: collections.Counter[str] = collections.Counter()
    for trace in snap.traces:
        frames = list(reversed(trace.traceback))  # the innermost first
        where = next((f for f in frames if f.filename.startswith(own(root))), None)
        if where is not None:
            name = os.path.relpath(where.filename, root)
            lines[f"{name}:{where.lineno}"] += trace.size
            parts[name] += trace.size
        else:
            parts[library(frames[0].filename) if frames else "?"] += trace.size
    return lines, parts


def library(filename: str) -> str:
    """A library's name from a file of it (``.../site-packages/uvicorn/x.py`` -> uvicorn)."""
    for marker in ("site-packages/", "dist-packages/"):
        if marker in filename:
            return "lib:" + filename.split(marker, 1)[1].split("/", 1)[0]
    if "/lib/python" in filename:
        return "stdlib:" + filename.rsplit("/", 1)[1]
    return filename


async def run(args: argparse.Namespace) -> int:
    port = load.free_port()
    data = tempfile.mkdtemp(prefix="riichi-memory-")
    dump = f"{data}/heap"
    root = Path(args.root).resolve()
    env = load.server_env(root, args.tables, load.CONNECTING)
    env["RIICHI_MEMORY_DUMP"] = dump
    load.file_limit(4 * args.tables + 200)
    log = open(Path(data) / "server.log", "wb")  # noqa: SIM115  # the server holds its own
    server = subprocess.Popen(
        # this checkout's script, ``root``'s server (an A/B run)
        [sys.executable, str(SERVER), "--port", str(port), "--data-dir", data],
        cwd=root,
        env=env,
        stdout=log,
        stderr=log,
    )
    log.close()
    try:
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", timeout=60, limits=load.LIMITS
        ) as http:
            for _ in range(1200):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            else:
                raise SystemExit(f"the server did not start (its log: {data}/server.log)")
            before = await snapshot(server.pid, dump, 0)
            stats = load.Stats()
            socks: set[LightSocket] = set()
            gate = asyncio.Semaphore(load.CONNECTING)

            async def table(n: int) -> None:
                seats = [load.Seat(n * 4 + i, args.think, stats) for i in range(4)]
                tokens = await load.seat_tokens(http, n, stats)
                await asyncio.gather(
                    *(
                        load.light_client(port, token, seat, socks, True, gate, "127.0.0.1")
                        for token, seat in zip(tokens, seats, strict=True)
                    )
                )

            tasks = [asyncio.create_task(table(n)) for n in range(args.tables)]
            started = time.monotonic()
            while stats.connected + len(stats.failed) < 4 * args.tables:
                if time.monotonic() - started > 600:
                    raise SystemExit(f"seated {stats.connected // 4} tables in 600 s")
                await asyncio.sleep(0.1)
            if stats.failed:
                raise SystemExit(f"{len(stats.failed)} clients failed: {stats.failed[0]}")
            stats.measuring = True
            await asyncio.sleep(args.play)
            after = await snapshot(server.pid, dump, 1)
            ended = sum(t.done() for t in tasks)
            for sock in list(socks):
                sock.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(60)
    return report(args, before, after, stats.decisions, ended)


def report(args: argparse.Namespace, before: Dump, after: Dump, decisions: int, ended: int) -> int:
    """Print the breakdown; 1 when it measured nothing."""
    _, types0, rss0, own0 = before
    snap1, types1, rss1, own1 = after
    assert snap1 is not None
    n = args.tables
    lines, parts = charge(snap1, Path(args.root).resolve())
    traced = sum(parts.values()) / 1024 / n
    rss = (rss1 - rss0 - (own1 - own0) / 1024) / n
    print(
        f"tables: {n} seated, {decisions} decisions in {args.play:g} s of play, {ended} games over"
    )
    print(f"RSS growth per table (tracemalloc's own memory taken out): {rss:.1f} KiB")
    print(
        f"traced heap growth per table: {traced:.1f} KiB "
        f"({100 * traced / max(rss, 1e-9):.0f} % of it)"
    )
    print("\nby part (KiB per table):")
    for name, size in parts.most_common(args.top):
        print(f"  {size / 1024 / n:8.2f}  {name}")
    print("\nby the project's line that allocated it (KiB per table):")
    for name, size in lines.most_common(args.top):
        print(f"  {size / 1024 / n:8.2f}  {name}")
    print("\ntracked objects by type (per table: count, shallow KiB):")
    grown = {
        k: (c - types0.get(k, (0, 0))[0], s - types0.get(k, (0, 0))[1])
        for k, (c, s) in types1.items()
    }
    for name, (count, size) in sorted(grown.items(), key=lambda kv: -kv[1][1])[: args.top]:
        print(f"  {count / n:8.1f}  {size / 1024 / n:8.2f}  {name}")
    if decisions < 4 * n or traced <= 0:
        print(
            f"measured nothing: {decisions} decisions, {traced:.1f} KiB per table", file=sys.stderr
        )
        return 1
    print(f"memory: {n} tables, {rss:.0f} KiB per table (RSS), {traced:.0f} KiB traced")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--play", type=float, default=20.0, help="seconds of play before the dump")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    parser.add_argument("--top", type=int, default=30, help="lines of each breakdown")
    parser.add_argument(
        "--root", default=str(ROOT), help="the checkout whose server to trace (an A/B run)"
    )
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
