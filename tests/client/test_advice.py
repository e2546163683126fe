"""Advice at a practice table in the browser: a hanchan played with "Always show" on, every
decision's marks read off the page, and the whole of it compared with what
``python -m engine.review --json`` says of the same decisions once the game is over. The
session (a guest's lobby, the game, its replay) logs no console error and meets no failed
request on the way."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.client.conftest import DESKTOP, PHONE, ROOT, shot, wait_until
from tests.client.test_protocol import _post

#: the marks the page drew (tiles, buttons, choices) and the open inquiry, in one round trip
MARKS = """() => ({
    inq: window.__table.st.inq ? window.__table.st.inq.id : null,
    worth: !!window.__table.st.inq && (window.__table.st.inq.actions.length > 1
        || window.__table.st.inq.actions.some(a => a.options.length > 1)),
    marks: [...document.querySelectorAll('[data-advice-rank]')].map(e => ({
        action: Number(e.dataset.adviceAction), option: Number(e.dataset.adviceOption),
        value: Number(e.dataset.adviceValue), rank: Number(e.dataset.adviceRank),
        kind: e.classList.contains('tile') ? 'tile'
            : e.classList.contains('choice') ? 'choice' : 'button',
        best: e.classList.contains('adv-best'),
        label: (e.querySelector('.adv-rank') || {}).textContent || '',
    })),
    hint: !!document.querySelector('#hint'),
})"""

SCREEN = """() => ({
    final: document.querySelector('#final') !== null,
    showFinal: document.querySelector('#show-final') !== null,
    ok: document.querySelector('#result-ok:not([disabled])') !== null,
    act: document.querySelector('#actions button, .own .tile.can') !== null,
})"""


class Watch:
    """Every console error, failed request and WebSocket message of the page."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on(
            "response",
            lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        def got(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            self.messages.extend(json.loads(line) for line in text.split("\n") if line)

        def sent(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            self.sent.append(json.loads(text))

        ws.on("framereceived", got)
        ws.on("framesent", sent)


#: where the best mark may be, in the order a decision is finished
BEST = ("#actions .choice.adv-best", ".own .tile.adv-best", "#actions button.adv-best")


def _click_best(page: Page, marks: list[dict[str, Any]]) -> None:
    """Play the advice: the best choice on its choice, tile or button (riichi and a call's
    tiles take a second click, on the next look)."""
    for selector in BEST:
        found = page.locator(selector)
        if found.count():
            found.first.click()
            return
    raise AssertionError(f"no best mark among {marks}")


def _click_only(page: Page) -> None:
    """A decision with one thing to do (a riichi's forced discard): no advice is asked."""
    tile = page.locator(".own .tile.can")
    (tile if tile.count() else page.locator("#actions button[data-action]")).first.click()


def _check_always(page: Page) -> None:
    """Tick "Always show". The bots may end the first hand before the seat's first decision
    (a win or an abort on the first discards): its result covers the box, and is
    acknowledged first, as a player would."""
    deadline = time.monotonic() + 60
    while not page.is_checked("#hint-always"):
        assert time.monotonic() < deadline, "the Always show box could not be ticked"
        ok = page.locator("#result-ok:not([disabled])")
        if ok.count():
            ok.click()
        elif not page.locator("#overlay").count():
            try:
                page.check("#hint-always", timeout=5000)
            except PlaywrightTimeout:  # a result came up meanwhile: acknowledged next pass
                continue
        else:
            page.wait_for_timeout(20)


def test_a_practice_hanchan_with_advice_always_shown_matches_the_review(
    server: str, page: Page, tmp_path: Path
) -> None:
    watch = Watch(page)
    page.goto(server + "/")
    page.fill("#name", "Learner")
    page.select_option("#preset", "tenhou-hanchan")
    page.select_option("#bots", "3")
    page.click("#create")
    page.wait_for_selector("#hint-always", timeout=30000)
    game = page.evaluate("location.hash").split("/")[-1]
    _check_always(page)
    shown: dict[int, list[dict[str, Any]]] = {}
    looked = 0
    shots_taken = call_shot = False
    deadline = time.monotonic() + 600
    while not (screen := page.evaluate(SCREEN))["final"]:
        assert time.monotonic() < deadline, f"the hanchan is not over; {len(shown)} advised"
        if screen["showFinal"]:
            page.locator("#show-final").click()
        elif screen["ok"]:
            page.locator("#result-ok:not([disabled])").click()
        elif screen["act"]:
            now = page.evaluate(MARKS)
            if now["inq"] is None:
                continue
            if not now["worth"]:
                _click_only(page)
                continue
            if not now["marks"]:
                looked += 1
                page.wait_for_timeout(10)  # the advice is on its way
                continue
            shown.setdefault(now["inq"], []).extend(now["marks"])
            calls = [m for m in now["marks"] if m["kind"] == "button" and m["rank"] == 0]
            if calls and not call_shot:
                call_shot = True
                shot(page, "desktop-advice-call")
            if not shots_taken and any(m["kind"] == "tile" for m in now["marks"]):
                shots_taken = True
                shot(page, "desktop-advice")
                page.set_viewport_size(PHONE)
                shot(page, "phone-advice")
                page.set_viewport_size(DESKTOP)
            _click_best(page, now["marks"])
        else:
            page.wait_for_timeout(20)
    seat = page.evaluate("window.__table.st.seat")
    # the record counts the advice given, and the review of the same game says the same
    with urllib.request.urlopen(f"{server}/api/games/{game}/record?format=json") as r:
        record = json.loads(r.read())
    advised = [m for m in watch.messages if m["type"] == "advice"]
    assert record["advice"] == len(advised) == len(shown) > 40
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    review = json.loads(
        subprocess.run(
            [sys.executable, "-m", "engine.review", str(path), "--seat", str(seat), "--json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    entries = [e for k in review["kyokus"] for e in k["entries"]]
    # every decision of the seat was advised, in order: the k-th advice is the k-th entry
    assert len(entries) == len(advised)
    for entry, advice in zip(entries, advised, strict=True):
        assert advice["engine"] == "strong"
        assert advice["options"] == entry["advice"]
        ranked = {
            (o["action"], o["option"]): (i, o["value"]) for i, o in enumerate(advice["options"])
        }
        for m in shown[advice["inquiry"]]:
            assert ranked[(m["action"], m["option"])] == (m["rank"], m["value"]), m
            assert m["best"] == (m["rank"] == 0)
            assert m["label"] == (str(m["rank"] + 1) if m["rank"] < 3 else "")
        # the best choice was marked on the page, and the review calls it the best
        assert any(m["best"] for m in shown[advice["inquiry"]])
        assert entry["details"][0]["q_value"] == entry["advice"][0]["value"]
    # played by the advice, every decision agrees with the reviewer
    assert review["total_matches"] == review["total_reviewed"]
    # the replay of the game: each seat's review state asked, none yet (a normal state)
    page.goto(f"{server}/#/replay/{game}")
    page.wait_for_selector(".board")
    page.wait_for_timeout(1500)
    assert not watch.errors, watch.errors
    # advice is refused only for an inquiry that closed before the seat answered it (a claim
    # made moot by another seat's ron, say): never for one the seat was still to answer
    answered = {m["inquiry"] for m in watch.sent if m["type"] == "answer"}
    refused = [m for m in watch.messages if m["type"] == "error" and m["code"] == "no_advice"]
    for m in refused:
        found = re.fullmatch(r"inquiry (\d+) is not open", m["message"])
        assert found is not None, m
        assert int(found[1]) not in answered and int(found[1]) not in shown, m


def _seat_page(browser: Browser, server: str, grant: dict[str, object]) -> tuple[Page, Watch]:
    """A browser holding the seat ``grant`` on its table page, watched from before it loads
    (its socket's frames are all seen)."""
    room = grant["room"]
    assert isinstance(room, dict)
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('seat:{room['game']}', '{grant['token']}');")
    page = context.new_page()
    watch = Watch(page)
    page.goto(f"{server}/#/play/{room['game']}")
    return page, watch


def test_a_table_with_two_humans_offers_no_hint_and_refuses_advice(
    server: str, browser: Browser
) -> None:
    owner_grant = _post(f"{server}/api/rooms", {"name": "Ann", "bots": 1, "base_s": 30})
    room = owner_grant["room"]
    assert isinstance(room, dict)
    guest_grant = _post(f"{server}/api/rooms/{room['code']}/join", {"name": "Ben"})
    seated = [_seat_page(browser, server, g) for g in (owner_grant, guest_grant)]
    pages, watches = [p for p, _ in seated], [w for _, w in seated]
    try:
        pages[0].wait_for_selector("#waiting #start", timeout=10000)
        pages[0].click("#start")  # the free seat goes to a bot: two humans, two bots
        playing = "window.__table.st.room && window.__table.st.room.status === 'playing'"
        wait_until(pages[0], playing)
        # whoever is asked first tries: the page offers no hint, and the server refuses one
        asked = None
        deadline = time.monotonic() + 30
        while asked is None:
            assert time.monotonic() < deadline, "neither seat was asked anything"
            for p in pages:
                if p.evaluate("!!(window.__table && window.__table.st.inq)"):  # loaded yet?
                    asked = p
                    break
            else:
                pages[0].wait_for_timeout(50)
        assert asked.evaluate("window.__table.st.room.advice") is False
        for p in pages:
            assert p.locator("#hint, #hint-always").count() == 0
        asked.evaluate(
            "window.__table.net.send({type: 'advice', inquiry: window.__table.st.inq.id})"
        )
        watch = watches[pages.index(asked)]
        deadline = time.monotonic() + 10
        while not any(m.get("code") == "no_advice" for m in watch.messages):
            assert time.monotonic() < deadline, watch.messages[-5:]
            asked.wait_for_timeout(50)
        assert not any(m["type"] == "advice" for w in watches for m in w.messages)
        assert not [e for w in watches for e in w.errors], [w.errors for w in watches]
    finally:
        for p in pages:
            p.context.close()
