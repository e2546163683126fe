"""Issue 36: the leave menu. The header's button asks first (a named dialog that Esc closes,
the focus back on the button); leaving goes to the lobby, where "back to your seat" finds the
game played on without the player (the seat's turns answered by the defaults), as a
disconnect would."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.client.axe_check import violations
from tests.client.conftest import wait_until
from tests.client.test_keyboard import start_game

PLAYED = "window.__table.st.tb.kyoku * 1000 + (70 - (window.__table.st.tb.tilesLeft ?? 70))"


def test_leaving_asks_first_and_the_seat_plays_on_by_itself(server: str, page: Page) -> None:
    start_game(page, server)
    game = page.evaluate("location.hash").split("/")[-1]
    page.click("#leave")
    dialog = page.get_by_role("dialog", name="Leave this table?")
    assert dialog.count() == 1
    assert page.evaluate("document.activeElement.id") == "leave-stay"
    assert violations(page, "#leave-dialog") == []
    page.screenshot(path="/tmp/shots/leave-dialog.png")
    page.keyboard.press("Escape")
    assert page.locator("#leave-dialog").count() == 0
    assert page.evaluate("document.activeElement.id") == "leave"
    assert page.evaluate("location.hash").startswith("#/play/")
    before = page.evaluate(PLAYED)
    page.click("#leave")
    page.click("#leave-confirm")
    page.wait_for_selector(f'#rooms a.back-to-seat[href="#/play/{game}"]', timeout=10000)
    page.wait_for_timeout(1500)  # the bots and the seat's defaults play on meanwhile (quickly)
    page.goto(
        f"{server}/#/play/{game}"
    )  # where "back to your seat" leads (the list may have moved on)
    wait_until(
        page, "window.__table.st.tb.started || document.querySelector('#final')", timeout=15000
    )
    # the game went on without the player: later in the hand, a later hand, or over (a question
    # the server put to the seat before it saw the socket close keeps its clock: up to 25 s)
    went_on = f"document.querySelector('#final') || ({PLAYED}) > {before + 4}"
    wait_until(page, went_on, timeout=40000)
