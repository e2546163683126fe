"""Issue 41 in the browser: the organiser creates a tournament and starts its round from the
tournament page, a player joins it from the page and goes to their table from it, and the
standings, the tables and the chart change on the organiser's page without a reload (the
server's event stream); a penalty, a substitute and the last round from the page too. axe,
layout, no missing glyph in ja and zh, and screenshots (desktop and phone) of the page.

A server of its own: the organiser is made admin by the operator's command line, the clock
runs out at once (a seat nobody answers plays its default), so the player's game, against
the bots that fill the table, ends a few seconds after its first deal."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page

from tests.client.axe_check import violations
from tests.client.conftest import DESKTOP, PHONE, ROOT, collect_errors, serve, wait_until
from tests.client.test_glyphs import COLLECT, missing_glyphs
from tests.client.test_ladder import OVERLAPS, PASSWORD
from tests.server.live import GENEROUS_ENV

SHOTS = Path("/tmp/shots")
ORGANISER, PLAYER = "Kaede", "Haruto"


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose organiser is an admin; yields its base URL."""
    data = tmp_path_factory.mktemp("club")
    env = {
        **os.environ,
        **GENEROUS_ENV,
        # the table waits for its one person to connect: the game starts when they arrive
        "RIICHI_START_GRACE_S": "60",
        "RIICHI_NEXT_ROUND_S": "0.2",
        "RIICHI_BOT_THINK_S": "0",
        "RIICHI_BOT_PACE_S": "0",
        "RIICHI_LOGIN_ADDRESS_BURST": "1000",
        "RIICHI_LOGIN_ADDRESS_PER_MIN": "1000",
    }
    with serve(data, env) as url:
        with httpx.Client(base_url=url, timeout=30) as http:
            for name in (ORGANISER, PLAYER):
                made = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
                assert made.status_code == 201, made.text
        admin = [sys.executable, "-m", "server", "accounts", "admin", ORGANISER]
        done = subprocess.run(
            [*admin, "--data-dir", str(data)], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        yield url


def logged_in(context: BrowserContext, url: str, name: str) -> Page:
    """A page of ``context`` with ``name``'s session cookie (logged in through the API)."""
    got = context.request.post(f"{url}/api/session", data={"name": name, "password": PASSWORD})
    assert got.status == 200, got.text()
    page = context.new_page()
    return page


def shoot(page: Page, name: str) -> None:
    """Desktop and phone screenshots of the page's top and end (it scrolls inside .page)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for tag, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"tournament-{name}-{tag}.png"))
        page.evaluate("document.querySelector('.page').scrollTop = 1e6")
        page.screenshot(path=str(SHOTS / f"tournament-{name}-{tag}-end.png"))
        page.evaluate("document.querySelector('.page').scrollTop = 0")
    page.set_viewport_size(DESKTOP)


def test_an_organiser_runs_a_round_from_the_page(club: str, page: Page) -> None:
    context = page.context
    errors: list[str] = []
    boss = logged_in(context.browser.new_context(viewport=DESKTOP), club, ORGANISER)  # type: ignore[union-attr]
    collect_errors(boss, errors)
    # the organiser finds the tournaments from the lobby and creates one with the list's form
    boss.goto(club + "/")
    boss.click("#lobby-tournaments")
    boss.wait_for_selector("#tn-new-preset option[value=tenhou-tonpuu]", state="attached")
    boss.fill("#tn-new-name", "Club night")
    boss.select_option("#tn-new-preset", "tenhou-tonpuu")
    boss.fill("#tn-new-rounds", "2")
    boss.select_option("#tn-new-seating", "swiss")
    boss.select_option("#tn-new-fill", "bots")
    boss.fill("#tn-new-base", "0.05")  # the clock runs out at once: nobody waits on a seat
    boss.fill("#tn-new-bank", "0")
    boss.click("#tn-new-submit")
    wait_until(boss, "location.hash.startsWith('#/tournament/')")
    tid = boss.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    boss.wait_for_selector("#tn-organiser:not([hidden]) #tn-start")
    assert boss.inner_text("#tn-title") == "Club night"
    assert "Close entries" in boss.inner_text("#tn-start")
    with httpx.Client(base_url=club) as http:
        made = http.get(f"/api/tournaments/{tid}").json()
    assert (made["state"], made["seating"], made["rounds"]) == ("registering", "swiss", 2)
    assert (made["fill"], made["base_s"], made["bank_s"]) == ("bots", 0.05, 0)

    # a guest sees the tournament and a login link, no join button
    guest_context = context.browser.new_context(viewport=DESKTOP)  # type: ignore[union-attr]
    guest = guest_context.new_page()
    collect_errors(guest, errors)
    guest.goto(f"{club}/#/tournament/{tid}")
    guest.wait_for_selector("#tn-login")
    assert guest.locator("#tn-enter").count() == 0 and guest.locator("#tn-organiser").is_hidden()
    guest_context.close()

    # the player, who organises nothing, is refused a tournament of their own, in words
    player = logged_in(context, club, PLAYER)
    collect_errors(player, errors)
    player.goto(club + "/#/tournaments")
    player.wait_for_selector(f"#tn-list li[data-id='{tid}']")
    player.wait_for_selector("#tn-new-preset option", state="attached")
    player.fill("#tn-new-name", "Mine")
    player.click("#tn-new-submit")
    player.wait_for_selector("#tn-new-error:has-text('Only an admin')")
    assert violations(player) == []  # the list and the form
    shoot(player, "list")

    # the player joins from the page
    player.goto(f"{club}/#/tournament/{tid}")
    player.click("#tn-enter")
    player.wait_for_selector(f"#tn-entries li[data-name={PLAYER}]")
    assert player.locator("#tn-organiser").is_hidden()  # no controls for a player
    wait_until(boss, f"!!document.querySelector('#tn-entries li[data-name={PLAYER}]')")
    boss.evaluate("window.__sameDocument = true")  # gone if the page reloads
    assert violations(boss) == []
    shoot(boss, "registering")

    # the organiser starts round 1 from the page: entries close, bots fill the table
    boss.click("#tn-start")
    boss.wait_for_selector("#tn-tables li[data-table='1']")
    seats = boss.eval_on_selector_all(
        "#tn-tables li .tn-seatname", "ns => ns.map(n => n.dataset.name)"
    )
    assert PLAYER in seats and len(seats) == 4, seats
    assert boss.inner_text("#tn-standings tr[data-name=Haruto] td.total") == "0.0"

    # the player's page shows their table without a reload, and they go to it from there
    player.wait_for_selector("#tn-go", timeout=20000)
    assert "round 1, table 1" in player.inner_text("#tn-seat")
    shoot(player, "seated")
    player.click("#tn-go")
    wait_until(player, "location.hash.startsWith('#/play/')")
    # the game runs fast (its clock runs out at once): the hand is there, maybe under a result
    player.wait_for_selector(".own .tiles .tile", state="attached", timeout=30000)
    game = player.evaluate("location.hash.split('/')[2]")
    assert player.evaluate(f"!!localStorage.getItem('seat:{game}')")

    # the game ends (the player's clock runs out each turn); the organiser's page, never
    # reloaded, shows the points, the new standings and the chart
    boss.wait_for_selector("#tn-tables li[data-status=finished]", timeout=240000)
    wait_until(
        boss,
        "document.querySelector('#tn-standings tr[data-name=Haruto] td.total')"
        ".textContent !== '0.0'",
        timeout=10000,
    )
    assert boss.evaluate("window.__sameDocument === true")
    rows = boss.eval_on_selector_all(
        "#tn-standings tr", "rs => rs.map(r => [...r.children].map(c => c.textContent))"
    )
    with httpx.Client(base_url=club) as http:
        served = http.get(f"/api/tournaments/{tid}").json()["standings"]
    assert [r[1].replace(" (bot)", "") for r in rows] == [s["name"] for s in served]
    assert all(r[3] == "1" for r in rows), rows  # every entrant has played one game
    assert boss.locator("#tn-chart-figure svg polyline").count() == 4  # the person, the bots
    assert "Start round 2" in boss.inner_text("#tn-start")
    assert violations(boss) == []
    shoot(boss, "after-round-1")
    for lang in ("ja", "zh"):  # the same page in the other languages, live as it is
        boss.select_option("#lang", lang)
        boss.wait_for_selector(f"html[lang={lang}] #tn-standings tr[data-name=Haruto]")
        assert "(bot)" not in boss.inner_text("#tn-standings")
        assert missing_glyphs(boss, [tuple(x) for x in boss.evaluate(COLLECT)]) == [], lang
        boss.screenshot(path=str(SHOTS / f"tournament-after-round-1-{lang}.png"))
    boss.select_option("#lang", "en")
    boss.wait_for_selector("html[lang=en] #tn-start")

    # a penalty from the page: the total drops by it at once and its reason is listed
    total = "document.querySelector('#tn-standings tr[data-name=Haruto] td.total').textContent"
    before = float(boss.evaluate(total))
    boss.fill("#tn-pen-points", "5")
    boss.fill("#tn-pen-reason", "late to the table")
    boss.click("#tn-pen")
    wait_until(boss, f"parseFloat({total}) === {before - 5}")
    assert "late to the table" in boss.inner_text("#tn-penalties")
    assert boss.input_value("#tn-pen-reason") == ""  # given: ready for the next one
    # the player will not show for round 2: a bot plays for them, set from the page
    boss.select_option("#tn-sub-name", PLAYER)
    boss.click("#tn-sub")
    boss.wait_for_selector("#tn-org-done:has-text('A bot plays for Haruto')")
    boss.click("#tn-start")
    wait_until(boss, "document.querySelector('#tn-meta').textContent.endsWith('finished')", 120000)
    assert boss.locator("#tn-start").is_hidden() and boss.locator("#tn-sub-row").is_hidden()
    assert boss.evaluate("window.__sameDocument === true")
    games = boss.eval_on_selector_all(
        "#tn-standings tr td:nth-child(4)", "cs => cs.map(c => c.textContent)"
    )
    assert games == ["2"] * 4, games
    points = boss.get_attribute("#tn-chart-figure svg polyline >> nth=0", "points") or ""
    assert len(points.split()) == 3  # the start, round 1, round 2
    with httpx.Client(base_url=club) as http:
        final = http.get(f"/api/tournaments/{tid}").json()
    mine = next(s for s in final["standings"] if s["name"] == PLAYER)
    assert boss.evaluate(total) == (
        f"+{mine['total']:.1f}" if mine["total"] > 0 else f"{mine['total']:.1f}"
    )
    shoot(boss, "finished")
    player.goto(f"{club}/#/tournament/{tid}")
    player.wait_for_selector("#tn-seat:has-text('You have played every round')")
    boss.set_viewport_size(PHONE)
    found = boss.evaluate(OVERLAPS)
    boss.set_viewport_size(DESKTOP)
    assert found["wide"] is False, found
    boss.context.close()
    assert not errors, errors
