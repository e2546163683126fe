"""Issue 43, finding 2: 40 logins at once from 40 addresses against a real ``python -m
server``, beside the same probes of the same server without them.

Each login costs a 64 MiB argon2id verification. In anyio's shared worker threads, 40 at once
took RSS from 125 to 1,844 MiB, ``/healthz`` to 3.7 s and a leaderboard read (a database
read, in those same threads) to 4.6 s. The hashing pool (server/accounts/hashing.py) runs
``hash_workers`` of them at once with ``hash_queue`` more waiting and answers the rest 503
``busy``.

What is gated is what does not move with the machine's load: the peak RSS (the pool's bound:
workers x 64 MiB, with room for the rest), the 503s with ``Retry-After``, and reads and
/healthz answered well before the logins are. The
probes run in a thread of their own with their own client, so the 40 attackers' event loop
does not time them; the /healthz figures are printed beside the same server's without the
storm (on this shared 2-core machine, one run's absolute times say little).
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from pathlib import Path

import httpx

from tests.server.edge.test_abuse import _status, running

#: hashes at once and waiting, as the test sets them (the defaults: cores and 8)
WORKERS = 2
QUEUE = 8
#: argon2id's memory per hash (argon2-cffi's default, RFC 9106's second recommendation)
HASH_MIB = 64
#: logins at once, each from its own address (127.0.7.1 ...)
LOGINS = 40
SECONDS = 6.0


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


class Probe(threading.Thread):
    """/healthz every 50 ms and a leaderboard read every 100 ms from 127.0.0.1, and the
    server's RSS, until ``stop`` is set."""

    def __init__(self, host: str, pid: int) -> None:
        super().__init__(daemon=True)
        self.host = host
        self.pid = pid
        self.stop = threading.Event()
        self.health: list[float] = []
        self.reads: list[float] = []
        self.rss_kib: list[int] = []

    def run(self) -> None:
        with httpx.Client(base_url=f"http://{self.host}", timeout=60) as http:
            turn = 0
            while not self.stop.is_set():
                t0 = time.monotonic()
                assert http.get("/healthz").status_code == 200
                self.health.append(time.monotonic() - t0)
                if turn % 2 == 0:
                    t0 = time.monotonic()
                    assert http.get("/api/leaderboard?lobby=hanchan").status_code == 200
                    self.reads.append(time.monotonic() - t0)
                self.rss_kib.append(_status(self.pid, "VmRSS"))
                turn += 1
                time.sleep(0.05)


async def _storm(host: str, seconds: float) -> tuple[dict[int, int], list[float], bool]:
    """``LOGINS`` clients, each from its own address, logging in to unknown names as fast as
    they are answered: the count of each status, the 401s' times, and whether every 503
    was ``busy`` with a ``Retry-After``."""
    statuses: dict[int, int] = {}
    answered: list[float] = []
    busy_ok = True
    stop = time.monotonic() + seconds

    async def one(n: int) -> None:
        nonlocal busy_ok
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.7.{n + 1}")
        async with httpx.AsyncClient(transport=transport, timeout=120) as h:
            i = 0
            while time.monotonic() < stop:
                body = {"name": f"nobody{n}x{i}", "password": "not the password"}
                t0 = time.monotonic()
                r = await h.post(f"http://{host}/api/session", json=body)
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                if r.status_code == 401:
                    answered.append(time.monotonic() - t0)
                elif r.status_code == 503:
                    busy_ok &= r.json()["code"] == "busy" and "retry-after" in r.headers
                    await asyncio.sleep(0.05)  # as a client told to come back would
                i += 1

    await asyncio.gather(*(one(n) for n in range(LOGINS)))
    return statuses, answered, busy_ok


def test_forty_logins_at_once_keep_memory_bounded_and_reads_answered(tmp_path: Path) -> None:
    env = {
        "RIICHI_HASH_WORKERS": str(WORKERS),
        "RIICHI_HASH_QUEUE": str(QUEUE),
        "RIICHI_LOGIN_BURST": "100000",
        "RIICHI_LOGIN_ADDRESS_BURST": "100000",
    }
    with running(tmp_path, **env) as (host, proc, _):
        httpx.post(f"http://{host}/api/session", json={"name": "warm", "password": "x" * 8})
        quiet = Probe(host, proc.pid)
        quiet.start()
        time.sleep(SECONDS)
        quiet.stop.set()
        quiet.join()
        loaded = Probe(host, proc.pid)
        loaded.start()
        statuses, logins, busy_ok = asyncio.run(_storm(host, SECONDS))
        loaded.stop.set()
        loaded.join()
        peak_kib = _status(proc.pid, "VmHWM")
        after = httpx.get(f"http://{host}/healthz").status_code
    grown_mib = (peak_kib - max(quiet.rss_kib)) / 1024  # the peak over the quiet server
    login_p50 = statistics.median(logins)
    read_p50 = statistics.median(loaded.reads)
    print(
        f"\n40 logins at once for {SECONDS} s: {statuses}; 401s p50 {login_p50 * 1000:.0f} ms"
        f"\n/healthz p95 {_p95(loaded.health) * 1000:.0f} ms (without the logins: "
        f"{_p95(quiet.health) * 1000:.0f} ms), leaderboard p50 {read_p50 * 1000:.0f} ms "
        f"p95 {_p95(loaded.reads) * 1000:.0f} ms max {max(loaded.reads) * 1000:.0f} ms "
        f"(without: {statistics.median(quiet.reads) * 1000:.0f} / "
        f"{_p95(quiet.reads) * 1000:.0f} / {max(quiet.reads) * 1000:.0f} ms)"
        f"\nRSS {max(quiet.rss_kib) // 1024} MiB without, {max(loaded.rss_kib) // 1024} MiB "
        f"with (peak {peak_kib // 1024} MiB, +{grown_mib:.0f} MiB)"
    )
    assert after == 200
    # the bound: a hash's memory per worker, and 64 MiB for everything else (before: +2.1 GiB)
    assert grown_mib < WORKERS * HASH_MIB + 64, grown_mib
    assert set(statuses) == {401, 503} and busy_ok, statuses  # past the queue: 503 busy
    assert statuses[401] >= WORKERS  # and the pool hashed all the while
    # Reads and /healthz are answered well before the logins: a login's time is the
    # yardstick, since the machine's load slows both alike. (That no read ever waits for a
    # hash is the next test's: before, the odd read queued behind anyio's 40 threads, all
    # hashing, for 2.4 s, a rare event a p95 does not see and a max on this machine is
    # too noisy to gate.)
    assert _p95(loaded.reads) < 0.5 * login_p50, (_p95(loaded.reads), login_p50)
    assert _p95(loaded.health) < 0.25 * login_p50, (_p95(loaded.health), login_p50)


async def test_a_full_hashing_pool_refuses_at_once_and_never_holds_a_read() -> None:
    """The pool's threads all held and its queue full: the next request is Busy at once,
    and work in anyio's own threads (every database read) still runs, even with no more of
    them than the pool has (hashes that took anyio's tokens would leave it none)."""
    import anyio

    from server.accounts.hashing import Busy, HashPool

    anyio.to_thread.current_default_thread_limiter().total_tokens = 2
    pool = HashPool(workers=2, queue=1)
    release = threading.Event()
    started: list[int] = []

    def hash_forever() -> None:  # a hash that lasts until the test says
        started.append(1)
        release.wait(30)

    async def login() -> None:
        with pool.place():
            await pool.run(hash_forever)

    async with anyio.create_task_group() as tg:
        for _ in range(3):  # two hashing, one waiting
            tg.start_soon(login)
        try:
            with anyio.fail_after(10):
                while len(started) < 2 or pool.held < 3:
                    await anyio.sleep(0.01)
            try:
                with pool.place():
                    raise AssertionError("a fourth request found a place")
            except Busy:
                pass
            with anyio.fail_after(5):  # a read is not behind the hashes
                assert await anyio.to_thread.run_sync(lambda: "read") == "read"
        finally:
            release.set()
    assert pool.held == 0
