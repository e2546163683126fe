"""``python -m server`` as a real child process on a free loopback port, for tests that an
operator or attacker would run against a deployed server (signals, RSS, floods)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server_process(data_dir: Path, **env: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """(``host:port``, the process) of a server started with ``RIICHI_*`` settings ``env``;
    stopped with SIGTERM (then SIGKILL) when the block ends."""
    port = free_port()
    full = dict(os.environ, RIICHI_BOT_THINK_S="0", RIICHI_BOT_PACE_S="0")
    full.update({f"RIICHI_{k.upper()}": v for k, v in env.items()})
    log = (data_dir / "server.log").open("ab")  # a pipe nobody reads would block the server
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(data_dir)],
        env=full,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    host = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://{host}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {(data_dir / 'server.log').read_text()}")
            time.sleep(0.05)
        yield host, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
