"""A stored game in the replay viewer: an all-bot game ends, the lobby lists it among the
finished games, and its replay steps through the first round to a result whose deltas are
the record's."""

from __future__ import annotations

import json
import time
import urllib.request

from playwright.sync_api import Page

from tests.client.conftest import click_until, shot


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        data: dict[str, object] = json.loads(r.read())
        return data


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=30) as r:
        data: dict[str, object] = json.loads(r.read())
        return data


def _round_deltas(result: list[list[int] | str]) -> list[int]:
    """The seat deltas of a Tenhou JSON round result: ["和了", deltas, info, deltas, info...]
    (one pair per winner), ["流局", deltas] or ["九種九牌"] (no payments)."""
    rows = [r for r in result[1::2] if isinstance(r, list)]
    return [sum(r[s] for r in rows) for s in range(4)]


def test_a_finished_bot_game_is_listed_and_replays_to_its_first_result(
    server: str, page: Page
) -> None:
    room = _post(
        f"{server}/api/rooms",
        {"bots": 4, "preset": "tenhou-tonpuu", "base_s": 1, "bank_s": 0, "public": True},
    )
    game = str(room["game"])
    page.goto(server + "/#/")
    row = page.locator(f'#finished li[data-game="{game}"]')
    deadline = time.monotonic() + 120
    while not row.count():  # the lobby refreshes its lists every 3 s
        if time.monotonic() > deadline:
            status = _get(f"{server}/api/games/{game}/record?format=json").get("status")
            raise AssertionError(f"the all-bot game never showed as finished ({status})")
        page.wait_for_timeout(500)
    assert row.locator("a.replay").inner_text() == "Replay"
    # the record within reach from the list: both downloads, and a link to copy
    record = f"/api/games/{game}/record?format="
    assert row.locator("a.dl-tenhou").get_attribute("href") == record + "tenhou"
    assert row.locator("a.dl-mjai").get_attribute("href") == record + "mjai"
    assert row.locator("button.copy").get_attribute("data-link") == f"{server}/#/replay/{game}"
    # newest first (other tests' bot games on this server may finish after this one)
    ended = [
        float(t)
        for t in page.locator("#finished li").evaluate_all(
            "rows => rows.map(r => r.dataset.finished)"
        )
    ]
    assert len(ended) >= 1 and ended == sorted(ended, reverse=True)
    row.locator("a.replay").click()
    page.wait_for_selector(".board")
    assert page.locator(".centre .round").inner_text() == "East 1"

    log = _get(f"{server}/api/games/{game}/record?format=tenhou")["log"]
    assert isinstance(log, list)
    click_until(page, "#replay-next", ".overlay .result", 400)
    shot(page, "desktop-stored-replay-result")
    rows = page.locator(".overlay .deltas tr:has(td)")
    shown = [int(rows.nth(s).locator("td").nth(1).inner_text()) for s in range(4)]
    assert shown == _round_deltas(log[0][16])


def test_the_replay_shows_the_last_hands_result_then_the_recorded_final_scores(
    server: str, page: Page
) -> None:
    """Issue 13, 1 and 3: the viewer's last round ends on that hand's result (not straight on
    the standings), and the standings one step later carry the record's points, not ×100."""
    room = _post(
        f"{server}/api/rooms",
        {"bots": 4, "preset": "tenhou-tonpuu", "base_s": 1, "bank_s": 0, "public": True},
    )
    game = str(room["game"])
    deadline = time.monotonic() + 120
    while _get(f"{server}/api/games/{game}/record?format=json").get("status") != "finished":
        assert time.monotonic() < deadline, "the all-bot game did not finish"
        time.sleep(0.5)
    record = _get(f"{server}/api/games/{game}/record?format=json")
    tenhou = _get(f"{server}/api/games/{game}/record?format=tenhou")
    log = tenhou["log"]
    assert isinstance(log, list)
    page.goto(f"{server}/#/replay/{game}")
    page.wait_for_selector(".board")
    last = len(log) - 1
    page.select_option("#replay-round", str(last))
    click_until(page, "#replay-next", ".overlay .result", 400)
    rows = page.locator(".overlay .deltas tr:has(td)")
    shown = [int(rows.nth(s).locator("td").nth(1).inner_text()) for s in range(4)]
    assert shown == _round_deltas(log[last][16])
    assert not page.locator("#final").count()
    page.click("#replay-next")
    page.wait_for_selector("#final")
    shot(page, "desktop-stored-replay-final")
    standings = page.locator("#final table tr")
    final = [int(standings.nth(i).locator("td").nth(2).inner_text()) for i in range(1, 5)]
    result = record["result"]
    assert isinstance(result, dict)
    assert final == sorted(result["scores"], reverse=True)
    # the viewer's own download links answer with the record in each format
    href = page.locator(".replaybar a.dl-tenhou").get_attribute("href")
    got = page.request.get(server + str(href))
    assert got.ok and got.json()["log"] == log
    href = page.locator(".replaybar a.dl-mjai").get_attribute("href")
    lines = page.request.get(server + str(href)).text().splitlines()
    assert json.loads(lines[0])["type"] == "start_game"
    assert json.loads(lines[-1])["type"] == "end_game"
