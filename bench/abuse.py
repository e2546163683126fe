"""The figures of docs/security.md, measured against ``python -m server`` with its defaults.

``python3 bench/abuse.py memory|rooms|slowloris [sockets] [seconds]``: peak RSS growth under
100 MB bodies, what one client's floods get back, and a slowloris from 127.0.0.2 while
``/healthz`` is timed from 127.0.0.1. The tests (tests/server/edge/test_abuse.py) run the same
attacks scaled down; this runs them at full size, once, for the record.
"""

from __future__ import annotations

import collections
import contextlib
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.edge.test_abuse import (  # noqa: E402
    ATTACKER,
    _dropped,
    _huge_post,
    _status,
    running,
)


def memory(host: str, pid: int) -> None:
    httpx.post(f"http://{host}/api/rooms", json={"bots": 4})
    peak = _status(pid, "VmHWM")
    sent = _huge_post(host, 100 << 20)
    grown = _status(pid, "VmHWM") - peak
    print(f"one 100 MB body: {sent >> 10} KiB taken, peak RSS +{grown} KiB")
    taken: list[int] = []
    posts = [
        threading.Thread(target=lambda: taken.append(_huge_post(host, 100 << 20))) for _ in range(5)
    ]
    for post in posts:
        post.start()
    for post in posts:
        post.join()
    grown = _status(pid, "VmHWM") - peak
    print(f"five at once: {max(taken) >> 10} KiB taken at most, peak RSS +{grown} KiB")


def rooms(host: str) -> None:
    with httpx.Client(base_url=f"http://{host}") as http:
        calls: dict[str, Callable[[int], httpx.Response]] = {
            "create": lambda i: http.post("/api/rooms", json={"bots": 0}),
            "lookup": lambda i: http.get(f"/api/rooms/ZZZ{i:03d}"),
            "join": lambda i: http.post(f"/api/rooms/ZZZ{i:03d}/join", json={}),
        }
        for what, call in calls.items():
            started = time.monotonic()
            answers: collections.Counter[tuple[int, str]] = collections.Counter()
            for i in range(500):
                r = call(i)
                answers[(r.status_code, r.json().get("code", "ok"))] += 1
            print(f"{what}: 500 in {time.monotonic() - started:.1f} s -> {dict(answers)}")


def slowloris(host: str, count: int, seconds: float) -> None:
    name, port = host.split(":")
    socks = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((ATTACKER, 0))
        sock.connect((name, int(port)))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        socks.append(sock)
    started = time.monotonic()
    waits: list[float] = []
    with httpx.Client() as http:
        while time.monotonic() - started < seconds:
            for sock in socks:
                with contextlib.suppress(OSError):
                    sock.send(b"X: y\r\n")
            t0 = time.monotonic()
            http.get(f"http://{host}/healthz", timeout=10)
            waits.append(time.monotonic() - t0)
            time.sleep(0.5)
    dropped = sum(_dropped(sock) for sock in socks)
    if not waits:
        raise SystemExit("measured nothing: no /healthz answer timed during the slowloris")
    waits.sort()
    p50, p95 = waits[len(waits) // 2] * 1e3, waits[int(len(waits) * 0.95)] * 1e3
    print(f"slowloris: {dropped} of {count} dropped after {seconds:.0f} s")
    print(f"/healthz p50 {p50:.1f} ms, p95 {p95:.1f} ms")


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "memory"
    with tempfile.TemporaryDirectory() as data, running(Path(data)) as (host, proc, log):
        if which == "memory":
            memory(host, proc.pid)
        elif which == "rooms":
            rooms(host)
        else:
            count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
            slowloris(host, count, float(sys.argv[3]) if len(sys.argv) > 3 else 30.0)
        text = log.read_text()
        print(f"server log: {text.count(chr(10))} lines, {text.count('Traceback')} tracebacks")


if __name__ == "__main__":
    main()
