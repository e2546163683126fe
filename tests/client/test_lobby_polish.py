"""Issue 36, item 7 in the lobby: preset names in the page's language, never a raw preset key
in the finished games (even before /api/presets answers), the bot select inside its panel on
a 390 px phone, and a language select with an accessible name."""

from __future__ import annotations

import json
import time
import urllib.request

from playwright.sync_api import Page, Route

from tests.client.conftest import PHONE


def _finished_game(server: str) -> str:
    """An all-bot tonpuusen played to its end on the test server; its id."""
    req = urllib.request.Request(
        f"{server}/api/rooms",
        data=json.dumps(
            {"name": "", "preset": "tenhou-tonpuu", "bots": 4, "bot_names": ["easy"] * 4}
        ).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req) as r:
        game: str = json.loads(r.read())["game"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{server}/api/games?status=finished&limit=50") as r:
            if any(g["id"] == game for g in json.loads(r.read())["games"]):
                return game
        time.sleep(0.5)
    raise TimeoutError("the all-bot game did not finish")


def test_preset_names_follow_the_language_and_never_flash_as_keys(server: str, page: Page) -> None:
    game = _finished_game(server)

    # /api/presets answers late: the finished games must not show the key meanwhile
    def slow(route: Route) -> None:
        time.sleep(1.5)
        route.continue_()

    page.route("**/api/presets", slow)
    page.add_init_script("if (!localStorage.getItem('lang')) localStorage.setItem('lang', 'ja')")
    page.goto(server + "/")
    page.wait_for_selector(f'#finished li[data-game="{game}"] .preset', timeout=15000)
    first = page.inner_text(f'#finished li[data-game="{game}"] .preset')
    assert first != "tenhou-tonpuu" and "東風" in first, first
    page.wait_for_selector("#preset option[value=tenhou-sanma-hanchan]", state="attached")
    labels = page.eval_on_selector_all("#preset option", "os => os.map(o => o.textContent)")
    assert "天鳳 四麻 東風戦" in labels and "雀魂 四麻 半荘戦" in labels, labels
    page.evaluate("localStorage.setItem('lang', 'zh')")
    page.reload()
    page.wait_for_selector("#preset option[value=mleague]", state="attached")
    labels = page.eval_on_selector_all("#preset option", "os => os.map(o => o.textContent)")
    assert "天凤 四麻 东风战" in labels, labels


def test_the_lobby_fits_a_phone_and_the_language_select_has_a_name(server: str, page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + "/")
    page.wait_for_selector("#bot-kind option", state="attached")
    page.screenshot(path="/tmp/shots/lobby-phone.png")
    out = page.evaluate(
        """() => { const out = [];
          const sel = '.page section select, .page section input, .page section button';
          for (const c of document.querySelectorAll(sel)) {
            const r = c.getBoundingClientRect(), p = c.closest('section').getBoundingClientRect();
            if (!r.width) continue; // hidden
            if (r.right > p.right + 1 || r.left < p.left - 1) out.push(c.id || c.tagName);
          }
          return out; }"""
    )
    assert not out, out
    lang = page.locator("#lang")
    assert lang.get_attribute("aria-label") == "Language"
    assert page.get_by_role("combobox", name="Language").count() == 1
