"""The tenpai indicator and the furiten warning, drawn from the waits the server sent."""

from __future__ import annotations

from playwright.sync_api import Page

SCRIPT = """async ([river, waits]) => {
  const { statusEl } = await import('./js/help.js');
  const { newTable } = await import('./js/model.js');
  const tb = newTable(4, 0);
  river.forEach((tile) => tb.players[0].river.push({ tile, riichi: false }));
  const el = statusEl(tb, 0, waits);
  return { waits: el.querySelectorAll('.tenpai .tile').length,
           furiten: !!el.querySelector('#furiten') };
}"""

#: waiting on 3p and 6p (kinds 11 and 14), e.g. a 45p ryanmen
WAITS = [
    {"kind": 11, "han": 1, "fu": 30, "yakuman": 0, "points": 1000},
    {"kind": 14, "han": 1, "fu": 30, "yakuman": 0, "points": 1000},
]


def test_a_wait_in_ones_own_river_warns_furiten(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")
    # 6p (id 56, kind 14) discarded earlier: furiten on the 3p-6p wait
    assert page.evaluate(SCRIPT, [[0, 56], WAITS]) == {"waits": 2, "furiten": True}


def test_waits_not_in_the_river_show_tenpai_without_a_warning(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")
    assert page.evaluate(SCRIPT, [[0, 60], WAITS]) == {"waits": 2, "furiten": False}
    assert page.evaluate(SCRIPT, [[0], []]) == {"waits": 0, "furiten": False}
