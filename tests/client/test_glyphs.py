"""No missing-glyph box in Chromium on a machine with no system CJK font: the lobby, the table
(its options menu open), round results and the final standings in the replay viewer, in
English, Japanese and Chinese.

How a box is seen: every character on the screen is measured on a canvas in its element's own
font (the computed stack) followed by a probe font built here, whose every glyph is 4 em wide.
A character that no font of its stack draws falls through to the probe and measures 4 em
instead of about one; without the probe it would reach the machine's own fallback, a box where
the machine has no such font (this one has none for CJK: ``fc-list`` names none).
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from playwright.sync_api import Page

from tests.client.conftest import click_until, shot
from tests.client.test_replay import own_games

#: the probe's advance, in its units per em (1000): 4 em, where any real glyph is about 1
PROBE_WIDTH = 4000

#: [font, character] of every visible character (text, option labels, placeholders)
COLLECT = """() => {
  const out = []; const seen = new Set();
  const add = (el, text) => {
    const s = getComputedStyle(el);
    const font = `${s.fontStyle} ${s.fontWeight} 16px ${s.fontFamily}`;
    for (const c of text) {
      if (!c.trim() || seen.has(font + '\\u0000' + c)) continue;
      seen.add(font + '\\u0000' + c);
      out.push([font, c]);
    }
  };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (el && (el.closest('option') || el.checkVisibility())) add(el, n.data);
  }
  for (const el of document.querySelectorAll('[placeholder]')) add(el, el.placeholder);
  return out;
}"""

#: [font, character] of those the probe draws: in no font of their stack
MEASURE = """async ([pairs, probe, width]) => {
  const bytes = Uint8Array.from(atob(probe), (c) => c.charCodeAt(0));
  const face = new FontFace('Riichi Glyph Probe', bytes);
  document.fonts.add(await face.load());
  const ctx = document.createElement('canvas').getContext('2d');
  const missing = [];
  for (const [font, c] of pairs) {
    const stack = `${font}, "Riichi Glyph Probe"`;
    await document.fonts.load(stack, c);
    ctx.font = stack;
    if (ctx.measureText(c).width > width) missing.push([font, c]);
  }
  return missing;
}"""


def probe_font(chars: set[str]) -> bytes:
    """A font mapping every one of ``chars`` to one empty glyph 4 em wide."""
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "probe"])
    fb.setupCharacterMap({ord(c): "probe" for c in chars})
    empty = TTGlyphPen(None).glyph()
    fb.setupGlyf({".notdef": empty, "probe": empty})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "probe": (PROBE_WIDTH, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Riichi Glyph Probe", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def missing_glyphs(page: Page, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (font, character) pairs no font of their stack draws, measured in ``page``."""
    probe = base64.b64encode(probe_font({c for _, c in pairs})).decode()
    found = page.evaluate(MEASURE, [pairs, probe, 16 * PROBE_WIDTH / 1000 / 2])
    return [(font, c) for font, c in found]


def _collect(page: Page, into: dict[tuple[str, str], str], where: str) -> None:
    for font, c in page.evaluate(COLLECT):
        into.setdefault((font, c), where)


@pytest.fixture(scope="module")
def own_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("glyphs") / "own.json"
    path.write_text(json.dumps(own_games()[0], ensure_ascii=False))
    return path


def test_the_probe_finds_a_character_no_font_draws(server: str, page: Page) -> None:
    """The measure can fail: a private-use character no font has is found, a letter is not."""
    page.goto(server + "/")
    page.wait_for_selector("#create")
    font = page.evaluate("getComputedStyle(document.body).font")
    stack = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Riichi UI" in stack, font
    assert missing_glyphs(page, [(f"normal 400 16px {stack}", "\ue123")]) == [
        (f"normal 400 16px {stack}", "\ue123")
    ]
    assert missing_glyphs(page, [(f"normal 400 16px {stack}", "A")]) == []


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_no_missing_glyph_in_the_lobby_table_results_and_replays(
    server: str, page: Page, lang: str, own_log: Path
) -> None:
    seen: dict[tuple[str, str], str] = {}
    page.goto(server + "/")
    page.select_option("#lang", lang)
    page.wait_for_selector("#preset option", state="attached")
    _collect(page, seen, "lobby")
    # a table with three bots, its options menu open
    page.fill("#name", "Glyph")
    page.select_option("#preset", "tenhou-tonpuu")
    page.select_option("#bots", "3")
    page.click("#create")
    page.wait_for_selector(".own .tile", timeout=15000)
    page.click("#opts")
    _collect(page, seen, "table")
    shot(page, f"desktop-glyphs-table-{lang}")
    # the replay viewer: the first hands' results, then the match's standings
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(own_log))
    page.wait_for_selector(".board")
    _collect(page, seen, "replay")
    rounds = page.locator("#replay-round option").count()
    for n in [*range(min(rounds, 4)), rounds - 1]:
        page.select_option("#replay-round", str(n))
        click_until(page, "#replay-next", ".overlay .result", 400)
        _collect(page, seen, f"result of hand {n}")
    click_until(page, "#replay-next", ".overlay #final", 5)
    _collect(page, seen, "final standings")
    shot(page, f"desktop-glyphs-final-{lang}")
    assert any(ord(c) > 0x2FFF for _, c in seen) or lang == "en"
    missing = missing_glyphs(page, list(seen))
    assert [(seen[p], p[1], p[0]) for p in missing] == []
