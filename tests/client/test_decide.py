"""The page's own shortcuts answer only with what the inquiry offers: auto-win, no calls and
auto-tsumogiri in riichi, checked on hand-made inquiries in the browser."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

SCRIPT = """async ([inq, opts, riichi, drawn]) => {
  const { autoAnswer, playable } = await import('./js/decide.js');
  const { newTable } = await import('./js/model.js');
  const tb = newTable(4, 0);
  if (riichi) tb.players[0].river.push({ tile: 8, riichi: true });
  return { auto: autoAnswer(inq, opts, tb, 0, drawn),
           riichiTiles: [...playable(inq, true).keys()],
           discardTiles: [...playable(inq, false).keys()] };
}"""


def _opt(*tiles: int) -> dict[str, Any]:
    return {"tiles": list(tiles), "tenpai": []}


def _run(
    page: Page,
    server: str,
    inq: dict[str, Any],
    opts: dict[str, bool],
    riichi: bool = False,
    drawn: int | None = None,
) -> dict[str, Any]:
    if "/#/replay" not in page.url:
        page.goto(server + "/#/replay")
        page.wait_for_selector("#replay-file")
    result: dict[str, Any] = page.evaluate(SCRIPT, [inq, opts, riichi, drawn])
    return result


def test_no_calls_skips_a_pon_but_never_a_ron(server: str, page: Page) -> None:
    pon = {
        "actions": [{"type": "skip", "options": [_opt()]}, {"type": "pon", "options": [_opt(4, 5)]}]
    }
    assert _run(page, server, pon, {"noCalls": True})["auto"] == [0, 0]
    assert _run(page, server, pon, {})["auto"] is None
    ron = {"actions": [*pon["actions"], {"type": "ron", "options": [_opt()]}]}
    assert _run(page, server, ron, {"noCalls": True})["auto"] is None
    assert _run(page, server, ron, {"autoWin": True})["auto"] == [2, 0]


def test_auto_tsumogiri_in_riichi_discards_the_drawn_tile_unless_tsumo_is_offered(
    server: str, page: Page
) -> None:
    turn = {"actions": [{"type": "discard", "options": [_opt(40), _opt(77)]}]}
    assert _run(page, server, turn, {"autoTsumogiri": True}, riichi=True, drawn=77)["auto"] == [
        0,
        1,
    ]
    assert _run(page, server, turn, {"autoTsumogiri": True}, riichi=False, drawn=77)["auto"] is None
    win = {"actions": [*turn["actions"], {"type": "tsumo", "options": [_opt()]}]}
    assert _run(page, server, win, {"autoTsumogiri": True}, riichi=True, drawn=77)["auto"] is None


def test_riichi_mode_offers_only_the_riichi_discards(server: str, page: Page) -> None:
    inq = {
        "actions": [
            {"type": "discard", "options": [_opt(1), _opt(40), _opt(77)]},
            {"type": "riichi", "options": [_opt(40)]},
        ]
    }
    got = _run(page, server, inq, {})
    assert got["riichiTiles"] == [40]
    assert got["discardTiles"] == [1, 40, 77]


def test_no_chii_and_skip_kans_leave_their_buttons_out(server: str, page: Page) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")
    shown = page.evaluate(
        """async () => {
          const { actionsEl, leftOut } = await import('./js/decide.js');
          const opt = { tiles: [1, 2], tenpai: [] };
          const inq = { id: 1, actions: ['skip', 'chii', 'pon', 'daiminkan']
            .map((type) => ({ type, options: [opt] })) };
          const buttons = (opts) => [...actionsEl({ inq, riichiMode: false, choosing: null,
            answer() {}, red: new Set(), hide: leftOut(opts) }).querySelectorAll('button')]
            .map((b) => b.dataset.type);
          return [buttons({}), buttons({ noChii: true }), buttons({ noKan: true }),
            buttons({ noChii: true, noKan: true })];
        }"""
    )
    assert shown == [
        ["skip", "chii", "pon", "daiminkan"],
        ["skip", "pon", "daiminkan"],
        ["skip", "chii", "pon"],
        ["skip", "pon"],
    ]
