"""Issue 36, what a Tenhou player expects: each wait with the copies still unseen from the
player's own view (the tip over a discard candidate and the tenpai line), and the copies of a
hovered tile lit across the table."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.client.test_lobby_polish import _finished_game

#: a table seen by seat 0: 1m x2, 4m and 6m in hand, a 1m on a river, a pon of 4m called
#: from a river, the indicator 3m; its waits 1m, 4m and 6m
WAITS = """async ([lang]) => {
  (await import('./js/i18n.js')).setLang(lang);
  const { newTable, apply } = await import('./js/model.js');
  const { statusEl, showTip } = await import('./js/help.js');
  const { seenCounts } = await import('./js/unseen.js');
  const tb = newTable(4, 0, { players: 4, red: [16, 52, 88], wall: 136 });
  apply(tb, { t: 'round', kyoku: 0, honba: 0, kyotaku: 0, dora: [8],
    hands: [[0, 1, 12, 20, 24, 28, 56, 60, 64, 96, 100, 104, 108], null, null, null] });
  apply(tb, { t: 'draw', seat: 1, tile: null }); apply(tb, { t: 'discard', seat: 1, tile: 2 });
  apply(tb, { t: 'draw', seat: 2, tile: null }); apply(tb, { t: 'discard', seat: 2, tile: 13 });
  const pon = { type: 'pon', tiles: [13, 14, 15], called: 13, from: 2, added: null };
  apply(tb, { t: 'call', seat: 3, meld: pon });
  const waits = [0, 3, 5].map((kind) => ({ kind, han: 1, fu: 30, yakuman: 0, points: 1000 }));
  const status = statusEl(tb, 0, waits);
  document.querySelector('.below').replaceChildren(status);
  showTip(status, waits, seenCounts(tb, 0));
  return [...document.querySelectorAll('.status .wait')]
    .map(w => [Number(w.dataset.kind), Number(w.dataset.left)]);
}"""


def test_each_wait_shows_the_copies_unseen_from_this_seat(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector(".below")
    # 1m: two in hand and one on a river -> 1 left; 4m: one in hand and a pon of three -> 0;
    # 6m: one in hand -> 3
    assert page.evaluate(WAITS, ["en"]) == [[0, 1], [3, 0], [5, 3]]
    assert page.inner_text("#tip").count("left") == 3
    rows = page.eval_on_selector_all("#tip .w .left", "ls => ls.map(l => l.textContent)")
    assert rows == ["1 left", "0 left", "3 left"]
    page.screenshot(path="/tmp/shots/waits-unseen-en.png")
    page.evaluate(WAITS, ["ja"])
    rows = page.eval_on_selector_all("#tip .w .left", "ls => ls.map(l => l.textContent)")
    assert rows == ["残り1枚", "残り0枚", "残り3枚"]


def test_hovering_a_tile_lights_its_copies_across_the_table(server: str, page: Page) -> None:
    game = _finished_game(server)
    page.goto(f"{server}/#/replay/{game}")
    page.wait_for_selector(".board .seat")
    for _ in range(40):
        page.click("#replay-next")
    tile = page.locator(".board .river .tile[data-tile]").first
    kind = int(tile.get_attribute("data-tile") or -1) >> 2
    tile.hover()
    lit = page.eval_on_selector_all(".tile.match", "ts => ts.map(t => Number(t.dataset.tile) >> 2)")
    faces = page.eval_on_selector_all(
        ".tablewrap .tile[data-tile]", "ts => ts.map(t => Number(t.dataset.tile) >> 2)"
    )
    assert lit and set(lit) == {kind} and len(lit) == faces.count(kind)
    page.screenshot(path="/tmp/shots/hover-matches.png")
    page.mouse.move(2, 2)
    page.hover("header")
    assert page.locator(".tile.match").count() == 0
