"""The server's ``/healthz`` p95 while four reviews run, beside its idle p95 in the same run.

    python3 -m bench.review_server [--engine strong] [--workers 4] [--games 1] [--samples 300]

A real ``python -m server`` on a loopback port, its data directory holding hanchan played by
two easy and two strong bots (stored as the server stores a game). First ``--samples``
``GET /healthz`` one after another on the idle server (the floor); then
``POST /api/games/{id}/review`` for the four seats of each game (``--workers`` worker
processes: four by default, so the four reviews run at once) and ``/healthz`` sampled the
same way until every review is stored. Latencies are wall times seen by this client.
Exit status 1 when nothing was measured (no sample in either phase, or a review failed).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import msgspec

from engine.bot import make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.rules.config import PRESETS
from server.storage.sqlite import Storage

ROOT = Path(__file__).resolve().parent.parent
#: pause between two health checks (a monitoring probe, not a load generator)
GAP_S = 0.01


def store(path: Path, game: str, seed: int) -> None:
    """A bots' hanchan as the server stores it: games, decisions and rounds rows."""
    rules = PRESETS["tenhou-hanchan"]
    names = ["easy", "strong", "easy", "strong"]
    center = BotCenter([make(n) for n in names])
    played = new_game(rules, seed, center)
    center.game = played
    run_sync(played)
    db = Storage(path)
    db.create_game(game, "ROOM", "tenhou-hanchan", seed, msgspec.json.encode(rules), names)
    for d in played.decisions:
        db.add_decision(game, d.inquiry_id, d.seat, d.action_index, d.option_index, False)
    for n, result in enumerate(played.rounds):
        db.add_round(game, n, msgspec.json.encode(result))
    db.finish_game(game, msgspec.json.encode({"scores": list(played.scores), "error": None}))
    db.close()


def call(url: str, body: dict[str, object] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def health_ms(base: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(f"{base}/healthz", timeout=30) as r:
        r.read()
    return (time.perf_counter() - start) * 1000


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else float("nan")


def start(data: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "RIICHI_REVIEW_WORKERS": str(workers),
        "RIICHI_REVIEW_PER_MIN": "1000",
        "RIICHI_REPLAY_PER_MIN": "1000",
    }
    argv = [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(data)]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            health_ms(f"http://127.0.0.1:{port}")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def reviewing(base: str, keys: list[tuple[str, int]], engine: str) -> tuple[list[float], int]:
    """Health samples while the reviews of ``keys`` are pending; the number stored."""
    samples: list[float] = []
    pending = set(keys)
    failed = 0
    next_poll = 0.0
    while pending:
        samples.append(health_ms(base))
        time.sleep(GAP_S)
        if time.monotonic() < next_poll:
            continue
        next_poll = time.monotonic() + 0.5
        for game, seat in sorted(pending):
            _, state = call(f"{base}/api/games/{game}/review?seat={seat}&engine={engine}")
            if state.get("status") in ("done", "failed"):
                pending.discard((game, seat))
                failed += state["status"] == "failed"
    return samples, len(keys) - failed


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review_server", description=__doc__)
    parser.add_argument("--engine", default="strong")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        games = [f"bench{i}" for i in range(args.games)]
        for i, game in enumerate(games):
            store(data / "records.sqlite3", game, 3 + i)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = start(data, port, args.workers)
        base = f"http://127.0.0.1:{port}"
        try:
            idle = []
            for _ in range(args.samples):
                idle.append(health_ms(base))
                time.sleep(GAP_S)
            keys = [(g, seat) for g in games for seat in range(4)]
            began = time.perf_counter()
            for game, seat in keys:
                ask = {"seat": seat, "engine": args.engine}
                status, body = call(f"{base}/api/games/{game}/review", ask)
                if status not in (200, 202):
                    print(f"review of {game} seat {seat} refused: {status} {body}", file=sys.stderr)
                    return 1
            busy, stored = reviewing(base, keys, args.engine)
            took = time.perf_counter() - began
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"{len(keys)} reviews by {args.engine} of {args.games} hanchan, {args.workers} workers,"
        f" {cores} cores; all stored after {took:.1f} s ({stored} done)"
    )
    print(
        f"/healthz idle:      p50 {statistics.median(idle):6.2f} ms  p95 {p95(idle):6.2f} ms"
        f"  ({len(idle)} samples)"
    )
    if busy:
        print(
            f"/healthz reviewing: p50 {statistics.median(busy):6.2f} ms  p95 {p95(busy):6.2f} ms"
            f"  ({len(busy)} samples)"
        )
        print(f"p95 while reviewing / idle: {p95(busy) / p95(idle):.2f}x")
    if len(idle) < 2 or len(busy) < 2 or stored < len(keys):
        print("measured nothing (no samples, or a review failed)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
