"""Accessibility (issue 36): axe-core finds no serious or critical violation on the lobby, the
table (a live game against bots, with its options menu open), a round's result and the final
standings, and the replay viewer of a stored game; every control has an accessible name."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.client.axe_check import violations
from tests.client.test_keyboard import start_game
from tests.client.test_lobby_polish import _finished_game
from tests.client.test_result_panels import DEALER_TSUMO, RENDER, ROUND


def test_the_lobby_has_no_serious_accessibility_violation(server: str, page: Page) -> None:
    for lang in ("en", "ja"):
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.reload()
        page.wait_for_selector("#bot-kind option", state="attached")
        assert violations(page) == [], lang


def test_the_table_has_no_serious_accessibility_violation(server: str, page: Page) -> None:
    start_game(page, server)
    assert violations(page) == []
    page.click("#opts")  # the options menu, open
    assert violations(page) == []


def test_a_result_and_the_standings_have_no_serious_accessibility_violation(
    server: str, page: Page
) -> None:
    events = [
        {"type": "BeginGame", "players": 4, "scores": [25000] * 4},
        {**ROUND, "kyoku": 0, "scores": [25000] * 4},
        DEALER_TSUMO,
    ]
    page.goto(server + "/#/replay")
    page.wait_for_selector(".tablewrap")
    page.evaluate(RENDER, ["en", 4, events, False])
    assert violations(page, "#overlay") == []
    end = {
        "type": "GameEnded",
        "scores": [32800, 22400, 22400, 22400],
        "ranks": [1, 2, 3, 4],
        "points": [42.8, -7.6, -12.6, -22.6],
    }
    page.evaluate("document.querySelectorAll('#overlay').forEach(o => o.remove())")
    page.evaluate(RENDER, ["en", 4, [*events, end], True])
    assert violations(page, "#overlay") == []


def test_the_replay_viewer_has_no_serious_accessibility_violation(server: str, page: Page) -> None:
    game = _finished_game(server)
    page.goto(f"{server}/#/replay/{game}")
    page.wait_for_selector(".board .seat")
    assert violations(page) == []
    page.click("#replay-hand-next")
    assert violations(page) == []


def test_the_tables_advice_has_no_serious_accessibility_violation(server: str, page: Page) -> None:
    """The Hint button, the Always show box and the marks on the hand (a practice table)."""
    start_game(page, server)
    page.wait_for_selector("#hint")
    assert violations(page) == []
    page.check("#hint-always")
    page.wait_for_selector(".own .tile.adv-best", timeout=30000)
    assert violations(page) == []
