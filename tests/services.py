"""Real Redis and PostgreSQL servers for tests and benchmarks, started from Debian's
binaries in a temporary directory on a free loopback port (no mocks, no external service).

PostgreSQL refuses to run as root: as root, its data directory is handed to ``nobody`` and
``initdb``/``pg_ctl`` run through ``runuser -u nobody`` (the tests run as root here and in CI).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"{what} did not listen on {port}")


@contextlib.contextmanager
def redis_server(cpu: int | None = None) -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` of a fresh redis-server (no persistence), stopped after."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="riichi-redis-") as tmp:
        args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", tmp]
        args += ["--save", "", "--appendonly", "no", "--logfile", str(Path(tmp) / "log")]
        if cpu is not None:
            args = ["taskset", "-c", str(cpu), *args]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_port(port, proc, "redis-server")
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    return Path(found[-1]).parent


def _as_postgres(args: list[str]) -> list[str]:
    """The command as a user PostgreSQL accepts: this one, or ``nobody`` when root."""
    return ["runuser", "-u", "nobody", "--", *args] if os.geteuid() == 0 else args


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """``postgresql://riichi@127.0.0.1:PORT/postgres`` of a fresh cluster (trust auth on
    loopback, fsync off: a test database), stopped and deleted after."""
    bin_dir, port = _pg_bin(), free_port()
    tmp = Path(tempfile.mkdtemp(prefix="riichi-pg-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(tmp, "nobody")
        data = tmp / "data"
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "riichi"]
        subprocess.run(_as_postgres([*initdb, "--no-sync"]), check=True, capture_output=True)
        options = f"-p {port} -k {tmp} -h 127.0.0.1 -c fsync=off -c max_connections=200"
        ctl = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(tmp / "log")]
        subprocess.run(
            _as_postgres([*ctl, "-o", options, "-w", "start"]), check=True, capture_output=True
        )
        try:
            yield f"postgresql://riichi@127.0.0.1:{port}/postgres"
        finally:
            stop = _as_postgres([*ctl, "-m", "immediate", "stop"])
            subprocess.run(stop, check=False, capture_output=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fresh_database(url: str, name: str) -> str:
    """A new empty database on the server of ``url``; its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"
