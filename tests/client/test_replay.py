"""The replay viewer on real Tenhou logs: upload a file (the server replays it through the
engine), step through a round to its result, jump to a round, switch viewpoint, hide hands;
and the engine's events keep every score of a corpus through the table's own model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.replay.export import to_tenhou
from engine.rules.config import TENHOU_SANMA_TONPUU, TENHOU_TONPUU
from tests import corpus
from tests.client.conftest import shot

#: round 9 of this real log has a daiminkan of 6p by seat 0 (docs of the format)
LOG_NAME = "2014120822gm-0029-0000-808ea6c0.json"


def tenhou_log() -> Path:
    """The real log the viewer's kan and board tests read (through the corpus helper)."""
    return corpus.game("tenhou", LOG_NAME)


def own_games() -> list[dict[str, Any]]:
    """tenhou.net/6 logs of games our engine played with random answers (calls, riichi and
    draws of every kind turn up): three four-player and two sanma tonpuusen."""
    games = []
    for rules, seed in [(TENHOU_TONPUU, s) for s in range(3)] + [
        (TENHOU_SANMA_TONPUU, s) for s in range(2)
    ]:
        game = new_game(rules, seed, RandomCenter(seed))
        run_sync(game)
        games.append(json.loads(json.dumps(to_tenhou(game, ["A", "B", "C", "D"][: game.n]))))
    return games


@pytest.fixture(scope="module")
def own_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first of ``own_games`` as a file to upload."""
    path = tmp_path_factory.mktemp("own") / "own.json"
    path.write_text(json.dumps(own_games()[0], ensure_ascii=False))
    return path


def _mpsz(code: int) -> str:
    if code > 50:
        return f"0{'mps'[code - 51]}"
    suit, num = divmod(code, 10)
    return f"{num}{'mpsz'[suit - 1]}"


def _hand(page: Page) -> list[str]:
    tiles = page.locator(".own .tile")
    return sorted(tiles.nth(i).get_attribute("data-name") or "?" for i in range(tiles.count()))


def _unfocus(page: Page) -> None:
    """Nothing focused, so the keys go to the page (a focused control keeps its keys); the
    viewer's steps re-render the board, never focusing a control."""
    page.evaluate("document.activeElement && document.activeElement.blur()")


def _next(page: Page) -> None:
    """One step forward with the keyboard (→), as a reader would."""
    page.keyboard.press("ArrowRight")


def _to_result(page: Page) -> None:
    _unfocus(page)
    for _ in range(400):
        if page.locator(".overlay .result").count():
            return
        _next(page)
    raise AssertionError("no result at the end of the round")


def test_replay_of_an_uploaded_tenhou_log_steps_through_a_round(server: str, page: Page) -> None:
    path = tenhou_log()
    log = json.loads(path.read_text())
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector(".board")
    assert _hand(page) == sorted(_mpsz(c) for c in log["log"][0][4])
    assert page.locator(".centre .round").inner_text() == "East 1"
    # the tiles' characters come from the page's own font subset, not the machine's fonts
    loaded = page.evaluate(
        "document.fonts.ready.then(() => [...document.fonts]"
        ".filter(f => f.family.includes('Riichi Tile Glyphs') && f.status === 'loaded').length)"
    )
    assert loaded == 1
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.locator(".seat .river .tile").count() == 1  # the dealer drew and discarded
    page.click("#replay-prev")
    assert page.locator(".seat .river .tile").count() == 0
    _to_result(page)
    shot(page, "desktop-replay-result")
    result = log["log"][0][16]
    deltas = [sum(result[i][s] for i in range(1, len(result), 2)) for s in range(4)]
    if result[0] != "和了" and len(result) == 1:
        deltas = [0, 0, 0, 0]
    rows = page.locator(".overlay .deltas tr:has(td)")
    shown = [int(rows.nth(s).locator("td").nth(1).inner_text()) for s in range(4)]
    assert shown == deltas

    # jump to round 9 and find seat 0's daiminkan, turned toward its giver (shimocha: last)
    page.select_option("#replay-round", "9")
    assert page.locator("#replay-step").inner_text().startswith("1/")
    _unfocus(page)
    for _ in range(300):
        if page.locator(".own .meld.daiminkan").count():
            break
        _next(page)
    meld = page.locator(".own .meld.daiminkan .tile")
    assert meld.count() == 4
    assert "turned" in (meld.nth(3).get_attribute("class") or "")
    shot(page, "desktop-replay-kan")

    # another seat's eyes: their starting hand at the bottom; hiding hands shows backs
    page.select_option("#replay-round", "0")
    page.select_option("#replay-view", "2")
    assert _hand(page) == sorted(_mpsz(c) for c in log["log"][0][4 + 3 * 2])
    page.uncheck("#replay-all")
    assert page.locator(".hand.opp .tile.back").count() >= 3 * 13


def test_replay_speaks_japanese_after_the_language_switch(
    server: str, page: Page, own_log: Path
) -> None:
    path = own_log
    page.goto(server + "/#/replay")
    page.select_option("#lang", "ja")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector(".board")
    assert page.locator(".centre .round").inner_text() == "東 1"
    _to_result(page)
    shot(page, "desktop-replay-result-ja")
    text = page.locator(".overlay .result").inner_text()
    assert "飜" in text or "流局" in text or "聴牌" in text
    # the labels are drawn with the font the app ships, not whatever the machine has
    assert _loaded(page, "Riichi UI JP")
    # Simplified Chinese: its own words and its own font
    page.select_option("#lang", "zh")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector(".board")
    assert page.locator(".centre .round").inner_text() == "东 1"
    assert page.locator("header .title + a").inner_text() == "牌谱"
    _to_result(page)
    shot(page, "desktop-replay-result-zh")
    assert _loaded(page, "Riichi UI SC")
    page.select_option("#lang", "en")  # back to English for the other tests' pages (same storage)


def _loaded(page: Page, family: str) -> bool:
    return bool(
        page.evaluate(
            "(family) => document.fonts.ready.then(() => [...document.fonts]"
            ".some(f => f.family.replaceAll('\"', '') === family && f.status === 'loaded'))",
            family,
        )
    )


def test_replayed_hands_of_our_own_games_end_on_the_next_hands_scores(
    page: Page, server: str
) -> None:
    """Five games our engine played and exported, through the viewer's own model (below)."""
    games = own_games()
    assert _replay_mismatches(page, server, games) == []


def test_replayed_hands_end_on_the_next_hands_scores_and_the_logs_final(
    page: Page, server: str
) -> None:
    """The engine's replay of 20 four-player and 10 sanma real logs through the table's own
    events.js and model.js: every hand ends on the next hand's starting scores (riichi sticks
    and all), no hand holds an unknown tile, and the standings are the log's final scores."""
    sanma = corpus.files("tenhou-sanma")[:10]
    games = [corpus.load(p) for p in [*corpus.files("tenhou")[:20], *sanma]]
    assert len(games) == 30
    assert _replay_mismatches(page, server, games) == []


def _replay_mismatches(page: Page, server: str, games: list[dict[str, Any]]) -> list[Any]:
    page.goto(server + "/#/replay")
    page.wait_for_selector("#replay-file")
    bad = page.evaluate(
        """async (games) => {
          const { handsOf, tableAt } = await import('./js/replay.js');
          const bad = [];
          for (const [gi, g] of games.entries()) {
            const r = await fetch('/api/replay', { method: 'POST',
              headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(g) });
            if (!r.ok) { bad.push([gi, r.status, await r.text()]); continue; }
            const replay = await r.json();
            const n = replay.rules.players;
            const hands = handsOf(replay);
            if (hands.length !== g.log.length) bad.push([gi, 'hands', hands.length]);
            hands.forEach((hand, i) => {
              const tb = tableAt(replay, hand, hand.steps.length, null);
              if (tb.players.some((pl) => pl.hand.includes(null) || pl.hand.includes(undefined)))
                bad.push([gi, i, 'hand']);
              const next = i + 1 < g.log.length ? g.log[i + 1][1].slice(0, n)
                : g.sc.filter((_, k) => k % 2 === 0).slice(0, n);
              if (JSON.stringify(next) !== JSON.stringify(tb.scores))
                bad.push([gi, i, tb.scores, next]);
              if (i + 1 === g.log.length && !(tb.final && tb.final.scores)) bad.push([gi, 'final']);
            });
          }
          return bad;
        }""",
        games,
    )
    assert isinstance(bad, list)
    return bad


def test_a_stored_game_the_server_cannot_export_says_why(server: str, page: Page) -> None:
    page.goto(server + "/#/replay/no-such-game")
    page.wait_for_selector("#replay-step.error")
    assert page.locator("#replay-step").inner_text() == "no such game"
