"""``/metrics`` scraped from a real uvicorn while a game runs and after it ended: the counts
agree with the record and the hub, the timings are there, and the page can be turned off."""

from __future__ import annotations

import gc
from pathlib import Path

import anyio
import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.server.live import live_server


async def _scrape(h: httpx.AsyncClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = await h.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(response.text)
        for s in family.samples
    }


async def test_metrics_count_what_the_tables_did(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, bot_pace_s=0.002) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        room = (await h.post("/api/rooms", json={"preset": "tenhou-tonpuu", "bots": 4})).json()
        during = await _scrape(h)
        assert during[("riichi_tables", ())] == 1
        assert during[("riichi_rooms", (("status", "playing"),))] == 1
        with anyio.fail_after(120):
            await hub.tables[room["game"]].finished.wait()
            while hub.finished == 0:
                await anyio.sleep(0.05)
        gc.collect()  # one full pass the collector's callback must have timed
        await anyio.sleep(0.6)  # one sample of the loop's lag at least
        after = await _scrape(h)
        record = (await h.get(f"/api/games/{room['game']}/record")).json()
    decided = sum(v for (name, _), v in after.items() if name == "riichi_decisions_total")
    assert decided == len(record["decisions"]) > 100
    assert after[("riichi_step_seconds_count", ())] > 0.9 * decided / 4
    assert after[("riichi_games_finished", ())] == 1
    assert after[("riichi_rooms", (("status", "finished"),))] == 1
    assert after[("riichi_gc_pause_seconds_count", (("generation", "2"),))] >= 1
    assert after[("riichi_event_loop_lag_seconds_count", ())] >= 1


async def test_metrics_can_be_turned_off(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, metrics=0) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        assert (await h.get("/metrics")).status_code == 404
        assert (await h.get("/healthz")).status_code == 200


def test_a_tally_writes_what_prometheus_clients_histogram_writes() -> None:
    """The lock-free histogram of the game path is exposed exactly as prometheus_client's own
    ``Histogram`` would expose the same observations (bounds on a bucket's edge included)."""
    from prometheus_client import CollectorRegistry, Histogram, generate_latest
    from prometheus_client.registry import Collector

    from server.routes.metrics import BUCKETS, Tally, _histogram

    values = [0.0, 0.0004, 0.0005, 0.003, 0.01, 0.7, 5.0, 9.0, *(i / 997 for i in range(300))]
    theirs, ours = CollectorRegistry(), CollectorRegistry()
    histogram = Histogram("t_seconds", "doc", buckets=BUCKETS, registry=theirs)
    tally = Tally()
    for value in values:
        histogram.observe(value)
        tally.observe(value)

    class One(Collector):
        def collect(self):  # type: ignore[no-untyped-def]
            yield _histogram("t_seconds", "doc", {"": tally})

    ours.register(One())

    def samples(registry: CollectorRegistry) -> list[tuple[str, object, float]]:
        text = generate_latest(registry).decode()
        return [
            (s.name, sorted(s.labels.items()), round(s.value, 9))
            for f in text_string_to_metric_families(text)
            for s in f.samples
            if not s.name.endswith("_created")
        ]

    assert samples(ours) == samples(theirs)
