"""Seats are drawn (issue 36, 6): the room's creator is not always the first East.

Each room is created in the lobby as a player does (three bots, so it starts at once); the
table then shows the creator at the bottom with the wind of the seat the draw gave them. Over
ROOMS rooms a creator always East has probability 4**-ROOMS with a fair draw (1 in 4096)."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.client.conftest import DESKTOP, collect_errors, shot, wait_until

ROOMS = 6
#: the bottom side of the centre box: its seat, wind and name as the page shows them
BOTTOM = """() => {
  const side = document.querySelector('.centre .side.r0') || document.querySelector('.side.r0');
  if (!side || !window.__table || !window.__table.st.tb) return null;
  const name = side.querySelector('.name');
  return {seat: Number(side.dataset.seat), wind: side.querySelector('.wind').textContent,
          dealer: side.querySelector('.wind').classList.contains('dealer'),
          name: name ? name.textContent : '', own: window.__table.st.seat,
          kyoku: window.__table.st.tb.kyoku};
}"""


def test_the_creator_is_not_always_east(server: str, browser: Browser) -> None:
    seen = []
    for n in range(ROOMS):
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        errors: list[str] = []
        collect_errors(page, errors)
        page.goto(server + "/")
        page.fill("#name", f"Creator{n}")
        page.select_option("#preset", "tenhou-tonpuu")
        page.select_option("#bots", "3")
        page.click("#create")
        page.wait_for_selector(".own .tile", timeout=15000)
        wait_until(page, f"({BOTTOM})() !== null")
        bottom = page.evaluate(f"({BOTTOM})()")
        if n == 0:
            shot(page, "desktop-drawn-seat")
        context.close()
        assert not errors, errors
        # the page's own seat is the one at the bottom, with the creator's name on it
        assert bottom["seat"] == bottom["own"] and bottom["name"] == f"Creator{n}", bottom
        if bottom["kyoku"] == 0:  # East 1: seat 0 deals, and only seat 0 is East
            assert bottom["dealer"] == (bottom["seat"] == 0), bottom
        seen.append(bottom["seat"])
    assert set(seen) != {0}, f"the creator was East in all {ROOMS} rooms: {seen}"
