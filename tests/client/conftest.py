"""Browser-test fixtures: a real ``python -m server`` on a loopback port, and Debian's Chromium."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from tests import system
from tests.server.live import GENEROUS_ENV

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
#: the common laptop and desktop screens the table is looked at on (screenshots)
#: how long a server may take to start: its imports alone took over 10 s on a loaded machine
START_S = 60.0
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
WIDE: ViewportSize = {"width": 1920, "height": 1080}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(data: Path, env: dict[str, str]) -> Iterator[str]:
    """``python -m server`` on a free port with ``env``, its records and log in ``data``;
    its base URL once ``/healthz`` answers (a server that dies or is slow fails the test
    with its log)."""
    port = _free_port()
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(data)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        # a loaded 2-core machine can take many seconds to import and start the server
        deadline = time.monotonic() + START_S
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {(data / 'server.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server with quick bots and a short spectator delay; yields its base URL."""
    data = tmp_path_factory.mktemp("data")
    env = {**os.environ, **GENEROUS_ENV}  # one browser plays every player of these tests
    # all-bot tables are paced for watching (bot_pace_s); the tests want them quick
    env.update(
        RIICHI_BOT_THINK_S="0.02",
        RIICHI_BOT_PACE_S="0.01",
        RIICHI_SPECTATOR_DELAY_S="1",
        RIICHI_NEXT_ROUND_S="30",
    )
    with serve(data, env) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one test module: Playwright's sync API keeps an event loop running in
    this thread while it lives, so it must end before the async tests of other modules."""
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=system.chromium(),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()


def collect_errors(pg: Page, errors: list[str]) -> None:
    """Append the page's script errors and console errors to ``errors`` as they happen."""
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # an HTTP error answer the page reports to the user is not a script error
    pg.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page whose script errors fail the test."""
    context = browser.new_context(viewport=DESKTOP)
    pg = context.new_page()
    errors: list[str] = []
    collect_errors(pg, errors)
    yield pg
    context.close()
    assert not errors, errors


def wait_until(page: Page, expression: str, arg: object = None, timeout: float = 10000) -> None:
    """Poll ``page.evaluate(expression, arg)`` until it is truthy: Playwright's own
    ``wait_for_function`` evaluates strings with ``eval``, which the server's CSP forbids
    (rightly), while ``evaluate`` runs through the DevTools protocol, outside the page's CSP."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} ms: {expression}")
        page.wait_for_timeout(100)


def click_until(page: Page, button: str, selector: str, limit: int) -> int:
    """Click ``button`` until ``selector`` is on the page, at most ``limit`` times; the number
    of clicks. The clicks are the button's own (``HTMLElement.click()``, which runs its click
    handler as a mouse click does) in one script, not one Playwright round trip each: stepping
    a replay to a hand's end is a means of these tests, and hundreds of round trips cost
    seconds each time. Fails when the selector never shows."""
    clicks: int = page.evaluate(
        """([button, selector, limit]) => {
          for (let n = 0; n <= limit; n++) {
            if (document.querySelector(selector)) return n;
            if (n < limit) document.querySelector(button).click();
          }
          return -1;
        }""",
        [button, selector, limit],
    )
    assert clicks >= 0, f"no {selector} after {limit} clicks of {button}"
    return clicks


def to_fixed(x: float, digits: int = 1) -> str:
    """JavaScript's ``x.toFixed(digits)`` for ``x >= 0``: the double's exact value rounded
    half up. Python's format rounds an exact tie to even (``f"{16.25:.1f}"`` is ``16.2``, the
    page shows ``16.3``), so a percentage the page prints is checked against this.

    >>> to_fixed(16.25), to_fixed(0.1625 * 100), to_fixed(2.675, 2)
    ('16.3', '16.3', '2.67')
    """
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def shots(page: Page, name: str, sizes: dict[str, ViewportSize]) -> None:
    """One screenshot per viewport (``{prefix}-{name}.png``), then back to the desktop size."""
    for prefix, size in sizes.items():
        page.set_viewport_size(size)
        shot(page, f"{prefix}-{name}")
    page.set_viewport_size(DESKTOP)
