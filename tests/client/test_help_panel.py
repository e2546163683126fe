"""Issue 36: a yaku list and a point table at hand. The header's "?" opens a named dialog
(Esc closes it, the focus back on the button; the table behind takes no keys meanwhile) with
every yaku's han closed and open and the point tables of a non-dealer and the dealer, in the
page's language."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.client.axe_check import violations
from tests.client.test_keyboard import start_game


def _cell(page: Page, table: str, fu: int, han: int) -> str:
    return page.inner_text(f'#{table} tr[data-fu="{fu}"] td[data-han="{han}"]')


def test_the_help_panel_lists_the_yaku_and_the_points_at_the_table(server: str, page: Page) -> None:
    start_game(page, server)
    page.click("#help")
    dialog = page.get_by_role("dialog", name="Yaku and points")
    assert dialog.count() == 1
    rows = page.eval_on_selector_all(
        "#ref-yaku tr[data-yaku]",
        "rs => Object.fromEntries(rs.map(r =>"
        " [r.dataset.yaku, [...r.cells].slice(1).map(c => c.textContent)]))",
    )
    assert (
        rows["riichi"] == ["1", "—"]
        and rows["chinitsu"] == ["6", "5"]
        and rows["tanyao"] == ["1", "1"]
    )
    assert rows["kokushi_musou"] == ["yakuman", "—"] and len(rows) >= 40
    assert _cell(page, "ref-child", 30, 4) == "7700 / 2000-3900"
    assert _cell(page, "ref-child", 20, 2) == "— / 400-700"
    assert _cell(page, "ref-dealer", 30, 4) == "11600 / 3900 all"
    assert page.inner_text('#ref-dealer tr[data-limit="mangan"] td') == "12000 / 4000 all"
    assert violations(page, "#help-dialog") == []
    page.screenshot(path="/tmp/shots/help-panel-en.png")
    # the table behind takes no keys while the dialog is open
    page.keyboard.press("ArrowRight")
    assert page.evaluate("window.__table.ui.selected") is None
    page.keyboard.press("Escape")
    assert page.locator("#help-dialog").count() == 0
    assert page.evaluate("document.activeElement.id") == "help"


def test_the_help_panel_speaks_japanese_and_chinese(server: str, page: Page) -> None:
    page.goto(server + "/")
    for lang, title, riichi, cell in (
        ("ja", "役と点数", "立直", "11600 / 3900オール"),
        ("zh", "役种与点数", "立直", "11600 / 3900点 全付"),
    ):
        page.evaluate(f"localStorage.setItem('lang', '{lang}')")
        page.reload()
        page.click("#help")
        assert page.get_by_role("dialog", name=title).count() == 1
        assert page.inner_text('#ref-yaku tr[data-yaku="riichi"] th') == riichi
        assert _cell(page, "ref-dealer", 30, 4) == cell
        page.screenshot(path=f"/tmp/shots/help-panel-{lang}.png")
        page.keyboard.press("Escape")
