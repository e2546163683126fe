"""Issue 34 in the browser: register, log in and out, change the password and delete the
account from the account page; queue for a ranked lobby (three more accounts queued through the
API make the table), get seated and play it at /ws/play; a player's profile (dan with its bar
towards promotion, R, stable dan, placements, stats, rating graph, games) and the leaderboard
drawn from real finished ranked games; the own name linked to its profile; axe and layout on
the new pages; a login done with the keyboard alone. A server of its own with two lobbies: one
with a real clock (a table to look at) and one with a clock of 50 ms a decision, whose games
four API players play to their end in seconds (a game a seat never plays counts for nobody:
docs/ranking.md)."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize

from tests.client.axe_check import violations
from tests.client.conftest import (
    DESKTOP,
    LAPTOP,
    PHONE,
    click_until,
    serve,
    to_fixed,
    wait_until,
)
from tests.server.live import GENEROUS_ENV
from tests.server.procs import Player

PASSWORD = "correct horse battery"
LOBBIES = [
    {"name": "table", "preset": "tenhou-tonpuu", "base_s": 20, "bank_s": 20},
    {"name": "quick", "preset": "tenhou-tonpuu", "base_s": 0.05, "bank_s": 0},
]
SHOTS = Path("/tmp/shots")
#: the players of the finished games the profile and leaderboard tests read
PLAYERS = ["Aoi", "Ren", "Sora", "Mio"]
#: a review starts a worker process that imports the engine, on a shared machine
REVIEW_PATIENCE_S = 240.0


@pytest.fixture(scope="module")
def ranked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server with the two ranked lobbies; yields its base URL."""
    data = tmp_path_factory.mktemp("ranked")
    env = {
        **os.environ,
        **GENEROUS_ENV,
        "RIICHI_RANKED_LOBBIES": json.dumps(LOBBIES),
        # the first deal waits for the browser's seat to connect (the API's accounts of
        # the "table" lobby never do: their seats keep their clocks)
        "RIICHI_START_GRACE_S": "5",
        "RIICHI_NEXT_ROUND_S": "0.2",
        "RIICHI_RANKED_DRAW_S": "0.2",
        "RIICHI_LOGIN_ADDRESS_BURST": "1000",
        "RIICHI_LOGIN_ADDRESS_PER_MIN": "1000",
        "RIICHI_LOGIN_BURST": "100",
        "RIICHI_LOGIN_PER_MIN": "100",
    }
    with serve(data, env) as url:
        yield url


def account(url: str, name: str) -> str:
    """Register ``name`` through the API; its bearer token."""
    with httpx.Client(base_url=url, timeout=30) as http:
        made = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code in (201, 409), made.text
        login = http.post("/api/session", json={"name": name, "password": PASSWORD})
        assert login.status_code == 200, login.text
        token: str = login.json()["token"]
        return token


def queue(url: str, token: str, lobby: str) -> dict[str, Any]:
    with httpx.Client(base_url=url, timeout=30) as http:
        got = http.post("/api/queue", json={"lobby": lobby}, headers=_bearer(token))
        assert got.status_code == 200, got.text
        answer: dict[str, Any] = got.json()
        return answer


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seated(http: httpx.Client, tokens: list[str]) -> list[dict[str, Any]]:
    """Each account's grant once the lobby's draw has seated them all (polling is also
    each entry's heartbeat)."""
    deadline = time.monotonic() + 30
    while True:
        grants = [http.get("/api/queue", headers=_bearer(t)).json() for t in tokens]
        if all(g["state"] == "seated" for g in grants):
            return grants
        assert time.monotonic() < deadline, grants
        time.sleep(0.1)


async def _play(players: list[Player]) -> None:
    await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)


@pytest.fixture(scope="module")
def finished(ranked: str) -> list[str]:
    """Three ranked games of PLAYERS played to their end in the quick lobby, each seat by a
    player over /ws/play answering at random; the games' ids."""
    tokens = [account(ranked, n) for n in PLAYERS]
    games = []
    with httpx.Client(base_url=ranked, timeout=30) as http:
        for _ in range(3):
            for token in tokens:
                queue(ranked, token, "quick")
            grants = seated(http, tokens)
            grant = grants[0]
            games.append(grant["game"])
            host = ranked.removeprefix("http://")
            players = [Player(host, g["token"], seed=i) for i, g in enumerate(grants)]
            with ThreadPoolExecutor(1) as pool:  # this thread's loop is playwright's
                pool.submit(asyncio.run, _play(players)).result()
            deadline = time.monotonic() + 120
            while http.get(f"/api/rooms/{grant['code']}").json()["status"] != "finished":
                assert time.monotonic() < deadline, "the quick ranked game did not finish"
                time.sleep(0.3)
            # the standings move in the commit that finishes the game; the stats just after
            while True:
                p = http.get(f"/api/players/{PLAYERS[0]}")
                if p.status_code == 200 and p.json()["lobbies"][0]["stats"]["games"] == len(games):
                    break
                assert time.monotonic() < deadline, p.text
                time.sleep(0.2)
    return games


def snap(page: Page, name: str) -> None:
    """The window, and when the page scrolls (inside .page) its end too."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"ladder-{name}.png"))
    scrolls = "(p) => !!p && p.scrollHeight > p.clientHeight + 1"
    if page.evaluate(f"({scrolls})(document.querySelector('.page'))"):
        page.evaluate("document.querySelector('.page').scrollTop = 1e6")
        page.screenshot(path=str(SHOTS / f"ladder-{name}-end.png"))
        page.evaluate("document.querySelector('.page').scrollTop = 0")


def set_lang(page: Page, url: str, lang: str) -> None:
    page.goto(url + "/")
    page.evaluate(f"localStorage.setItem('lang', '{lang}')")
    page.reload()


def log_in(page: Page, url: str, name: str) -> None:
    """Log in through the account page's form."""
    page.goto(url + "/#/account")
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#me-link")


def test_register_log_in_queue_and_play_the_ranked_table(ranked: str, page: Page) -> None:
    page.goto(ranked + "/")
    page.wait_for_selector("#ranked-lobbies li[data-lobby=table] .login-to-queue")
    assert page.locator("#ranked-lobbies button.queue").count() == 0  # a guest: no queue button
    page.click("#login-link")
    page.fill("#register-name", "Hikari")
    page.fill("#register-password", PASSWORD)
    page.click("#register-submit")
    page.wait_for_selector("#me-link")
    assert page.inner_text("#me-link") == "Hikari"
    assert page.get_attribute("#me-link", "href") == "#/player/Hikari"
    # out, and in again through the login form
    page.click("#account-link")
    page.click("#logout")
    page.wait_for_selector("#login-link")
    log_in(page, ranked, "Hikari")
    page.goto(ranked + "/")
    page.click("#ranked-lobbies li[data-lobby=table] button.queue")
    page.wait_for_selector("#wait-clock")
    state = page.inner_text("#queue-state")
    assert "1" in state and page.inner_text("#wait-clock").startswith("0:0"), state
    wait_until(page, "document.querySelector('#wait-clock').textContent !== '0:00'", timeout=5000)
    assert page.locator("#ranked-lobbies button.queue").count() == 0  # one queue at a time
    snap(page, "queued")
    page.set_viewport_size(PHONE)
    found = page.evaluate(OVERLAPS)
    snap(page, "queued-phone")
    assert found == {"out": [], "wide": False}, found
    page.set_viewport_size(DESKTOP)
    others = [account(ranked, n) for n in ("Kenta", "Yui", "Daichi")]
    for token in others:
        queue(ranked, token, "table")
    # seated: straight to the table, played over /ws/play with the queue's seat token
    wait_until(page, "location.hash.startsWith('#/play/')", timeout=15000)
    game = page.evaluate("location.hash.split('/')[2]")
    page.wait_for_selector(".own .tiles .tile", timeout=20000)
    assert page.evaluate(f"localStorage.getItem('seat:{game}')")
    wait_until(page, "document.querySelectorAll('.own .tiles .tile').length >= 13", timeout=15000)
    mine = page.locator(".centre .side a.name")
    assert mine.count() == 1 and mine.inner_text() == "Hikari"
    assert mine.get_attribute("href") == "#/player/Hikari"
    assert mine.get_attribute("target") == "_blank"
    names = page.eval_on_selector_all(".centre .side .name", "ns => ns.map(n => n.textContent)")
    assert sorted(names) == ["Daichi", "Hikari", "Kenta", "Yui"]
    snap(page, "seated")
    page.set_viewport_size(PHONE)
    snap(page, "seated-phone")
    page.set_viewport_size(DESKTOP)
    # the lobby in another tab, while this one plays: the seat is offered, no second queue
    lobby = page.context.new_page()
    lobby.goto(ranked + "/")
    lobby.wait_for_selector("#ranked-seat")
    assert lobby.get_attribute("#ranked-seat", "href") == f"#/play/{game}"
    assert lobby.locator("#ranked-lobbies button.queue").count() == 0


def test_the_join_that_completes_a_table_goes_straight_to_the_seat(ranked: str, page: Page) -> None:
    for name in ("Haru", "Natsu", "Aki"):
        queue(ranked, account(ranked, name), "table")
    account(ranked, "Fuyu")
    log_in(page, ranked, "Fuyu")
    page.goto(ranked + "/")
    page.wait_for_selector("#ranked-lobbies li[data-lobby=table] button.queue")
    assert "3" in page.inner_text("#ranked-lobbies li[data-lobby=table] .waiting-count")
    page.click("#ranked-lobbies li[data-lobby=table] button.queue")
    wait_until(page, "location.hash.startsWith('#/play/')", timeout=10000)
    wait_until(page, "document.querySelectorAll('.own .tiles .tile').length >= 13", timeout=20000)
    assert page.inner_text(".centre .side a.name") == "Fuyu"


def test_change_the_password_then_delete_the_account(ranked: str, page: Page) -> None:
    account(ranked, "Tsubasa")
    log_in(page, ranked, "Tsubasa")
    page.click("#account-link")
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "a new long password")
    page.click("#password-submit")
    page.wait_for_selector("#password-done:has-text('Password changed')")
    page.click("#logout")
    page.wait_for_selector("#login-link")
    page.goto(ranked + "/#/account")
    page.fill("#login-name", "Tsubasa")
    page.fill("#login-password", PASSWORD)  # the old one
    page.click("#login-submit")
    page.wait_for_selector("#login-error:has-text('Wrong name or password')")
    page.fill("#login-password", "a new long password")
    page.click("#login-submit")
    page.wait_for_selector("#me-link")
    page.click("#account-link")
    page.fill("#delete-password", PASSWORD)  # not the password any more: refused
    page.click("#delete-submit")
    page.click("#delete-confirm")
    page.wait_for_selector("#delete-error:has-text('Wrong name or password')")
    assert page.locator("#me-link").count() == 1
    page.fill("#delete-password", "a new long password")
    page.click("#delete-submit")
    page.wait_for_selector("#delete-dialog[role], #delete-dialog .panel[role=dialog]")
    page.click("#delete-cancel")  # asked first: nothing happens on cancel
    assert page.locator("#me-link").count() == 1
    page.click("#delete-submit")
    page.click("#delete-confirm")
    page.wait_for_selector("#login-link")
    with httpx.Client(base_url=ranked) as http:
        body = {"name": "Tsubasa", "password": "a new long password"}
        gone = http.post("/api/session", json=body)
        assert gone.status_code == 401


def test_a_login_with_the_keyboard_alone(ranked: str, page: Page) -> None:
    account(ranked, "Kiiboodo")
    page.goto(ranked + "/")
    page.wait_for_selector("#login-link")
    for _ in range(30):  # Tab through the header to the login link
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "login-link":
            break
    else:
        raise AssertionError("Tab never reached the login link")
    page.keyboard.press("Enter")
    page.wait_for_selector("#login-name")
    wait_until(page, "document.activeElement.id === 'login-name'")
    page.keyboard.type("Kiiboodo")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "login-password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("#me-link")
    assert page.inner_text("#me-link") == "Kiiboodo"


def _profile(url: str, name: str) -> dict[str, Any]:
    with httpx.Client(base_url=url) as http:
        got = http.get(f"/api/players/{name}")
        assert got.status_code == 200, got.text
        found: dict[str, Any] = got.json()
        return found


def test_the_profile_shows_the_players_standing_stats_graph_and_games(
    ranked: str, finished: list[str], page: Page
) -> None:
    for lang, dan_names in (("en", None), ("ja", "server")):
        set_lang(page, ranked, lang)
        for name in PLAYERS:
            p = _profile(ranked, name)
            s = p["lobbies"][0]
            page.goto(f"{ranked}/#/player/{name}")
            wait_until(page, "document.querySelector('.page.profile')?.dataset.ready === '1'")
            sec = page.locator(".standing[data-lobby=quick]")
            shown = sec.locator(".dan-name").inner_text()
            if dan_names == "server":  # Tenhou's own names, as the server gives them
                assert shown == s["dan_name"]
            assert sec.locator(".rating dd").inner_text() == f"{s['rating']:.2f}"
            assert sec.locator(".games dd").inner_text() == str(s["games"]) == "3"
            bar = sec.locator("progress.dan-bar")
            most = int(bar.get_attribute("max") or 0)
            assert int(bar.get_attribute("value") or -1) == min(s["points"], most)
            assert sec.locator(".dan-points").inner_text().startswith(f"{s['points']} / ")
            counts = sec.locator("table.placements tbody tr").first.locator("td").all_inner_texts()
            assert [int(c) for c in counts] == s["placements"]
            avg = sec.locator("tr[data-stat=statAvgPlace] td").inner_text()
            assert avg == f"{s['stats']['average_placement']:.2f}"
            hands = sec.locator("tr[data-stat=statHands] td").inner_text()
            assert hands == str(s["stats"]["rounds"]) and s["stats"]["rounds"] > 0
            stable = sec.locator(".stable dd").inner_text()
            assert stable == ("—" if s["stable_dan"] is None else f"{s['stable_dan']:.2f}")
            # the rating graph: R before the first game, then after each of the three
            pts = page.get_attribute("#rating-graph polyline", "points") or ""
            assert len(pts.split()) == 4
            label = page.get_attribute("#rating-graph svg", "aria-label") or ""
            ratings = [h["rating"] for h in reversed(p["history"])]
            assert label.endswith(" → ".join(f"{r:.1f}" for r in [1500.0, *ratings])), label
            wait_until(page, "document.querySelectorAll('#profile-games tr').length === 3")
            rows = page.locator("#profile-games tr")
            shown_games = rows.evaluate_all("rs => rs.map(r => r.dataset.game)")
            assert sorted(shown_games) == sorted(finished)
            newest = p["history"][0]["game"]
            assert rows.first.locator("a.replay").get_attribute("href") == f"#/replay/{newest}"
            # every seat of a ranked game is an account: each name opens its profile
            hrefs = "as => as.map(a => a.getAttribute('href'))"
            links = rows.first.locator("a.player-link").evaluate_all(hrefs)
            assert sorted(links) == sorted(f"#/player/{n}" for n in PLAYERS)
        snap(page, f"profile-{lang}")


def test_the_profile_shows_the_agreement_of_the_players_reviewed_seat(
    ranked: str, finished: list[str], page: Page
) -> None:
    """No reviews, no agreement section; once the seat Aoi sat in is reviewed, the profile
    serves that review (and not another seat's) and shows its match rate and graph."""
    name = PLAYERS[0]
    page.goto(f"{ranked}/#/player/{name}")
    wait_until(page, "document.querySelector('.page.profile')?.dataset.ready === '1'")
    assert page.locator("#agreement").count() == 0
    assert _profile(ranked, name)["reviews"] == []
    with httpx.Client(base_url=ranked, timeout=30) as http:
        games = http.get(f"/api/players/{name}/games").json()["games"]
        seat = next(g["seat"] for g in games if g["game"] == finished[0])
        other = (seat + 1) % 4
        other_name = next(
            n for n in PLAYERS if n != name and _seat_of(ranked, n, finished[0]) == other
        )
        # each review asked by the seat's own account: only those feed a match rate
        for asked, who in ((seat, name), (other, other_name)):
            mine = _bearer(account(ranked, who))
            got = http.post(f"/api/games/{finished[0]}/review", json={"seat": asked}, headers=mine)
            assert got.status_code in (200, 202), got.text
        deadline = time.monotonic() + REVIEW_PATIENCE_S
        states: dict[int, Any] = {}
        while len(states) < 2:
            assert time.monotonic() < deadline, "the reviews did not finish"
            time.sleep(0.5)
            for asked in (seat, other):
                state = http.get(f"/api/games/{finished[0]}/review?seat={asked}").json()
                assert state["status"] != "failed", state
                if state["status"] == "done":
                    states[asked] = state["review"]
    review = states[seat]
    p = _profile(ranked, name)
    assert [(r["game"], r["engine"]) for r in p["reviews"]] == [(finished[0], "strong")]
    assert p["reviews"][0]["match_rate"] == review["match_rate"] == p["match_rate"]
    assert p["reviews"][0]["rating"] == review["rating"]
    assert _profile(ranked, other_name)["match_rate"] == states[other]["match_rate"]
    for lang, heading in (("en", "Agreement with the reviewer"), ("ja", "AI検討との一致率")):
        set_lang(page, ranked, lang)
        page.goto(f"{ranked}/#/player/{name}")
        wait_until(page, "document.querySelector('.page.profile')?.dataset.ready === '1'")
        assert page.inner_text("#agreement-title") == heading
        shown = page.locator("#agreement .agreement dd").inner_text()
        assert shown == f"{to_fixed(review['match_rate'] * 100)}%"
        assert page.locator("#agreement .reviewed dd").inner_text() == "1"
        assert page.locator("#agreement-graph circle").count() == 1
        page.locator("#agreement").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"ladder-agreement-{lang}.png"))


def _seat_of(url: str, name: str, game: str) -> int:
    with httpx.Client(base_url=url) as http:
        games = http.get(f"/api/players/{name}/games").json()["games"]
        return int(next(g["seat"] for g in games if g["game"] == game))


def test_dan_names_follow_the_language(ranked: str, finished: list[str], page: Page) -> None:
    promoted = [n for n in PLAYERS if _profile(ranked, n)["lobbies"][0]["dan"] > 0]
    assert promoted, "three games promote somebody from 新人"
    name = promoted[0]
    dan = _profile(ranked, name)["lobbies"][0]["dan"]
    expected = {"en": f"{10 - dan} kyu", "ja": f"{10 - dan}級", "zh": f"{10 - dan}级"}
    for lang, text in expected.items():
        set_lang(page, ranked, lang)
        page.goto(f"{ranked}/#/player/{name}")
        page.wait_for_selector(".dan-name")
        assert page.inner_text(".dan-name") == text


def test_the_leaderboard_ranks_the_players(ranked: str, finished: list[str], page: Page) -> None:
    with httpx.Client(base_url=ranked) as http:
        board = http.get("/api/leaderboard?lobby=quick").json()["players"]
    assert {p["name"] for p in board} >= set(PLAYERS)
    for lang in ("en", "ja"):
        set_lang(page, ranked, lang)
        page.goto(f"{ranked}/#/leaderboard/quick")
        wait_until(page, "document.querySelector('.page.leaderboard-page')?.dataset.ready === '1'")
        rows = page.locator("#board-rows tr")
        assert rows.evaluate_all("rs => rs.map(r => r.dataset.name)") == [p["name"] for p in board]
        first = rows.first
        top = board[0]["name"]
        assert first.locator("a.player-link").get_attribute("href") == f"#/player/{top}"
        cells = first.locator("td").all_inner_texts()
        assert cells[0] == "1" and cells[2] == str(board[0]["points"])
        assert cells[3] == f"{board[0]['rating']:.2f}"
        if lang == "ja":
            assert cells[1] == board[0]["dan_name"]
        snap(page, f"leaderboard-{lang}")
        # the other lobby's board, as the API has it (empty: a note says so)
        with httpx.Client(base_url=ranked) as http:
            other = http.get("/api/leaderboard?lobby=table").json()["players"]
        page.select_option("#board-lobby", "table")
        wait_until(page, "location.hash === '#/leaderboard/table'")
        if other:
            names = [p["name"] for p in other]
            wait_until(page, f"document.querySelectorAll('#board-rows tr').length === {len(names)}")
            assert (
                page.locator("#board-rows tr").evaluate_all("rs => rs.map(r => r.dataset.name)")
                == names
            )
        else:
            wait_until(page, "document.querySelector('#board-note').textContent.length > 0")
            assert page.locator("#board-rows tr").count() == 0


def test_the_own_name_links_to_the_profile_in_the_lobby(
    ranked: str, finished: list[str], page: Page
) -> None:
    log_in(page, ranked, "Aoi")
    page.goto(ranked + "/")
    wait_until(page, "document.querySelectorAll('#finished li[data-game]').length >= 3")
    row = page.locator(f"#finished li[data-game='{finished[-1]}']")
    links = row.locator("a.player-link")
    assert links.count() == 1 and links.inner_text() == "Aoi"  # only the own name
    assert links.get_attribute("href") == "#/player/Aoi"
    links.click()
    wait_until(page, "document.querySelector('.page.profile')?.dataset.ready === '1'")
    assert page.inner_text("#profile-name") == "Aoi"


def test_the_own_name_links_to_the_profile_in_results(
    ranked: str, finished: list[str], page: Page
) -> None:
    """A finished game's last hand and standings (the replay viewer draws them with the table's
    own panels): the own name is a link to the profile, opened in a new tab; nobody else's."""
    log_in(page, ranked, "Ren")
    game = finished[-1]
    with httpx.Client(base_url=ranked) as http:
        rounds = len(http.get(f"/api/games/{game}/record?format=tenhou").json()["log"])
    page.goto(f"{ranked}/#/replay/{game}")
    page.wait_for_selector(".board")
    page.select_option("#replay-round", str(rounds - 1))
    click_until(page, "#replay-next", ".overlay .result", 400)
    mine = page.locator(".overlay .result a.player-link")
    assert mine.count() >= 1 and set(mine.all_inner_texts()) == {"Ren"}
    page.click("#replay-next")
    page.wait_for_selector("#final")
    link = page.locator("#final a.player-link")
    assert link.count() == 1 and link.inner_text() == "Ren"
    assert link.get_attribute("href") == "#/player/Ren" and link.get_attribute("target") == "_blank"
    snap(page, "results-own-name")


def test_an_unknown_player_has_no_profile(ranked: str, page: Page) -> None:
    page.goto(f"{ranked}/#/player/Nobody")
    page.wait_for_selector("#profile-error")
    assert "No ranked games" in page.inner_text("#profile-error")


def test_the_new_pages_have_no_serious_accessibility_violation(
    ranked: str, finished: list[str], page: Page
) -> None:
    for lang in ("en", "ja"):
        set_lang(page, ranked, lang)
        page.goto(ranked + "/#/account")
        page.wait_for_selector("#login-name")
        assert violations(page) == [], (lang, "login")
        page.goto(f"{ranked}/#/player/{PLAYERS[0]}")
        wait_until(page, "document.querySelectorAll('#profile-games tr').length === 3")
        assert violations(page) == [], (lang, "profile")
        page.goto(f"{ranked}/#/leaderboard/quick")
        wait_until(page, "document.querySelector('.page.leaderboard-page')?.dataset.ready === '1'")
        assert violations(page) == [], (lang, "leaderboard")
        page.goto(ranked + "/")
        page.wait_for_selector("#ranked-lobbies li")
        assert violations(page) == [], (lang, "lobby")
    log_in(page, ranked, "Aoi")
    page.click("#account-link")
    page.wait_for_selector("#password")
    assert violations(page) == [], "account settings"
    snap(page, "account-settings")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-submit")
    page.wait_for_selector("#delete-dialog")
    assert violations(page) == [], "delete dialog"
    snap(page, "delete-dialog")
    page.keyboard.press("Escape")  # the dialog closes; the account stays
    page.wait_for_selector("#delete-dialog", state="detached")
    assert page.locator("#me-link").count() == 1
    assert page.is_enabled("#delete-submit")
    assert page.evaluate("document.activeElement.id") == "delete-submit"  # focus back


#: leaf boxes that overlap one another (neither inside the other), and anything that makes the
#: page wider than the window
OVERLAPS = """() => {
  const sel = 'h2, h3, th, td, dt, dd, progress, button, input, select, a, .dan-name, '
    + '.dan-points, .to-promotion, svg, .legend span, p, caption';
  const all = [...document.querySelectorAll('.page ' + sel.split(', ').join(', .page '))]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
  const out = [];
  const cut = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i], b = all[j];
      if (a.contains(b) || b.contains(a)) continue;
      if (cut(a.getBoundingClientRect(), b.getBoundingClientRect()))
        out.push([a, b].map((e) => `${e.tagName}.${e.className} "${e.textContent.slice(0, 20)}"`)
          .join(' / '));
    }
  const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  return { out: out.slice(0, 10), wide };
}"""


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_new_pages_fit_without_overlap(
    ranked: str, finished: list[str], page: Page, size: ViewportSize
) -> None:
    tag = f"{size['width']}x{size['height']}"
    page.set_viewport_size(size)
    for lang in ("en", "ja"):
        set_lang(page, ranked, lang)
        pages = [
            ("account", "/#/account", "#login-name"),
            ("profile", f"/#/player/{PLAYERS[0]}", "#profile-games tr"),
            ("leaderboard", "/#/leaderboard/quick", "#board-rows tr"),
            ("lobby", "/", "#ranked-lobbies li"),
        ]
        for what, path, ready in pages:
            page.goto(ranked + path)
            page.wait_for_selector(ready)
            page.wait_for_timeout(200)
            found = page.evaluate(OVERLAPS)
            snap(page, f"{what}-{lang}-{tag}")
            assert found["out"] == [], (what, lang, found["out"])
            assert not found["wide"], (what, lang, "wider than the window")
