"""Attacks on a real ``python -m server`` process: memory under huge bodies, a slowloris,
secrets in the log, and settings out of range. A subprocess, so its memory and its log are
its own."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets.sync.client

from server.edge.messaging import Hello, encode

ROOT = Path(__file__).resolve().parents[3]
#: where the attacker connects from (all of 127/8 is loopback on Linux)
ATTACKER = "127.0.0.2"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running(tmp_path: Path, **env: str) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """(host:port, process, log file) of ``python -m server`` with ``env`` added."""
    port = _free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(tmp_path)],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    host = f"127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{host}/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"server did not start: {log.read_text()}")
        yield host, proc, log
    finally:
        proc.terminate()
        proc.wait(10)


def _status(pid: int, field: str) -> int:
    """A /proc/<pid>/status figure in KiB (VmRSS now, VmHWM the peak so far)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _huge_post(host: str, total: int) -> int:
    """POST ``total`` bytes as a chunked body as fast as the server takes them; the bytes
    the server let us send before it hung up."""
    name, port = host.split(":")
    sent = 0
    with socket.create_connection((name, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
        with contextlib.suppress(OSError):
            while sent < total:
                sock.sendall(chunk)
                sent += 1 << 20
    return sent


def test_five_100_mb_bodies_at_once_do_not_grow_the_server(tmp_path: Path) -> None:
    with running(tmp_path) as (host, proc, _):
        httpx.post(f"http://{host}/api/rooms", json={"bots": 4})  # warm every code path
        before = _status(proc.pid, "VmHWM")
        sent: list[int] = []
        posts = [
            threading.Thread(target=lambda: sent.append(_huge_post(host, 100 << 20)))
            for _ in range(5)
        ]
        for post in posts:
            post.start()
        for post in posts:
            post.join()
        grown = _status(proc.pid, "VmHWM") - before
        assert max(sent) < 16 << 20, "the server kept reading refused bodies"
        assert grown < 16 * 1024, f"peak RSS grew {grown} KiB"
        assert httpx.get(f"http://{host}/healthz").status_code == 200


def _slow_socket(host: str) -> socket.socket:
    name, port = host.split(":")
    sock = socket.socket()
    sock.bind((ATTACKER, 0))
    sock.settimeout(5)
    sock.connect((name, int(port)))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    return sock


def _dropped(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_slowloris_is_dropped_and_the_server_stays_responsive(tmp_path: Path) -> None:
    env = {"RIICHI_HEADER_TIMEOUT_S": "1", "RIICHI_MAX_CONNS_PER_CLIENT": "64"}
    with running(tmp_path, **env) as (host, _, log):
        socks = [_slow_socket(host) for _ in range(300)]
        started = time.monotonic()
        waits: list[float] = []
        dropped = 0
        while time.monotonic() - started < 3.0:
            for sock in socks:  # one more header line now and then, as a slowloris does
                with contextlib.suppress(OSError):
                    sock.send(b"X: y\r\n")
            t0 = time.monotonic()
            assert httpx.get(f"http://{host}/healthz", timeout=5).status_code == 200
            waits.append(time.monotonic() - t0)
            time.sleep(0.2)
        dropped = sum(_dropped(sock) for sock in socks)
        for sock in socks:
            sock.close()
        assert dropped == len(socks), f"{len(socks) - dropped} slow sockets still held"
        waits.sort()
        assert waits[int(len(waits) * 0.95)] < 1.0  # a shared, loaded test machine
        text = log.read_text()
        assert "Traceback" not in text and text.count("\n") < 20


def test_seat_tokens_never_reach_the_log(tmp_path: Path) -> None:
    with running(tmp_path, RIICHI_BOT_THINK_S="0") as (host, _, log):
        base = f"http://{host}"
        grant = httpx.post(f"{base}/api/rooms", json={"bots": 2, "name": "A"}).json()
        token, code, game = grant["token"], grant["room"]["code"], grant["room"]["game"]
        seat = {"authorization": f"Bearer {token}"}
        with websockets.sync.client.connect(f"ws://{host}/ws/play") as ws:
            ws.send(encode(Hello(token)))
            ws.recv(timeout=5)
            ws.send("{not json " + token)
            ws.send('{"type":"answer","inquiry":"' + token + '"}')
        # every path that carries a token, right and wrong, and a few that fail
        httpx.get(f"{base}/api/games/{game}/state", headers=seat)
        httpx.post(f"{base}/api/games/{game}/answer", json={"token": token, "inquiry": 1})
        httpx.post(f"{base}/api/rooms/{code}/start", json={"token": token})
        httpx.post(f"{base}/api/rooms/{code}/start", content=token, headers={"x": token})
        httpx.get(f"{base}/api/rooms/{token}", headers=seat)
        httpx.get(f"{base}/{token}?token={token}")
        time.sleep(0.5)
    text = log.read_text()
    assert "Uvicorn running" in text  # the log is the server's
    assert token not in text


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("RIICHI_MAX_BODY", "10", "max_body"),
        ("RIICHI_PORT", "http", "RIICHI_PORT"),
        ("RIICHI_RATE_PER_S", "0", "rate_per_s"),
        ("RIICHI_HEADER_TIMEOUT_S", "-1", "header_timeout_s"),
    ],
)
def test_a_setting_out_of_range_stops_the_server(
    tmp_path: Path, variable: str, value: str, says: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server", "--data-dir", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, variable: value},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr
