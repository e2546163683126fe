"""Issue 36, item 4 and the keyboard: the first → picks the leftmost playable tile (it picked
the second), ← from nothing picks the last, and a hand is played with the keyboard alone:
arrows and Enter to discard, Esc to pass a call, Enter on the result's focused button."""

from __future__ import annotations

import time

from playwright.sync_api import Page

from tests.client.conftest import shot

SELECTED = "window.__table.ui.selected"
PLAYABLE = "[...document.querySelectorAll('.own .tile.can')].map(t => Number(t.dataset.tile))"


def start_game(page: Page, server: str) -> None:
    """A tonpuusen against three bots, created in the lobby; returns at the first decision."""
    page.goto(server + "/")
    page.fill("#name", "Keys")
    page.select_option("#preset", "tenhou-tonpuu")
    page.select_option("#bots", "3")
    page.click("#create")
    page.wait_for_selector(".own .tile.can", timeout=60000)  # the drawn seat may play last


def test_the_first_arrow_press_picks_the_leftmost_or_rightmost_tile(
    server: str, page: Page
) -> None:
    start_game(page, server)
    tiles = page.evaluate(PLAYABLE)
    assert page.evaluate(SELECTED) is None
    page.keyboard.press("ArrowRight")
    assert page.evaluate(SELECTED) == tiles[0]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(SELECTED) == tiles[1]
    page.keyboard.press("Escape")  # nothing to leave or skip on one's own turn: stays
    page.evaluate("window.__table.ui.selected")
    page.reload()
    page.wait_for_selector(".own .tile.can", timeout=60000)  # the drawn seat may play last
    assert page.evaluate(SELECTED) is None
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(SELECTED) == page.evaluate(PLAYABLE)[-1]


def test_a_hand_is_played_to_its_result_by_the_keyboard_alone(server: str, page: Page) -> None:
    start_game(page, server)
    discards = 0
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, f"no result by keyboard ({discards} discards)"
        screen = page.evaluate(
            """() => ({ ok: !!document.querySelector('#result-ok:not([disabled])'),
              focused: document.activeElement && document.activeElement.id,
              tiles: document.querySelectorAll('.own .tile.can').length,
              buttons: [...document.querySelectorAll('#actions button')]
                .map(b => b.dataset.type) })"""
        )
        if screen["ok"]:
            shot(page, "keyboard-result")
            assert screen["focused"] == "result-ok"  # the result's button has the focus
            page.keyboard.press("Enter")
            page.wait_for_selector("#result-ok", state="detached", timeout=10000)
            break
        if screen["tiles"]:
            asked = page.evaluate("window.__table.ui.inq && window.__table.ui.inq.id")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            assert page.evaluate("window.__table.ui.inq && window.__table.ui.inq.id") != asked
            discards += 1
            continue
        if "skip" in screen["buttons"]:
            page.keyboard.press("Escape")
            continue
        page.wait_for_timeout(50)
    assert discards >= 1
