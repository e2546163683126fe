"""Issue 36, items 3, 5 and 7 on the result panels: engine events (as the server sends them)
go through the client's own events.js and model.js and are drawn by result.js, as the table
page does; what the panels show is checked against the events' own numbers."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.client.conftest import shot

#: loads the modules, sets the language, applies `events` to a fresh n-seat table and draws
#: the panel for the last result (with the match's end when `final`); returns nothing
RENDER = """async ([lang, n, events, final]) => {
  const i18n = await import('./js/i18n.js');
  i18n.setLang(lang);
  const { newTable, apply } = await import('./js/model.js');
  const { fromEngine } = await import('./js/events.js');
  const { resultPanel, finalPanel } = await import('./js/result.js');
  const tb = newTable(n, 0, { players: n, red: [16, 52, 88], wall: n === 3 ? 108 : 136 });
  tb.names = ['Ann', 'Bo', 'Cy', 'Di'].slice(0, n);
  let result = null, end = null;
  for (const raw of events) for (const e of fromEngine(raw, tb)) {
    apply(tb, e);
    if (e.t === 'result') result = e;
    if (e.t === 'end') end = e;
  }
  const box = document.createElement('div');
  box.className = 'overlay'; box.id = 'overlay';
  box.append(final ? finalPanel(tb, end, null) : resultPanel(tb, result, () => {}, null, end));
  document.querySelector('.tablewrap').append(box);
}"""

ROUND = {
    "type": "RoundStarted",
    "kyoku": 3,
    "honba": 0,
    "kyotaku": 0,
    "scores": [35200, 25000, 20000, 19800],
    "dora_indicator": 40,
}


def _open(page: Page, server: str) -> None:
    page.goto(server + "/#/replay")
    page.wait_for_selector(".tablewrap")


def _rows(page: Page) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        "#overlay table.deltas tr:has(td)",
        "rs => rs.map(r => [...r.cells].map(c => c.textContent))",
    )
    return rows


def test_the_last_hand_counts_the_leftover_riichi_sticks_in_its_change_column(
    server: str, page: Page
) -> None:
    # the last hand: seat 0 declares riichi, the wall runs out with seats 0 and 1 tenpai,
    # and the stick left on the table goes to first place (seat 0) with the match's end
    events = [
        {"type": "BeginGame", "players": 4, "scores": [25000] * 4},
        ROUND,
        {"type": "RiichiAccepted", "seat": 0, "scores": [34200, 25000, 20000, 19800], "kyotaku": 1},
        {
            "type": "Ryuukyoku",
            "kind": "exhaustive",
            "tenpai": [0, 1],
            "hands": [list(range(0, 52, 4)), list(range(1, 53, 4)), None, None],
            "deltas": [1500, 1500, -1500, -1500],
            "scores": [35700, 26500, 18500, 18300],
        },
        {"type": "GameEnded", "scores": [36700, 26500, 18500, 18300], "ranks": [1, 2, 3, 4]},
    ]
    _open(page, server)
    page.evaluate(RENDER, ["en", 4, events, False])
    shot(page, "result-last-hand-sticks")
    page.screenshot(path="/tmp/shots/result-last-hand-sticks.png")
    draw, end = events[3], events[4]
    for s, row in enumerate(_rows(page)):
        change, score = int(row[1].replace("+", "")), int(row[2])
        assert score == end["scores"][s]  # type: ignore[index]
        # what the hand paid plus what the match's end added (the stick to first place)
        assert change == draw["deltas"][s] + end["scores"][s] - draw["scores"][s], (s, row)  # type: ignore[index]
    assert "1000" in page.inner_text("#overlay .sticks")


SANMA_KITA_WIN = {
    "type": "Agari",
    "wins": [
        {
            "seat": 0,
            "from_seat": 0,
            "pao_seat": -1,
            "hand": [0, 4, 8, 36, 40, 44, 72, 76, 80, 108, 109, 112, 113, 114],
            "tile": 114,
            "melds": [[5, [120], -1, -1, -1], [5, [121], -1, -1, -1], [5, [122], -1, -1, -1]],
            "result": {
                "han": 5,
                "fu": 30,
                "limit": "mangan",
                "yakuman": 0,
                "yaku": [
                    {"name": "menzen_tsumo", "han": 1, "tenhou": "門前清自摸和"},
                    {"name": "riichi", "han": 1, "tenhou": "立直"},
                    {"name": "dora", "han": 3, "tenhou": "ドラ"},
                ],
                "dora": 0,
                "aka": 0,
                "ura": 0,
                "kita": 3,
                "ron": 0,
                "tsumo_other": 4000,
                "tsumo_dealer": 4000,
            },
        }
    ],
    "deltas": [8000, -4000, -4000],
    "scores": [43000, 21000, 21000],
    "ura_indicators": [],
}


def test_sanma_kita_is_named_as_kita_never_as_dora_beside_dora_0(server: str, page: Page) -> None:
    events = [
        {"type": "BeginGame", "players": 3, "scores": [35000] * 3},
        {**ROUND, "kyoku": 1, "scores": [35000] * 3},
        SANMA_KITA_WIN,
    ]
    _open(page, server)
    page.evaluate(RENDER, ["ja", 3, events, False])
    shot(page, "result-sanma-kita")
    page.screenshot(path="/tmp/shots/result-sanma-kita.png")
    yaku = page.eval_on_selector_all(
        "#overlay table.yaku tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert ["ドラ", "3飜"] not in yaku and ["ドラ", "3 飜"] not in yaku, yaku
    assert ["抜きドラ", "3 飜"] in yaku, yaku
    counts = page.inner_text("#overlay .counts")
    assert "ドラ 0" in counts and "抜きドラ 3" in counts, counts


def test_a_drawn_hand_shows_tenpai_hands_with_their_melds_and_every_seat_labelled(
    server: str, page: Page
) -> None:
    pon = {"type": "Call", "seat": 2, "meld": [1, [120, 121, 122], 122, 1, -1]}
    events = [
        {"type": "BeginGame", "players": 4, "scores": [25000] * 4},
        {**ROUND, "kyoku": 0},
        pon,
        {
            "type": "Ryuukyoku",
            "kind": "exhaustive",
            "tenpai": [0, 2],
            "hands": [list(range(0, 52, 4)), None, list(range(1, 41, 4)), None],
            "deltas": [1500, -1500, 1500, -1500],
            "scores": [36700, 23500, 21500, 18300],
        },
    ]
    _open(page, server)
    page.evaluate(RENDER, ["en", 4, events, False])
    shot(page, "result-draw-tenpai")
    page.screenshot(path="/tmp/shots/result-draw-tenpai.png")
    rows = page.eval_on_selector_all(
        "#overlay .drawhands .hand",
        "rs => rs.map(r => [r.dataset.seat, r.querySelector('.label')?.textContent,"
        " r.querySelectorAll('.meld .tile').length])",
    )
    assert rows == [
        ["0", "Tenpai", 0],
        ["1", "Noten", 0],
        ["2", "Tenpai", 3],
        ["3", "Noten", 0],
    ], rows


DEALER_TSUMO = {
    "type": "Agari",
    "wins": [
        {
            "seat": 0,
            "from_seat": 0,
            "pao_seat": -1,
            "hand": [0, 4, 8, 36, 40, 44, 72, 76, 80, 108, 109, 112, 113, 114],
            "tile": 114,
            "melds": [],
            "result": {
                "han": 2,
                "fu": 40,
                "limit": "",
                "yakuman": 0,
                "yaku": [
                    {"name": "menzen_tsumo", "han": 1, "tenhou": "門前清自摸和"},
                    {"name": "riichi", "han": 1, "tenhou": "立直"},
                ],
                "dora": 0,
                "aka": 0,
                "ura": 0,
                "kita": 0,
                "ron": 0,
                "tsumo_other": 2600,
                "tsumo_dealer": 0,
            },
        }
    ],
    "deltas": [7800, -2600, -2600, -2600],
    "scores": [32800, 22400, 22400, 22400],
    "ura_indicators": [],
}


def test_a_dealer_tsumo_reads_2600_all_in_each_language(server: str, page: Page) -> None:
    events = [
        {"type": "BeginGame", "players": 4, "scores": [25000] * 4},
        {**ROUND, "kyoku": 0, "scores": [25000] * 4},
        DEALER_TSUMO,
    ]
    _open(page, server)
    want = {"en": "2600 all", "ja": "2600オール", "zh": "2600点 全付"}
    for lang, text in want.items():
        page.evaluate("document.querySelectorAll('#overlay').forEach(o => o.remove())")
        page.evaluate(RENDER, [lang, 4, events, False])
        score = page.inner_text("#overlay .win .score")
        assert score.endswith(text), (lang, score)
        assert "all points" not in score and "オール 点" not in score


def test_the_final_standings_label_every_column(server: str, page: Page) -> None:
    events = [
        {"type": "BeginGame", "players": 4, "scores": [25000] * 4},
        {**ROUND, "kyoku": 0, "scores": [25000] * 4},
        DEALER_TSUMO,
        {
            "type": "GameEnded",
            "scores": [32800, 22400, 22400, 22400],
            "ranks": [1, 2, 3, 4],
            "points": [42.8, -7.6, -12.6, -22.6],
        },
    ]
    _open(page, server)
    for lang in ("en", "ja", "zh"):
        page.evaluate("document.querySelectorAll('#overlay').forEach(o => o.remove())")
        page.evaluate(RENDER, [lang, 4, events, True])
        heads = page.eval_on_selector_all(
            "#final table.standings th", "hs => hs.map(h => h.textContent.trim())"
        )
        assert len(heads) == 4 and all(heads), (lang, heads)
    page.screenshot(path="/tmp/shots/final-standings-zh.png")
