"""The client's side of the room protocol (CONTRACTS.md): the seat token sent as the first
frame (never in a URL), owner-only controls (start, kick, lock with an invite link), close
codes (4006 kicked, 1012 restarting), room labels, "back to your seat" and the shuffle
commitment checked in the page."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, Page, Route, WebSocket

from tests.client.conftest import ROOT, START_S, _free_port, shot


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        data: dict[str, object] = json.loads(r.read())
        return data


def _seat_page(browser: Browser, server: str, grant: dict[str, object]) -> Page:
    """A browser that holds the seat `grant` (as the lobby keeps it) on its table page."""
    room = grant["room"]
    assert isinstance(room, dict)
    context = browser.new_context()
    context.add_init_script(
        f"localStorage.setItem('seat:{room['game']}', '{grant['token']}');"
        f"localStorage.setItem('code:{room['game']}', '{room['code']}');"
    )
    page = context.new_page()
    page.goto(f"{server}/#/play/{room['game']}")
    return page


def test_the_lobby_offers_back_to_your_seat_for_a_game_this_browser_sits_in(
    server: str, page: Page
) -> None:
    grant = _post(f"{server}/api/rooms", {"name": "Away", "bots": 3, "base_s": 30, "bank_s": 0})
    room = grant["room"]
    assert isinstance(room, dict)
    page.goto(server + "/")
    page.evaluate(
        f"localStorage.setItem('seat:{room['game']}', '{grant['token']}');"
        f"localStorage.setItem('code:{room['game']}', '{room['code']}')"
    )
    back = page.locator(f"#rooms li[data-code='{room['code']}'] a.back-to-seat")
    back.wait_for(timeout=10000)
    assert back.inner_text() == "Back to your seat"
    assert page.locator(f"#rooms li[data-code='{room['code']}'] a.watch").count() == 0
    back.click()
    page.wait_for_selector("#conn.online", timeout=10000)
    page.wait_for_selector(".own .tile", timeout=15000)
    # back in the seat the start drew for the creator (the room started at its creation)
    assert page.evaluate("window.__table.st.seat") == grant["seat"]


def test_a_practice_room_is_labelled_in_the_list_and_at_the_table(server: str, page: Page) -> None:
    grant = _post(f"{server}/api/rooms", {"name": "Solo", "bots": 3, "seed": 7, "base_s": 30})
    room = grant["room"]
    assert isinstance(room, dict)
    page.goto(server + "/")
    tag = page.locator(f"#rooms li[data-code='{room['code']}'] .tag.practice")
    tag.wait_for(timeout=10000)
    assert tag.inner_text() == "Practice"
    page.goto(f"{server}/#/watch/{room['game']}")
    page.wait_for_selector("#room-tags .tag.practice", timeout=10000)


def test_the_shuffle_commitment_is_checked_with_the_pages_own_sha256(
    server: str, page: Page
) -> None:
    page.goto(server + "/")
    seed = 1234567890123
    good = hashlib.sha256(f"riichi-seed-v1:{seed}".encode()).hexdigest()
    verdicts = page.evaluate(
        """async ([seed, good]) => {
        const { verifySeed, commitmentOf } = await import('/js/fair.js');
        return [await commitmentOf(seed), await verifySeed(seed, good),
                await verifySeed(seed + 1, good)];
    }""",
        [seed, good],
    )
    assert verdicts == [good, "verified", "mismatch"]


# ---- these need the server side of the new protocol (hello frame, owner, kick, lock) ----


def test_the_seat_token_is_the_first_frame_and_never_in_the_socket_url(
    server: str, browser: Browser
) -> None:
    grant = _post(f"{server}/api/rooms", {"name": "Quiet", "bots": 3, "base_s": 30})
    token = str(grant["token"])
    sockets: list[WebSocket] = []
    frames: list[str] = []
    room = grant["room"]
    assert isinstance(room, dict)
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('seat:{room['game']}', '{token}')")
    page = context.new_page()

    def seen(ws: WebSocket) -> None:
        sockets.append(ws)
        ws.on("framesent", lambda f: frames.append(str(f)))

    page.on("websocket", seen)
    try:
        page.goto(f"{server}/#/play/{room['game']}")
        page.wait_for_selector(".own .tile", timeout=15000)
        assert sockets and all(token not in ws.url for ws in sockets)
        assert json.loads(frames[0]) == {"type": "hello", "token": token, "batch": True}
    finally:
        context.close()


def test_only_the_owner_starts_kicks_and_locks_and_an_invite_link_joins(
    server: str, browser: Browser
) -> None:
    owner_grant = _post(f"{server}/api/rooms", {"name": "Owner", "bots": 1, "base_s": 30})
    room = owner_grant["room"]
    assert isinstance(room, dict)
    code = str(room["code"])
    guest_grant = _post(f"{server}/api/rooms/{code}/join", {"name": "Guest"})
    owner = _seat_page(browser, server, owner_grant)
    guest = _seat_page(browser, server, guest_grant)
    try:
        owner.wait_for_selector("#waiting #start", timeout=10000)
        guest.wait_for_selector("#waiting #wait-owner", timeout=10000)
        assert guest.locator("#start, #lock, .kick").count() == 0
        shot(owner, "desktop-waiting-owner")
        # the owner removes the guest: the guest's page says so and stops
        owner.click(".kick[data-seat='1']")
        guest.wait_for_selector("#banner.kicked", timeout=10000)
        assert guest.locator("#conn.kicked").count() == 1
        # locked: the invite link (with the key) is shown, and it lets a third player in
        owner.click("#lock")
        link = owner.locator("#invite-link")
        link.wait_for(timeout=10000)
        third = browser.new_context().new_page()
        third.goto(link.inner_text())
        third.fill("#name", "Third")
        third.click("#join-seat")
        third.wait_for_selector("#conn.online", timeout=10000)
        assert third.evaluate("window.__table.st.seat") is not None
    finally:
        owner.context.close()
        guest.context.close()


def test_a_broadcast_room_created_in_the_lobby_is_labelled_at_the_table(
    server: str, page: Page
) -> None:
    page.goto(server + "/")
    page.fill("#name", "Caster")
    page.select_option("#bots", "3")
    page.check("#broadcast")
    assert "spectators see every hand, delayed" in page.locator("label.check").inner_text()
    page.click("#create")
    page.wait_for_selector("#room-tags .tag.broadcast", timeout=15000)
    assert page.evaluate("window.__table.st.room.broadcast") is True


def test_the_create_button_waits_for_the_presets(server: str, page: Page) -> None:
    """A click before /api/presets answered asked for preset "" and showed an error (a CI run
    of the broadcast test above lost its table this way): the button is off until then."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/presets", hold)
    page.goto(server + "/")
    page.fill("#name", "Early")
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the lobby never asked for the presets"
        page.wait_for_timeout(50)
    assert page.locator("#create").is_disabled()
    for route in held:
        route.continue_()
    page.unroute("**/api/presets", hold)
    page.click("#create")  # waits until the button is enabled
    page.wait_for_selector("#conn.online", timeout=15000)
    assert page.locator("#lobby-error").count() == 0 or not page.inner_text("#lobby-error")


def test_the_table_shows_the_commitment_and_verifies_the_revealed_seed(
    server: str, page: Page
) -> None:
    room = _post(f"{server}/api/rooms", {"bots": 4, "preset": "tenhou-tonpuu", "base_s": 1})
    commitment = str(room["commitment"])
    game = str(room["game"])
    deadline = time.monotonic() + 120
    page.goto(f"{server}/#/watch/{game}")
    # polled, not awaited: an all-bot table re-renders the badge on every event, and a
    # wait_for_selector can keep missing a node that is replaced as it is checked
    while not page.locator("#fair.verified").count():
        assert time.monotonic() < deadline, page.locator("#fair").all_inner_texts()
        if page.locator("#conn.refused").count():  # opened before the deal: try again
            page.reload()
        page.wait_for_timeout(500)
    assert commitment[:12] in page.locator("#fair").inner_text()
    assert page.locator("#fair").get_attribute("title") == commitment


def test_a_server_restart_shows_the_banner_and_the_seat_resumes(
    browser: Browser, tmp_path: Path
) -> None:
    """Close code 1012: the page says the server is restarting, retries with backoff and,
    once the server is back with the game, takes the seat again from the snapshot."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, RIICHI_BOT_THINK_S="0.02", RIICHI_CREATE_PER_MIN="100000")

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(tmp_path)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_S  # a loaded machine takes long to import it
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                    return proc
            except OSError:
                time.sleep(0.1)
        proc.kill()
        proc.wait()
        raise RuntimeError("server did not start")

    proc = start()
    try:
        grant = _post(f"{url}/api/rooms", {"name": "Stay", "bots": 3, "base_s": 60})
        page = _seat_page(browser, url, grant)
        page.wait_for_selector(".own .tile", timeout=15000)
        proc.send_signal(signal.SIGTERM)
        page.wait_for_selector("#banner.restarting", timeout=10000)
        proc.wait(timeout=15)
        proc = start()
        page.wait_for_selector("#conn.online", timeout=20000)
        page.wait_for_selector(".own .tile", timeout=10000)
        assert page.locator("#banner.hidden").count() == 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)
