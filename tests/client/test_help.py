"""The tenpai indicator and the furiten warning: waits from the server's tenpai info, furiten
exactly as the engine told the seat on its own Draw/Discard (the page works out nothing)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

#: server events (as on the wire) through the page's own mapping and model, then the status
SCRIPT = """async ([events, waits]) => {
  const { statusEl } = await import('./js/help.js');
  const { newTable, apply } = await import('./js/model.js');
  const { fromEngine } = await import('./js/events.js');
  const tb = newTable(4, 0);
  for (const e of events) for (const m of fromEngine(e, tb)) apply(tb, m);
  const el = statusEl(tb, 0, waits);
  return { waits: el.querySelectorAll('.tenpai .tile').length,
           furiten: !!el.querySelector('#furiten') };
}"""

#: waiting on 3p and 6p (kinds 11 and 14), e.g. a 45p ryanmen
WAITS = [
    {"kind": 11, "han": 1, "fu": 30, "yakuman": 0, "points": 1000},
    {"kind": 14, "han": 1, "fu": 30, "yakuman": 0, "points": 1000},
]


def _round() -> list[dict[str, Any]]:
    return [
        {"type": "RoundStarted", "round_index": 0, "kyoku": 0, "honba": 0, "kyotaku": 0,
         "dealer": 0, "scores": [25000] * 4, "dora_indicator": 0},
        {"type": "Haipai", "seat": 0, "tiles": [4, 8, 12, 20, 24, 28, 40, 44, 48, 56, 60, 64, 68]},
    ]  # fmt: skip


def _draw(seat: int, tile: int | None, furiten: bool | None) -> dict[str, Any]:
    return {"type": "Draw", "seat": seat, "tile": tile, "rinshan": False, "remaining": 69,
            "furiten": furiten}  # fmt: skip


def _discard(seat: int, tile: int, furiten: bool | None) -> dict[str, Any]:
    return {"type": "Discard", "seat": seat, "tile": tile, "tsumogiri": False, "riichi": False,
            "furiten": furiten}  # fmt: skip


def _open(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")


def test_the_warning_shows_when_the_server_says_furiten_with_no_wait_in_the_river(
    server: str, page: Page
) -> None:
    _open(server, page)
    # 7p (id 60) discarded: not a wait of 3p-6p, but the engine says furiten (e.g. a pass)
    events = [*_round(), _draw(0, 100, False), _discard(0, 60, True)]
    assert page.evaluate(SCRIPT, [events, WAITS]) == {"waits": 2, "furiten": True}


def test_a_wait_in_the_own_river_shows_no_warning_unless_the_server_says_so(
    server: str, page: Page
) -> None:
    _open(server, page)
    # 6p (id 56, kind 14) lies in the river, yet the engine said not furiten: no warning
    events = [*_round(), _draw(0, 100, False), _discard(0, 56, False)]
    assert page.evaluate(SCRIPT, [events, WAITS]) == {"waits": 2, "furiten": False}


def test_the_own_next_draw_updates_the_warning_and_other_seats_nulls_change_nothing(
    server: str, page: Page
) -> None:
    _open(server, page)
    furiten = [*_round(), _draw(0, 100, False), _discard(0, 60, True)]
    others = [_draw(1, None, None), _discard(1, 104, None)]
    assert page.evaluate(SCRIPT, [furiten + others, WAITS])["furiten"] is True
    cleared = [*furiten, *others, _draw(0, 108, False)]
    assert page.evaluate(SCRIPT, [cleared, WAITS])["furiten"] is False
    assert page.evaluate(SCRIPT, [[*_round()], []]) == {"waits": 0, "furiten": False}
