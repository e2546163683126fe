"""``/metrics`` scraped from a real uvicorn while a game runs and after it ended: the counts
agree with the record and the hub, the timings are there, and the page can be turned off."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import anyio
import httpx
import msgspec
from prometheus_client.parser import text_string_to_metric_families

from server.edge.messaging import Answered, EventMsg, InquiryMsg, ServerMessage, Snapshot
from tests.server.live import live_server
from tests.server.procs import Player, ServerProcess, free_port

TOKEN = "operator"


async def _scrape(h: httpx.AsyncClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = await h.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(response.text)
        for s in family.samples
    }


async def test_metrics_count_what_the_tables_did(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, bot_pace_s=0.002, metrics_token=TOKEN) as (host, hub),
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
        live_server(tmp_path, metrics=0, metrics_token=TOKEN) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert (await h.get("/metrics", headers=auth)).status_code == 404
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


def _counts(text: str) -> tuple[float, float]:
    """(decisions taken, steps timed) of a /metrics page."""
    decided = steps = 0.0
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "riichi_decisions_total":
                decided += s.value
            elif s.name == "riichi_step_seconds_count":
                steps = s.value
    return decided, steps


async def test_metrics_are_an_operators_page_and_still_while_a_hand_is_played(
    tmp_path: Path,
) -> None:
    """A real ``python -m server``: an anonymous client (or a wrong token) gets 404 on the
    public port, the operator's listener serves the page, and at every event a seated player
    sees, the decision and step counts are those of the hand's start: a bot's instant answer
    to a claim offer moves nothing until the hand is over (issue 31, finding 1). The
    player scrapes whenever it holds a question of the hand in play (the server waits on it
    then, so the hand is surely still on); before the fix the count moved at every claim
    offer between two of its turns."""
    metrics_port = free_port()
    server = ServerProcess(tmp_path, RIICHI_METRICS_PORT=str(metrics_port))
    await server.start()
    #: inquiry id -> (the hand it was asked in, the counts scraped while holding it)
    scraped: dict[int, tuple[int, tuple[float, float]]] = {}
    taken: set[int] = set()  # inquiries whose answer the server took from this seat
    late: list[int] = []  # and those it answered itself (a time-out): it no longer waited
    hand = [0]  # the hand in play, its round_index + 1 (0: none, between hands)
    operator = httpx.Client(base_url=f"http://127.0.0.1:{metrics_port}", timeout=5)

    def track(raw: bytes) -> None:
        event = msgspec.json.decode(raw)
        if event["type"] == "RoundStarted":
            hand[0] = event["round_index"] + 1
        elif event["type"] in ("Agari", "Ryuukyoku"):
            hand[0] = 0  # over: its counts may be published from now on

    def scrape(player: Player, msg: ServerMessage) -> bool:
        """Scrape while the server waits on this seat's answer: it is surely mid-hand then.
        A hand is named by its round index, read from the events and, after a reconnect,
        from the snapshot's (its hand's own), so a socket lost as one hand ended and the
        next began does not make them one. Only a question whose answer the server then
        took counts (the echo of the seat's own answer says so): one it timed out or closed
        without the seat (a stalled test process reads it late, the hand maybe over) was no
        such moment."""
        if isinstance(msg, EventMsg):
            track(msg.event)
        elif isinstance(msg, Snapshot):
            hand[0] = 0
            for raw in msg.events:
                track(raw)
        elif isinstance(msg, Answered):
            (late.append if msg.timeout else taken.add)(msg.inquiry)
        elif isinstance(msg, InquiryMsg) and hand[0]:
            scraped[msg.id] = (hand[0], _counts(operator.get("/metrics").text))
        return False

    try:
        async with httpx.AsyncClient(base_url=f"http://{server.host}") as h:
            assert (await h.get("/metrics")).status_code == 404
            forged = {"Authorization": "Bearer guess"}
            assert (await h.get("/metrics", headers=forged)).status_code == 404
            body = {"preset": "tenhou-tonpuu", "bots": 3, "name": "me"}
            grant = (await h.post("/api/rooms", json=body)).json()
            player = Player(server.host, grant["token"], 7, scrape)
            await asyncio.wait_for(player.play(), 300)
            record = (await h.get(f"/api/games/{grant['room']['game']}/record")).json()
        final = _counts(operator.get("/metrics").text)
    finally:
        operator.close()
        server.stop()
    seen: dict[int, set[tuple[float, float]]] = {}
    for inquiry, (at, counts) in scraped.items():
        if inquiry in taken:
            seen.setdefault(at, set()).add(counts)
    moving = {h: v for h, v in seen.items() if len(v) > 1}
    assert not moving, f"counts moved inside a hand: {moving} ({late=}, {player.closes=})"
    assert len(seen) >= 3 and sum(map(len, seen.values())) == len(seen)
    assert len({v for values in seen.values() for v in values}) >= 3  # between hands they do
    assert final[0] == len(record["decisions"]) > 50
