"""A spectator finds a running game in the lobby's room list and watches it: at a broadcast
table every hand open (the god view, delayed), at a private table only what is public until
a hand ends, when that hand's snapshot opens every hand; no decision is offered. The seated
player here never acts: a short clock answers for them (tsumogiri / skip)."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Browser, Page

from tests.client.conftest import shot, wait_until

#: how long the first five discards may take: a first hand that ends sooner (a bot's
#: kyuushu, an early win) waits out the idle seat's next-round clock (30 s in conftest's
#: server) before the next hand deals
RIVER_MS = 75_000


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req) as r:
        answer: dict[str, object] = json.loads(r.read())
        return answer


def test_spectator_sees_all_hands_of_a_broadcast_game_from_the_room_list(
    server: str, page: Page, browser: Browser
) -> None:
    body = {"name": "Idle", "preset": "tenhou-tonpuu", "bots": 3, "base_s": 0.3, "bank_s": 0}
    body["broadcast"] = True
    grant = _post(f"{server}/api/rooms", body)
    room = grant["room"]
    assert isinstance(room, dict)
    player = browser.new_context()
    player.add_init_script(f"localStorage.setItem('seat:{room['game']}', '{grant['token']}')")
    seat_page = player.new_page()
    seat_page.goto(f"{server}/#/play/{room['game']}")
    try:
        page.goto(server + "/")
        link = page.locator(f"#rooms li[data-code='{room['code']}'] a")
        link.wait_for(timeout=10000)
        link.click()
        page.wait_for_selector("#conn.online", timeout=10000)
        assert page.evaluate("location.hash") == f"#/watch/{room['game']}"
        wait_until(
            page, "document.querySelectorAll('.seat .river .tile').length > 4", timeout=RIVER_MS
        )
        # god view: the three other hands are face up (a closed kan's outer tiles lie face
        # down in its meld, not in the hand), the bottom hand too
        assert page.locator(".hand.opp .tiles .tile.back").count() == 0
        assert page.locator(".hand.opp .tile[data-tile]").count() >= 3 * 4
        assert page.locator(".own .tile[data-tile]").count() >= 4
        assert page.locator("#actions button").count() == 0
        # the seated player sees only their own hand
        assert seat_page.locator(".hand.opp .tiles .tile[data-tile]").count() == 0
        shot(page, "desktop-watch")
        # switching the viewpoint puts that seat's hand at the bottom
        page.select_option("#watch-view", "2")
        hand, shown = page.evaluate(
            "[window.__table.st.tb.players[2].hand.filter(x => x !== null),"
            " [...document.querySelectorAll('.own .tiles .tile[data-tile]')]"
            ".map(e => Number(e.dataset.tile))]"
        )
        assert set(hand) <= set(shown)
        before = page.locator(".seat .river .tile").count()
        wait_until(
            page,
            f"document.querySelectorAll('.seat .river .tile').length != {before}"
            " || document.querySelector('#overlay')",
            timeout=20000,
        )
    finally:
        player.close()


def test_a_private_tables_spectator_sees_concealed_hands_only_once_the_hand_ends(
    server: str, page: Page, browser: Browser
) -> None:
    body = {"name": "Idle", "preset": "tenhou-tonpuu", "bots": 3, "base_s": 0.3, "bank_s": 0}
    grant = _post(f"{server}/api/rooms", body)
    room = grant["room"]
    assert isinstance(room, dict)
    player = browser.new_context()
    player.add_init_script(f"localStorage.setItem('seat:{room['game']}', '{grant['token']}')")
    player.new_page().goto(f"{server}/#/play/{room['game']}")
    try:
        page.goto(f"{server}/#/watch/{room['game']}")
        wait_until(
            page, "document.querySelectorAll('.seat .river .tile').length > 4", timeout=RIVER_MS
        )
        # live: the public view, every concealed tile face down (called melds are public)
        assert page.locator(".hand.opp .tiles .tile[data-tile]").count() == 0
        assert page.locator(".hand.opp .tiles .tile.back").count() >= 3 * 4
        assert page.locator(".own .tiles .tile[data-tile]").count() == 0
        # the hand's end: its god-view snapshot opens all four hands under the result
        page.wait_for_selector(".overlay .result", timeout=90000)
        wait_until(
            page,
            "document.querySelectorAll('.hand.opp .tiles .tile[data-tile]').length >= 3 * 4",
            timeout=5000,
        )
        shot(page, "desktop-watch-hand-end")
        assert page.locator(".own .tiles .tile[data-tile]").count() >= 4
    finally:
        player.close()
