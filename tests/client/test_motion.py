"""Issue 36: light animations for discards and calls (the newest river tile and meld slide in,
a call is announced), none under prefers-reduced-motion."""

from __future__ import annotations

from playwright.sync_api import Page

FRESH = """async (what) => {
  const { newTable } = await import('./js/model.js');
  const { renderBoard } = await import('./js/table.js');
  const { announce } = await import('./js/announce.js');
  const tb = newTable(4, 0, { players: 4, red: [], wall: 136 });
  tb.players[1].river.push({ tile: 40, tsumogiri: false, riichi: false, called: false });
  tb.players[2].melds.push(
    { type: 'pon', tiles: [100, 101, 102], called: 100, from: 1, added: null });
  tb.players[2].hand = Array(10).fill(null);
  const box = document.querySelector('.boardbox');
  const fresh = { t: what, seat: what === 'discard' ? 1 : 2 };
  renderBoard(box, tb, { bottom: 0, showAll: false, fresh });
  const call = { t: 'call', seat: 2, meld: { type: 'pon' } };
  announce(document.querySelector('.tablewrap'), tb, 0, call);
  const el = document.querySelector(what === 'discard' ? '.river .tile.fresh' : '.meld.fresh');
  const said = document.querySelector('.announce');
  return [getComputedStyle(el).animationName, getComputedStyle(said).animationName];
}"""


def test_discards_and_calls_move_unless_reduced_motion_is_asked(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector(".boardbox")
    assert page.evaluate(FRESH, "discard") == ["slide-in", "pop"]
    assert page.evaluate(FRESH, "call") == ["slide-in", "pop"]
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(FRESH, "discard") == ["none", "none"]
    assert page.evaluate(FRESH, "call") == ["none", "none"]
