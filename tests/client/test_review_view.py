"""The review in the replay viewer: a finished all-bot game, a seat's "Review" asked from
the viewer (its progress shown), then its summary, the agreement strip, and a step to the
worst mistake, where the reviewer's top three choices stand beside the one played."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from tests.client.conftest import shot, to_fixed

SEAT = 0
#: a review starts a worker process that imports the engine, on a shared machine
PATIENCE_S = 180.0


def _call(url: str, body: dict[str, object] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _finished_game(server: str) -> tuple[str, int]:
    """A finished all-bot game and the seat an easy bot played (the first place's, wherever
    the seed's draw put it), which mostly disagrees with the reviewer somewhere."""
    body = {"bots": 4, "preset": "tenhou-tonpuu", "base_s": 1, "bank_s": 0, "public": True}
    body["bot_names"] = ["easy", "strong", "easy", "strong"]  # easy bots make mistakes
    game = str(_call(f"{server}/api/rooms", body)[1]["game"])
    deadline = time.monotonic() + 180
    while _call(f"{server}/api/games/{game}/record?format=json")[1].get("status") != "finished":
        assert time.monotonic() < deadline, "the all-bot game did not finish"
        # a game in play is refused by the review endpoints (unless it ended just now)
        asked = _call(f"{server}/api/games/{game}/review", {"seat": SEAT})[0]
        status = _call(f"{server}/api/games/{game}/record?format=json")[1].get("status")
        assert asked == 409 or (asked == 202 and status == "finished"), (asked, status)
        time.sleep(0.5)
    draw = _call(f"{server}/api/games/{game}/record?format=json")[1]["draw"]
    return game, int(draw[0])


def _made(server: str, game: str) -> dict[int, int]:
    """The seats whose review is done, with how many decisions each reviewed, once none is
    queued or running."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        states = [_call(f"{server}/api/games/{game}/review?seat={s}")[1] for s in range(4)]
        if all(state["status"] in ("done", "none") for state in states):
            break
        assert time.monotonic() < deadline, states
        time.sleep(0.5)
    return {
        s: int(state["review"]["total_reviewed"])
        for s, state in enumerate(states)
        if state["status"] == "done"
    }


def test_a_reviewed_game_steps_to_its_worst_mistake_and_shows_the_alternatives(
    server: str, page: Page
) -> None:
    game, seat = _finished_game(server)
    page.goto(f"{server}/#/replay/{game}")
    page.wait_for_selector(".board")
    ask = page.locator(f"#review-ask-{seat}")
    assert ask.inner_text() == "Review"
    ask.click()
    page.wait_for_selector(f"#review-summary-{seat}:not(.hidden)", timeout=PATIENCE_S * 1000)
    status, state = _call(f"{server}/api/games/{game}/review?seat={seat}")
    assert status == 200 and state["status"] == "done"
    review = state["review"]
    summary = page.locator(f"#review-summary-{seat}").inner_text()
    assert f"{to_fixed(100 * review['match_rate'])} %" in summary
    assert f"{review['rating']:.3f}" in summary
    # one mark per reviewed decision, coloured by its grade
    cells = page.locator("#review-strip .rv-cell")
    assert cells.count() == review["total_reviewed"]
    grades = cells.evaluate_all("cs => cs.map(c => c.className.match(/g-(\\w+)/)[1])")
    entries = [e for k in review["kyokus"] for e in k["entries"]]
    assert grades == [e["grade"] for e in entries]
    assert page.locator("#replay-view").input_value() == str(seat)

    page.click("#review-worst")
    # the costliest decision: a mistake or a blunder whenever the seat made one (grades
    # rise with the loss), else a close call (an easy bot may play a short game well)
    worst = review["costliest"][0]
    entry = review["kyokus"][worst["kyoku"]]["entries"][worst["entry"]]
    missed = review["grades"]["mistake"] + review["grades"]["blunder"] > 0
    assert entry["grade"] == worst["grade"] and entry["loss"] == max(e["loss"] for e in entries)
    assert (entry["grade"] in ("mistake", "blunder")) == missed, (entry["grade"], review["grades"])
    assert page.locator("#replay-round").input_value() == str(worst["kyoku"])
    assert page.locator("#review-grade").inner_text() == entry["grade"].capitalize()
    rows = page.locator("#review-choices tr.rv-choice")
    assert rows.count() == min(3, len(entry["details"])) + (entry["actual_index"] >= 3)
    played = page.locator("#review-choices tr.rv-choice.actual")
    assert played.count() == 1 and "played" in played.inner_text()
    assert played.locator("td.rv-rank").inner_text() == str(entry["actual_index"] + 1)
    best = rows.nth(0).locator("td.rv-prob").inner_text()
    assert best == f"{to_fixed(100 * entry['details'][0]['prob'])} %"
    assert page.locator("#review-strip .rv-cell.here").count() == 1
    shot(page, "desktop-review-worst")
    Path("/tmp/shots").mkdir(exist_ok=True)
    page.screenshot(path="/tmp/shots/review-worst.png", full_page=True)

    # from mistake to mistake: the next one is a mistake or a blunder too
    # (with none, the step stays where it was)
    def where() -> tuple[str, str]:
        step = page.locator("#replay-step").inner_text()
        return page.locator("#replay-round").input_value(), step

    stood = where()
    page.click("#review-next")
    if not missed:
        assert where() == stood
    elif page.locator("#review-grade").count():
        assert page.locator("#review-grade").inner_text() in ("Mistake", "Blunder")

    # another seat's review asked elsewhere: as the page opens, the lowest reviewed seat shows
    extra = (seat + 2) % 4
    assert _call(f"{server}/api/games/{game}/review", {"seat": extra})[0] in (200, 202)
    # the reviews made (the wait above may have asked for seat 0's as the game ended)
    made = _made(server, game)
    assert seat in made and extra in made
    first = min(made)
    other = next(s for s in range(4) if s not in made)  # nobody asked: its button asks

    # a review already made shows as the page opens, in the reader's language: the lowest
    # seat's first, whichever answer comes first; a click picks another
    for lang, words in (("ja", ("一致率", "AI検討")), ("zh", ("一致率", "AI复盘"))):
        page.select_option("#lang", lang)
        page.reload()
        page.wait_for_selector(f"#review-summary-{seat}:not(.hidden)")
        assert words[0] in page.locator(f"#review-summary-{seat}").inner_text()
        page.wait_for_selector(f".rv-seat.active[data-seat='{first}']")
        assert page.locator("#review-strip .rv-cell").count() == made[first]
        assert page.locator(f"#review-ask-{other}").inner_text() == words[1]
        page.click(f"#review-summary-{seat}")
        page.wait_for_selector(f".rv-seat.active[data-seat='{seat}']")
        assert page.locator("#review-strip .rv-cell").count() == review["total_reviewed"]
    page.select_option("#lang", "en")  # back to English for the other tests' pages
