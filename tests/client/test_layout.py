"""Issue 36, items 1 and 2: a crowded table keeps every tile apart and on the board. A table
model with long rivers (three rows and more, a riichi tile turned) and an opposite player's
melds with an added kan is drawn by the client's own renderBoard at a phone's portrait, a
laptop's and a 1080p screen's size; tiles of different groups (a river, a concealed hand, a
seat's melds, the centre's labels) must not overlap, and none may leave the board."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.client.conftest import LAPTOP, PHONE, WIDE, shot

#: draws a crowded table into the replay page's board box; play=True adds a status line and
#: three buttons below it, as the table page has, so the board gets the play page's shape
CROWDED = """async (play) => {
  const { newTable } = await import('./js/model.js');
  const { renderBoard, renderHand } = await import('./js/table.js');
  const tb = newTable(4, 0, { players: 4, red: [16, 52, 88], wall: 136 });
  tb.names = ['me', 'right', 'across', 'left'];
  tb.dora = [40]; tb.tilesLeft = 12; tb.honba = 2; tb.kyotaku = 1; tb.turn = 1;
  let next = 0;
  const take = () => { next += 1; return next; };
  tb.players.forEach((p, s) => {
    const n = s === 0 ? 13 : 21;
    for (let i = 0; i < n; i++)
      p.river.push({ tile: take(), tsumogiri: i % 3 === 0, riichi: i === 7, called: false });
    p.hand = Array(13).fill(null);
  });
  // across: a pon made into an added kan, a daiminkan and a chii; four tiles left in hand
  const across = tb.players[2];
  across.melds = [
    { type: 'kakan', tiles: [100, 101, 102, 103], called: 101, from: 1, added: 103 },
    { type: 'daiminkan', tiles: [108, 109, 110, 111], called: 108, from: 3, added: null },
    { type: 'chii', tiles: [72, 76, 80], called: 76, from: 1, added: null },
  ];
  across.hand = Array(4).fill(null); across.drawn = -1;
  tb.players[1].melds = [
    { type: 'pon', tiles: [120, 121, 122], called: 120, from: 2, added: null }];
  tb.players[1].hand = Array(10).fill(null);
  tb.players[0].hand = [0, 4, 8, 12, 17, 20, 24, 28, 32, 36, 44, 48, 53];
  const box = document.querySelector('.boardbox'), below = document.querySelector('.below');
  const hand = document.createElement('div');
  renderHand(hand, tb, 0, { show: true });
  below.replaceChildren(hand);
  if (play) {
    const status = document.createElement('div');
    status.className = 'status'; status.textContent = 'Tenpai';
    const acts = document.createElement('div'); acts.className = 'actions';
    for (const w of ['Pon', 'Kan', 'Skip']) {
      const b = document.createElement('button'); b.textContent = w; acts.append(b);
    }
    below.prepend(status, acts);
  }
  renderBoard(box, tb, { bottom: 0, showAll: false });
}"""

#: every pair of tiles (or centre labels) from different groups that overlap, and every tile
#: that leaves the board's box
OVERLAPS = """() => {
  const r = (e) => e.getBoundingClientRect(), out = [];
  const cut = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const items = [];
  for (const seat of document.querySelectorAll('.board > .seat')) {
    const s = seat.dataset.seat;
    seat.querySelectorAll('.river .tile').forEach((e) => items.push([`river${s}`, e]));
    seat.querySelectorAll('.hand.opp .tiles .tile').forEach((e) => items.push([`hand${s}`, e]));
    seat.querySelectorAll('.hand.opp .melds .tile').forEach((e) => items.push([`melds${s}`, e]));
  }
  document.querySelectorAll('.centre .side > span').forEach((e) => items.push(['centre', e]));
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++)
      if (items[i][0] !== items[j][0] && cut(r(items[i][1]), r(items[j][1])))
        out.push(`${items[i][0]} / ${items[j][0]}`);
  const board = r(document.querySelector('.board'));
  for (const [g, e] of items) {
    const b = r(e);
    if (b.left < board.left - 1 || b.top < board.top - 1
        || b.right > board.right + 1 || b.bottom > board.bottom + 1)
      out.push(`${g} off the board`);
  }
  return [...new Set(out)];
}"""


@pytest.mark.parametrize("play", [False, True], ids=["replay", "play"])
def test_a_crowded_table_keeps_rivers_hands_and_melds_apart_on_the_board(
    server: str, page: Page, play: bool
) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector(".boardbox")
    failures = {}
    for name, size in (("phone", PHONE), ("laptop", LAPTOP), ("wide", WIDE)):
        page.set_viewport_size(size)
        page.evaluate(CROWDED, play)
        page.wait_for_timeout(50)
        shot(page, f"crowded-{'play' if play else 'replay'}-{name}")
        page.screenshot(path=f"/tmp/shots/crowded-{'play' if play else 'replay'}-{name}.png")
        found = page.evaluate(OVERLAPS)
        if found:
            failures[name] = found
    assert not failures, failures
