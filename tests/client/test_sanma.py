"""Sanma in the browser: the lobby lists the presets by their labels, a tenhou-sanma-tonpuu
room with two easy bots (the lobby's bot select) draws a three-seat table, the player sets a
North aside with the kita button when it is offered, and the match is played by clicking
until the final standings."""

from __future__ import annotations

import json
import random
import time
import urllib.request

from playwright.sync_api import Page

from engine.rules.bagime import bagime
from tests.client.conftest import shot
from tests.client.test_play import SCREEN, _act

SANMA = "tenhou-sanma-tonpuu"
#: a seed whose first hand deals this seat a North
SEED = 11


def _labels(page: Page) -> dict[str, str]:
    """The lobby's rule choices: key -> what the page shows."""
    shown: dict[str, str] = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#preset option')]"
        ".map(o => [o.value, o.textContent]))"
    )
    return shown


def _create_sanma_room(page: Page, server: str) -> str:
    page.goto(server + "/")
    page.wait_for_selector(f"#preset option[value={SANMA}]", state="attached")
    labels = _labels(page)
    with urllib.request.urlopen(f"{server}/api/presets") as r:
        presets = json.loads(r.read())["presets"]
    assert labels == {p["name"]: p["label"] for p in presets}
    assert "sanma" in labels[SANMA].lower() and labels[SANMA] != SANMA
    # the walls pinned (a practice room: one human, the server's bots in the other seats), so
    # the match offers this seat a North to set aside every run
    page.route(
        "**/api/rooms",
        lambda route: route.continue_(
            post_data=json.dumps({**json.loads(route.request.post_data or "{}"), "seed": SEED})
        ),
    )
    page.fill("#name", "Tester")
    page.select_option("#preset", SANMA)
    # three seats: at most two bots beside the player (and three for an all-bot table)
    bots = page.eval_on_selector_all("#bots option", "os => os.map(o => o.value)")
    assert bots == ["0", "1", "2", "3"]
    page.select_option("#bots", "2")
    # the bot select lists GET /api/bots with the server's default chosen; easy bots here
    page.wait_for_selector("#bot-kind option[value=easy]", state="attached")
    kinds = page.eval_on_selector_all("#bot-kind option", "os => os.map(o => o.value)")
    assert sorted(kinds) == ["easy", "strong"] and page.input_value("#bot-kind") == "strong"
    page.select_option("#bot-kind", "easy")
    page.click("#create")
    page.wait_for_selector(".own .tile", timeout=15000)
    game: str = page.evaluate("location.hash").split("/")[-1]
    code = page.evaluate(f"localStorage.getItem('code:{game}')")
    with urllib.request.urlopen(f"{server}/api/rooms/{code}") as r:
        room = json.loads(r.read())
    # the player's place first, then the bots': each in the seat the seed drew for it
    assert room["draw"] == list(bagime(SEED, 3))
    placed = [room["seats"][seat] for seat in room["draw"]]
    assert [s["bot_name"] for s in placed] == [None, "easy", "easy"]
    assert page.evaluate("window.__table.st.seat") == room["draw"][0]
    return game


def _three_seats(page: Page) -> None:
    """The board has three seat areas (bottom, right, left) and three names in the centre."""
    sides = page.eval_on_selector_all(
        ".board > .seat", "ss => ss.map(s => [...s.classList].find(c => /^r[0-3]$/.test(c)))"
    )
    assert sorted(sides) == ["r0", "r1", "r3"], sides
    assert page.locator(".centre .side").count() == 3


def _kita(page: Page) -> bool:
    """Click the kita button if the inquiry offers one; True when it did."""
    button = page.locator("#actions button[data-type=kita]")
    if not button.count():
        return False
    assert button.locator(".tile").count() == 1  # the North it sets aside
    assert int(button.locator(".tile").get_attribute("data-tile") or -1) >> 2 == 30
    melds = page.evaluate("window.__table.st.tb.players[window.__table.st.seat].melds.length")
    button.click()
    own = "window.__table.st.tb.players[window.__table.st.seat]"
    deadline = time.monotonic() + 10
    while page.evaluate(f"{own}.melds.length") == melds:
        assert time.monotonic() < deadline, "the kita never reached the table"
        page.wait_for_timeout(30)
    return True


def test_a_sanma_tonpuusen_is_played_with_kita_until_the_final_standings(
    server: str, page: Page
) -> None:
    rng = random.Random(3)
    game = _create_sanma_room(page, server)
    assert page.evaluate("window.__table.st.tb.n") == 3
    kitas = results = 0
    shot_kita = False
    deadline = time.monotonic() + 300
    while not (screen := page.evaluate(SCREEN))["final"]:
        assert time.monotonic() < deadline, f"match not over in time (kita {kitas})"
        if screen["showFinal"]:
            page.locator("#show-final").click()
            continue
        if screen["ok"]:
            results += 1
            page.locator("#result-ok:not([disabled])").click()
            continue
        if screen["act"]:
            _three_seats(page)
            if page.locator("#actions button[data-type=kita]").count() and not shot_kita:
                shot(page, "sanma-kita-offered")
                shot_kita = True
            if _kita(page):
                kitas += 1
                if kitas == 1:
                    shot(page, "sanma-after-kita")
                continue
            _act(page, rng)
            continue
        page.wait_for_timeout(30)
    shot(page, "sanma-final")
    assert kitas >= 1, "no North was offered to set aside in the whole match"
    rows = page.locator("#final table tr")
    assert rows.count() == 4  # header + three seats
    shown = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(1, 4)]
    with urllib.request.urlopen(f"{server}/api/games/{game}/record?format=json") as r:
        record = json.loads(r.read())
    assert record["preset"] == SANMA and len(record["result"]["scores"]) == 3
    assert shown == sorted(record["result"]["scores"], reverse=True)
    assert sum(shown) == 105000 and results >= 1
