"""All-bot tables are paced, so a flood of them never starves other tables (issue 10).

Before pacing, an all-bot match ran inside the event loop in one go (about 0.2 s each), and
four clients creating them made ``/healthz`` p95 1.6 s. The invariant: while all-bot tables
are created as fast as the server answers (up to 60), ``/healthz`` answers within 50 ms at
the 95th percentile, beyond what an idle server on the same machine takes, asked in turn in
the same moments (the suite shares two cores with other tests, Chromium included: the idle
server's figure is what the machine's own load costs then). A window that misses gets one
more: the suite's other workers can take the flooded server's core for a second or two.
"""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path

import httpx

from tests.server.live import GENEROUS
from tests.server.process import server_process

TABLES = 60
LIFTED = {name: str(value) for name, value in GENEROUS.items()}
MEASURE_S = 6.0


def _flood(host: str, stop: threading.Event, codes: list[str]) -> None:
    """Create all-bot tables as fast as the server answers, until ``stop`` or TABLES."""
    with httpx.Client(base_url=f"http://{host}", timeout=10) as http:
        while not stop.is_set() and len(codes) < TABLES:
            response = http.post("/api/rooms", json={"preset": "tenhou-hanchan", "bots": 4})
            assert response.status_code == 200, response.text
            codes.append(response.json()["code"])


def _healthz_p95s(flooded: httpx.Client, idle: httpx.Client, seconds: float) -> tuple[float, float]:
    """p95 of ``/healthz`` on the flooded and on the idle server, asked in turn for
    ``seconds``: both see the machine's load of the same moments."""
    times: dict[int, list[float]] = {id(flooded): [], id(idle): []}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for http in (flooded, idle):
            start = time.perf_counter()
            assert http.get("/healthz").status_code == 200
            times[id(http)].append(time.perf_counter() - start)
        time.sleep(0.02)
    flooded_p95, idle_p95 = (statistics.quantiles(times[id(h)], n=20)[-1] for h in (flooded, idle))
    return flooded_p95, idle_p95


def test_a_flood_of_all_bot_tables_never_starves_health_checks(tmp_path: Path) -> None:
    (tmp_path / "flooded").mkdir()
    (tmp_path / "idle").mkdir()
    with (
        # one loopback client plays the whole flood: the per-client caps (which would stop a
        # real flood at 4 open rooms, see test_abuse) are lifted to test the pacing itself
        server_process(tmp_path / "flooded", bot_pace_s="0.4", **LIFTED) as (host, _),
        server_process(tmp_path / "idle", bot_pace_s="0.4", **LIFTED) as (idle_host, _),
        httpx.Client(base_url=f"http://{host}", timeout=10) as http,
        httpx.Client(base_url=f"http://{idle_host}", timeout=10) as idle_http,
    ):
        stop, codes = threading.Event(), list[str]()
        flood = threading.Thread(target=_flood, args=(host, stop, codes))
        flood.start()
        windows: list[tuple[float, float]] = []
        try:
            # a second window only when the first misses: a burst of the suite's other
            # workers can take the flooded server's core for part of six seconds, while an
            # unpaced flood (1.6 s p95 before pacing) misses every window
            while len(windows) < 2 and (not windows or windows[-1][0] >= 0.050 + windows[-1][1]):
                windows.append(_healthz_p95s(http, idle_http, MEASURE_S))
        finally:
            stop.set()
            flood.join()
        for p95, idle in windows:
            print(
                f"healthz p95: idle server {idle * 1000:.1f} ms, "
                f"{len(codes)} all-bot tables {p95 * 1000:.1f} ms"
            )
        p95, idle = windows[-1]
        assert len(codes) >= TABLES // 2 and p95 < 0.050 + idle
        # the tables are playing at a pace people can watch, not finished in a burst
        rooms = [http.get(f"/api/rooms/{code}").json() for code in codes[:5]]
        assert all(r["status"] == "playing" for r in rooms)
