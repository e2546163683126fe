"""Cluster: the same load on one node alone and on two nodes sharing a real redis-server.

Both runs give the servers the same single core (``taskset``: core 0), the load clients and
Redis the other, so what differs is the cluster's own cost: rooms made on one node and joined
through the other (seat reservations over Redis), every client sent to the room's node, one
spectator per table watching from the other node (the relay over pub/sub) and each node's
directory heartbeat. Alone, the spectator watches on the room's own node. Players think as in
bench/load.py (exponential, mean ``--think`` s). Prints one row per run, then

    cluster: N tables on K nodes, p99 X ms

    python -m bench.cluster [--tables 100] [--duration 20] [--think 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import (  # noqa: E402
    CONNECTING,
    Seat,
    Stats,
    bot_client,
    cpu_s,
    free_port,
    percentile,
)
from server.edge.messaging import End, decode_server  # noqa: E402
from tests.services import redis_server  # noqa: E402

SERVER_CORE, CLIENT_CORE = 0, 1
#: one loopback client plays every seat: lift the per-client limits
ENV = {
    **{f"RIICHI_{n}": "1000000" for n in ("CREATE_PER_MIN", "JOIN_PER_MIN", "LOOKUP_PER_MIN")},
    "RIICHI_MAX_OPEN_ROOMS": "1000000",
    "RIICHI_MAX_SOCKETS_PER_CLIENT": "100000",
    "RIICHI_MAX_CONNS_PER_CLIENT": "100000",
    "RIICHI_MAX_CONNECTIONS": "100000",
    "RIICHI_MAX_ROOMS": "100000",
    "RIICHI_SPECTATOR_DELAY_S": "0",
    "RIICHI_LOBBY_TTL_S": "1",
}


def _cpus() -> list[int]:
    return sorted(os.sched_getaffinity(0))


def _taskset(core: int) -> list[str]:
    cpus = _cpus()
    return ["taskset", "-c", str(cpus[core % len(cpus)])] if len(cpus) > 1 else []


@contextlib.asynccontextmanager
async def _node(redis: str | None, name: str) -> AsyncIterator[tuple[str, subprocess.Popen[bytes]]]:
    """(host, process) of one ``python -m server`` pinned to the server core."""
    port, data = free_port(), tempfile.mkdtemp(prefix=f"riichi-cluster-{name}-")
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    if redis is not None:
        env |= {"RIICHI_REDIS_URL": redis, "RIICHI_NODE_ID": name}
    args = [sys.executable, "-m", "server", "--port", str(port), "--data-dir", data]
    proc = subprocess.Popen(
        [*_taskset(SERVER_CORE), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    host = f"127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            for _ in range(400):
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.05)
        yield host, proc
    finally:
        proc.terminate()
        proc.wait(10)


async def _post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """The answer, asked again while it is "not yet": the create burst is shared by every
    node (16 creates at once exceed it), and the owner's directory write may land a moment
    after the room is made."""
    for _ in range(100):
        answer: dict[str, Any] = (await http.post(url, json=body)).json()
        if answer.get("code") not in ("rate_limited", "no_room"):
            return answer
        await asyncio.sleep(0.05)
    raise RuntimeError(f"{url}: {answer}")


async def _table(made_on: str, joined_on: str) -> tuple[str, str, list[str]]:
    """(room's host, game, four seat tokens): made on one node, joined through another."""
    body = {"name": "L0", "preset": "tenhou-tonpuu", "bots": 0, "public": False}
    async with httpx.AsyncClient(timeout=30) as http:
        grant = await _post(http, f"http://{made_on}/api/rooms", body)
        code, tokens = grant["room"]["code"], [grant["token"]]
        for i in range(1, 4):
            url = f"http://{joined_on}/api/rooms/{code}/join"
            joined = await _post(http, url, {"name": f"L{i}"})
            tokens.append(joined["token"])
            node = joined["room"].get("node") or f"http://{made_on}"
    return node.removeprefix("http://"), grant["room"]["game"], tokens


async def _watch(url: str, stop: asyncio.Event, seen: list[int]) -> None:
    """One spectator until the end; again while the game is not found yet (its node's
    directory write may land a moment after the start)."""
    while not stop.is_set():
        got = 0
        with contextlib.suppress(OSError, websockets.WebSocketException):
            async with websockets.connect(url, max_size=2**22, compression=None) as ws:
                closer = asyncio.create_task(_close(stop, ws))
                async for text in ws:
                    got += 1
                    seen[0] += 1
                    if not str(text).startswith('{"type":"event"') and isinstance(
                        decode_server(text), End
                    ):
                        return
                closer.cancel()
        if got > 2:
            return
        await asyncio.sleep(0.2)


async def _close(stop: asyncio.Event, ws: Any) -> None:
    await stop.wait()
    await ws.close()


async def _measure(
    hosts: list[str], procs: list[subprocess.Popen[bytes]], args: argparse.Namespace
) -> dict[str, float]:
    gate = asyncio.Semaphore(16)

    async def one(n: int) -> tuple[str, str, list[str]]:
        async with gate:
            return await _table(hosts[n % len(hosts)], hosts[(n + 1) % len(hosts)])

    tables = await asyncio.gather(*(one(n) for n in range(args.tables)))
    stats, stop, seen, connecting = Stats(), asyncio.Event(), [0], asyncio.Semaphore(CONNECTING)
    tasks = [
        asyncio.create_task(
            bot_client(
                f"ws://{host}/ws/play",
                t,
                Seat(n * 4 + i, args.think, stats),
                stop,
                True,
                connecting,
            )
        )
        for n, (host, _game, four) in enumerate(tables)
        for i, t in enumerate(four)
    ]
    for host, game, _four in tables:
        other = hosts[(hosts.index(host) + 1) % len(hosts)]
        tasks.append(asyncio.create_task(_watch(f"ws://{other}/ws/watch/{game}", stop, seen)))
    players = tasks[: 4 * args.tables]
    while stats.connected < 4 * args.tables:  # a client that failed to connect says why
        failed = [t for t in players if t.done() and t.exception() is not None]
        if failed or stats.failed:
            stop.set()
            cause = failed[0].exception() if failed else None
            raise RuntimeError(f"clients failed: {stats.failed[:1]}") from cause
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    stats.measuring = True
    cpu_before = [cpu_s(p.pid) for p in procs]
    watched_before, started = seen[0], time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    cpu = sum(cpu_s(p.pid) - b for p, b in zip(procs, cpu_before, strict=True))
    watched = seen[0] - watched_before
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "decisions": stats.decisions / elapsed,
        "p50": percentile(stats.latencies, 0.5),
        "p99": percentile(stats.latencies, 0.99),
        "turn99": percentile(stats.turn, 0.99),
        "claim99": percentile(stats.claim, 0.99),
        "us": cpu / max(1, stats.decisions) * 1e6,
        "watched": watched / elapsed,
    }


async def _run(args: argparse.Namespace, nodes: int) -> dict[str, float]:
    if nodes == 1:
        async with _node(None, "solo") as (host, proc):
            return await _measure([host], [proc], args)
    with redis_server(cpu=_cpus()[CLIENT_CORE % len(_cpus())]) as url:
        async with _node(url, "a") as a, _node(url, "b") as b:
            await asyncio.sleep(1.5)  # both directories written
            return await _measure([a[0], b[0]], [a[1], b[1]], args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per run")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds")
    args = parser.parse_args()
    os.sched_setaffinity(0, {_cpus()[CLIENT_CORE % len(_cpus())]})
    think = f"exponential, mean {args.think:g} s" if args.think else "none: saturation"
    print(f"{args.tables} tables of 4 WebSocket players (think {think}) + 1 spectator each;")
    print(f"servers on core {SERVER_CORE}, clients and Redis on core {CLIENT_CORE}")
    print(
        "| nodes | decisions/s | p50 ms | p99 ms | turn p99 | claim p99 "
        "| server us/decision | spectator msgs/s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for nodes in (1, 2):
        r = asyncio.run(_run(args, nodes))
        rows.append((nodes, r))
        print(
            f"| {nodes}{' (Redis)' if nodes > 1 else ''} | {r['decisions']:.0f} | "
            f"{r['p50']:.1f} | {r['p99']:.1f} | {r['turn99']:.1f} | {r['claim99']:.1f} | "
            f"{r['us']:.0f} | {r['watched']:.0f} |",
            flush=True,
        )
    nodes, last = rows[-1]
    print(f"cluster: {args.tables} tables on {nodes} nodes, p99 {last['p99']:.1f} ms")


if __name__ == "__main__":
    main()
