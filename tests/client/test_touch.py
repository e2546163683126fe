"""A phone: the first tap on a tile lifts it (and would show its waits), the second discards it."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.client.conftest import PHONE, wait_until


def test_on_a_phone_a_tile_is_discarded_by_the_second_tap(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + "/")
        page.fill("#name", "Thumb")
        page.select_option("#preset", "tenhou-tonpuu")
        page.tap("#create")
        tile = page.locator(".own .tile.can").last
        tile.wait_for(timeout=60000)  # the drawn seat may play last (as in test_keyboard)
        asked = page.evaluate("window.__table.st.inq.id")
        name = tile.get_attribute("data-tile")
        box = tile.bounding_box()
        assert box is not None and box["width"] >= 24  # a target a thumb can hit
        tile.tap()
        lifted = page.locator(f".own .tile.sel[data-tile='{name}']")
        state = "JSON.stringify({inq: window.__table.st.inq, sel: window.__table.st.selected})"
        assert lifted.count() == 1, page.evaluate(state)
        assert page.evaluate("window.__table.st.inq?.id") == asked, page.evaluate(state)
        lifted.tap()
        assert page.evaluate("window.__table.st.inq?.id") != asked
        # the server's Discard event puts that tile (or an identical copy) in the seat's river
        wait_until(
            page,
            "(id) => { const t = window.__table.st, red = [16, 52, 88];"
            " const r = t.tb.players[t.seat].river, last = r.length ? r[r.length - 1].tile : -1;"
            " return last >> 2 === id >> 2 && red.includes(last) === red.includes(id); }",
            arg=int(name or -1),
            timeout=10000,
        )
    finally:
        context.close()
    assert not errors, errors
