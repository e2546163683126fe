"""The browser client in a cluster (issue 14, docs/scaling.md): two real ``python -m server``
nodes on one real redis-server, and Chromium. A player who opens the lobby on node B joins a
room node A runs and plays it over A's socket (the grant's ``room.node``), a reload takes the
seat back on A, and a spectator on B watches over B's own socket (B relays A's game)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from server.edge.security import CSP, csp
from tests import system
from tests.client.conftest import (
    DESKTOP,
    PHONE,
    ROOT,
    START_S,
    collect_errors,
    shot,
    wait_until,
)
from tests.server.live import GENEROUS_ENV
from tests.services import free_port, redis_server

#: the operator's token for the nodes' /metrics
METRICS_TOKEN = "operator-token"


@dataclass
class Node:
    url: str
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://")

    def metric(self, name: str) -> float:
        """One unlabelled gauge of the node's ``/metrics``."""
        asked = urllib.request.Request(
            f"{self.url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
        )
        with urllib.request.urlopen(asked, timeout=5) as r:
            text = r.read().decode()
        found = re.search(rf"^{name} (\S+)$", text, re.M)
        assert found, f"{name} not in /metrics"
        return float(found[1])


def _start(name: str, port: int, redis: str, origins: str, data: Path) -> Node:
    data.mkdir()
    env = {
        **os.environ,
        **GENEROUS_ENV,
        "RIICHI_BOT_THINK_S": "0.02",
        "RIICHI_BOT_PACE_S": "0.01",
        "RIICHI_SPECTATOR_DELAY_S": "1",
        "RIICHI_NEXT_ROUND_S": "30",
        "RIICHI_LOBBY_TTL_S": "0",
        "RIICHI_REDIS_URL": redis,
        "RIICHI_METRICS_TOKEN": METRICS_TOKEN,
        "RIICHI_NODE_ID": name,
        # every node's page may use every node: what docs/scaling.md tells operators to set
        "RIICHI_ALLOWED_ORIGINS": origins,
    }
    log = data / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(data)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    node = Node(f"http://127.0.0.1:{port}", proc, log)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"node {name} exited: {log.read_text()}")
        try:
            with urllib.request.urlopen(f"{node.url}/healthz", timeout=1) as r:
                if r.status == 200:
                    return node
        except OSError:
            time.sleep(0.05)
    proc.kill()
    proc.wait(timeout=10)
    raise RuntimeError(f"node {name} did not start: {log.read_text()}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Node, Node]]:
    """Nodes A and B on one redis-server, each allowing the other's pages."""
    tmp = tmp_path_factory.mktemp("cluster")
    ports = free_port(), free_port()
    origins = ",".join(f"http://127.0.0.1:{p}" for p in ports)
    system.redis()
    with redis_server() as redis:
        started: list[Node] = []
        try:
            for name, port in zip("ab", ports, strict=True):
                started.append(_start(name, port, redis, origins, tmp / name))
            yield started[0], started[1]
        finally:
            for node in started:
                node.proc.terminate()
                node.proc.wait(timeout=10)


@dataclass
class Sockets:
    """Every WebSocket a page opened, and the answers it sent on each (by URL)."""

    opened: list[str] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)

    def hook(self, ws: WebSocket) -> None:
        url = ws.url
        self.opened.append(url)

        def sent(payload: str | bytes) -> None:
            if '"type":"answer"' in str(payload).replace(" ", ""):
                self.answers[url] = self.answers.get(url, 0) + 1

        ws.on("framesent", sent)


def _page(browser: Browser, errors: list[str]) -> Page:
    """A page in a context of its own (its own storage), whose script errors are collected
    the way conftest's ``page`` fixture collects them."""
    pg = browser.new_context(viewport=DESKTOP).new_page()
    collect_errors(pg, errors)
    return pg


def _act(pg: Page) -> bool:
    """One quick decision if the page asks for one: acknowledge, skip a call, or discard."""
    for selector in (
        "#result-ok:not([disabled])",
        "#show-final",
        "#actions button[data-type=skip]",
        "#actions .choice",
        ".own .tile.can",
    ):
        found = pg.locator(selector)
        if found.count():
            found.last.click()
            return True
    return False


def _play(pages: list[Page], done: Callable[[], bool], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the game did not get far enough in time"
        acted = False
        for pg in pages:
            acted = _act(pg) or acted
        if not acted:
            pages[0].wait_for_timeout(30)


def test_a_player_on_node_bs_page_plays_over_as_socket_and_a_reload_keeps_the_seat(
    cluster: tuple[Node, Node], browser: Browser
) -> None:
    a, b = cluster
    errors: list[str] = []
    # Ann opens a room on A's own page (one free seat, two bots): she is its owner
    ann = _page(browser, errors)
    ann_sockets = Sockets()
    ann.on("websocket", ann_sockets.hook)
    ann.goto(a.url + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#bots", "2")
    ann.click("#create")
    try:
        ann.wait_for_selector("#waiting")
    except PlaywrightTimeout as exc:  # once in CI: say what the page and node A saw
        shown = ann.inner_text("body")[:500]
        why = f"{errors} {shown!r} {a.log.read_text()[-3000:]}"
        raise AssertionError(f"the room on A never showed: {why}") from exc
    game = ann.evaluate("location.hash").split("/")[-1]
    code = ann.locator("#waiting h2").inner_text().split(":")[1].split()[0]

    # Bo opens the lobby on B: A's room is listed there, and joined from there
    bo = _page(browser, errors)
    bo_sockets = Sockets()
    bo.on("websocket", bo_sockets.hook)
    bo.goto(b.url + "/")
    bo.wait_for_selector(f'#rooms li[data-code="{code}"] a.join', timeout=10000)
    shot(bo, "cluster-lobby-on-b")
    bo.click(f'#rooms li[data-code="{code}"] a.join')
    bo.fill("#name", "Bo")
    bo.click("#join-seat")
    bo.wait_for_selector("#conn.online", timeout=15000)
    bo.wait_for_selector(".own .tile", timeout=15000)
    assert bo.evaluate("location.origin") == b.url  # still B's page
    play_on_a = f"ws://{a.host}/ws/play"
    assert bo_sockets.opened == [play_on_a], bo_sockets.opened
    # the node that served Ann's page is the node that runs her room: her own host
    assert ann_sockets.opened == [play_on_a], ann_sockets.opened
    # both seats are A's connections; B holds none, and runs no table
    assert a.metric("riichi_seats_connected") == 2
    assert b.metric("riichi_seats_connected") == 0
    assert b.metric("riichi_tables") == 0
    # the token went in the hello frame, never in a URL
    token = bo.evaluate(f"localStorage.getItem('seat:{game}')")
    assert token and all(token not in url for url in bo_sockets.opened)
    assert bo.evaluate(f"localStorage.getItem('node:{game}')") == a.url
    seat = bo.evaluate("window.__table.st.seat")

    _play([bo, ann], lambda: bo_sockets.answers.get(play_on_a, 0) >= 6)
    shot(bo, "cluster-table-on-b-played-on-a")

    # a reload of B's page finds the seat again, on A
    bo.reload()
    bo.wait_for_selector("#conn.online", timeout=15000)
    bo.wait_for_selector(".own .tile", timeout=15000)
    assert bo_sockets.opened == [play_on_a, play_on_a], bo_sockets.opened
    assert bo.evaluate("window.__table.st.seat") == seat
    assert a.metric("riichi_seats_connected") == 2
    before = bo_sockets.answers[play_on_a]
    _play([bo, ann], lambda: bo_sockets.answers[play_on_a] >= before + 3)
    bo.set_viewport_size(PHONE)
    shot(bo, "cluster-phone-table-on-b-after-reload")
    bo.set_viewport_size(DESKTOP)
    assert not bo_sockets.answers.keys() - {play_on_a}

    # a spectator on B watches on B's own socket: B relays A's game
    eve = _page(browser, errors)
    eve_sockets = Sockets()
    eve.on("websocket", eve_sockets.hook)
    eve.goto(f"{b.url}/#/watch/{game}")
    eve.wait_for_selector("#conn.online", timeout=15000)
    wait_until(eve, "window.__table.st.lastSeq >= 0", timeout=15000)
    assert eve_sockets.opened == [f"ws://{b.host}/ws/watch/{game}"]
    # B holds that one socket (Ann's and Bo's are A's) and A serves no spectator of its own
    assert b.metric("riichi_sockets") == 1
    assert a.metric("riichi_spectators") == 0
    shot(eve, "cluster-watch-on-b")
    for pg in (ann, bo, eve):
        pg.context.close()
    assert not errors, errors


def test_a_node_lets_its_page_connect_to_the_allowed_nodes_and_only_those(
    cluster: tuple[Node, Node],
) -> None:
    a, b = cluster
    with urllib.request.urlopen(f"{b.url}/", timeout=5) as r:
        policy = r.headers["content-security-policy"]
    sources = next(p for p in policy.split("; ") if p.startswith("connect-src "))
    assert sources.split()[1:] == [
        "'self'",
        *(
            f"{scheme}://{node.host}"
            for node in sorted((a, b), key=lambda n: n.url)
            for scheme in ("http", "ws")
        ),
    ]
    # and A takes a socket from B's page, as it refuses one from a page it does not list
    with connect(f"ws://{a.host}/ws/play", origin=Origin(b.url)):
        pass
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://{a.host}/ws/play", origin=Origin("http://evil.example"))
    assert refused.value.response.status_code == 403


def test_only_plain_origins_reach_the_policy() -> None:
    """An allowed origin that is no http(s) origin, or that would smuggle a directive into the
    header, is left out of ``connect-src``; none leaves the single server's policy as it was."""
    assert csp(frozenset()) == CSP
    policy = csp(frozenset({"http://x; script-src *", "ftp://a", "https://b.example", "[::1]"}))
    assert "connect-src 'self' https://b.example wss://b.example;" in policy
    assert "script-src *" not in policy and "ftp" not in policy
