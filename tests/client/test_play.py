"""A person's match: create a room with three bots in the lobby and play a whole tonpuusen by
clicking in the page, including a dropped connection, until the final standings show."""

from __future__ import annotations

import json
import random
import time
import urllib.request

from playwright.sync_api import Page

from tests.client.conftest import DESKTOP, LAPTOP, PHONE, WIDE, shot, shots

#: when offered, wins first, then riichi, then calls; a discard otherwise
PREFERENCE = ("tsumo", "ron", "riichi", "pon", "chii", "daiminkan", "ankan", "kakan")


def _face(tile: int) -> tuple[int, bool]:
    """What a tile looks like: its kind and whether it is a red five (copies look alike)."""
    return tile >> 2, tile in (16, 52, 88)


#: what the page offers now, read in one round trip (a locator count per control made a
#: decision cost two dozen round trips to the browser)
CONTROLS = """() => ({
    choice: document.querySelectorAll('#actions .choice').length > 0,
    riichi: document.querySelector('#actions button[data-type=riichi][data-active]') !== null,
    buttons: [...document.querySelectorAll('#actions button[data-type]')].map(b => b.dataset.type),
    tiles: [...document.querySelectorAll('.own .tile.can')].map(t => t.getAttribute('data-tile')),
})"""


#: which screen the page is on, read in one round trip per turn of a play loop
SCREEN = """() => ({
    final: document.querySelector('#final') !== null,
    showFinal: document.querySelector('#show-final') !== null,
    ok: document.querySelector('#result-ok:not([disabled])') !== null,
    act: document.querySelector('#actions button, .own .tile.can') !== null,
})"""


#: counts the snapshots the page has been sent (one per (re)connect), before its own handler runs
SNAPSHOTS = """window.__snapshots = 0; window.WebSocket = class extends window.WebSocket {
    constructor(...args) { super(...args); this.addEventListener("message", (e) => {
        if (typeof e.data === "string" && e.data.includes('"type":"snapshot"'))
            window.__snapshots++;
    }); } };"""


def _act(page: Page, rng: random.Random) -> str:
    """Make one decision the way a player would, by clicking; returns what was done."""
    offered = page.evaluate(CONTROLS)
    if offered["choice"]:
        page.locator("#actions .choice").first.click()
        return "choice"
    tiles = page.locator(".own .tile.can")
    if offered["riichi"]:
        # riichi mode: only the inquiry's riichi discards may be clickable
        legal = page.evaluate(
            "window.__table.st.inq.actions.filter(a => a.type === 'riichi')"
            ".flatMap(a => a.options.map(o => o.tiles[0]))"
        )
        shown = [int(t or -1) for t in offered["tiles"]]
        assert {_face(t) for t in shown} == {_face(t) for t in legal}
        tiles.nth(rng.randrange(len(shown))).click()
        return "riichi-discard"
    for kind in PREFERENCE:
        if kind in offered["buttons"]:
            page.locator(f"#actions button[data-type={kind}]").first.click()
            return kind
    n = len(offered["tiles"])
    if n:
        waits = page.evaluate(
            "Object.fromEntries(window.__table.st.inq.actions.filter(a => a.type === 'discard')"
            ".flatMap(a => a.options.map(o => [o.tiles[0], o.tenpai.length])))"
        )
        tenpai = [i for i, t in enumerate(offered["tiles"]) if waits.get(t, 0)]
        if tenpai:
            # hovering a discard that leaves a tenpai hand shows each wait with its value
            i = tenpai[0]
            tiles.nth(i).hover()
            expected = waits[offered["tiles"][i]]
            assert page.locator("#tip .w").count() == expected
            tiles.nth(i).click()
            # the tenpai indicator now shows the waits that discard left
            assert page.locator(".status .tenpai .tile").count() == expected
            return "discard"
        if rng.random() < 0.3:
            # the keyboard: move to a tile and discard it with Enter
            asked = page.evaluate("window.__table.st.inq.id")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            # answered: that inquiry is gone (the next may already be open)
            assert page.evaluate("window.__table.st.inq?.id") != asked, "Enter did not discard"
            return "discard"
        tiles.nth(rng.randrange(n)).click()
        return "discard"
    if "skip" in offered["buttons"]:
        page.locator("#actions button[data-type=skip]").click()
        return "skip"
    return ""


def _round(page: Page) -> tuple[int, int]:
    """The round the page shows: (kyoku, honba)."""
    kyoku, honba = page.evaluate("[window.__table.st.tb.kyoku, window.__table.st.tb.honba]")
    return kyoku, honba


def test_tonpuusen_played_by_clicking_until_final_standings(server: str, page: Page) -> None:
    rng = random.Random(6)
    # count the on-screen calls (Pon!, Riichi!, Ron!, Tsumo!) as they appear
    page.add_init_script(
        "window.__announced = 0; new MutationObserver((ms) => { for (const m of ms)"
        " for (const n of m.addedNodes) if (n.classList && n.classList.contains('announce'))"
        " window.__announced++; }).observe(document, {childList: true, subtree: true});"
    )
    page.add_init_script(SNAPSHOTS)
    page.goto(server + "/")
    page.fill("#name", "Tester")
    page.select_option("#preset", "tenhou-tonpuu")
    page.select_option("#bots", "3")
    page.click("#create")
    page.wait_for_selector(".own .tile", timeout=15000)
    game = page.evaluate("location.hash").split("/")[-1]
    done: dict[str, int] = {}
    results = 0
    dropped = reloaded = False
    # the hands whose result the page showed and had clicked, and the offline moments: the
    # round before going offline and the one shown once back (a hand that ended in between,
    # or whose result was just arriving, is acknowledged by the server, not by the page)
    clicked: set[tuple[int, int]] = set()
    offline: list[tuple[tuple[int, int], tuple[int, int]]] = []
    deadline = time.monotonic() + 240
    last_result = False
    while not (screen := page.evaluate(SCREEN))["final"]:
        assert time.monotonic() < deadline, f"match not over in time; did {done}"
        if screen["showFinal"]:
            # the match's last hand: its result is shown before the standings (issue 13, 1)
            last_result = page.locator(".overlay .result").count() == 1
            results += 1
            clicked.add(_round(page))
            shot(page, "desktop-last-result")
            page.locator("#show-final").click()
            continue
        if screen["ok"]:
            results += 1
            clicked.add(_round(page))
            if results == 1:
                shot(page, "desktop-result")
                page.set_viewport_size(PHONE)
                shot(page, "phone-result")
                page.set_viewport_size(DESKTOP)
            page.locator("#result-ok:not([disabled])").click()
            continue
        if screen["act"]:
            if done.get("discard") == 5 and results == 0:
                shot(page, "desktop-table")
                shots(
                    page,
                    "table",
                    {"phone": PHONE, "laptop-1366x768": LAPTOP, "wide-1920x1080": WIDE},
                )
            kind = _act(page, rng)
            done[kind] = done.get(kind, 0) + 1
            if done.get("discard") == 12 and not dropped:
                # a network blip: the page must say so, reconnect and resume from the snapshot
                dropped = True
                before = _round(page)
                seen = page.evaluate("window.__snapshots")
                page.evaluate("window.__table.net.drop()")
                # back once the page has the new socket's snapshot (the status still says
                # online while the old socket closes, so it cannot tell)
                page.wait_for_function("(n) => window.__snapshots > n", arg=seen, timeout=10000)
                page.wait_for_selector("#conn.online", timeout=10000)
                offline.append((before, _round(page)))
            if done.get("discard") == 24 and not reloaded:
                # a refresh: the token kept in the page's storage takes the seat back
                reloaded = True
                before = _round(page)
                page.reload()
                page.wait_for_function("() => window.__snapshots > 0", timeout=10000)
                page.wait_for_selector("#conn.online", timeout=10000)
                page.wait_for_selector(".own .tile", timeout=10000)
                offline.append((before, _round(page)))
            continue
        page.wait_for_timeout(30)
    shot(page, "desktop-final")
    assert last_result, "the last hand's result was never shown"
    # the result screen's record links: both formats download the finished game
    for cls, name in (("dl-tenhou", ".tenhou.json"), ("dl-mjai", ".mjai.jsonl")):
        with page.expect_download() as dl:
            page.click(f"#final a.{cls}")
        assert dl.value.suggested_filename == game + name
        assert dl.value.path().stat().st_size > 1000
    # the calls were said on screen as they happened
    assert page.evaluate("window.__announced") > 0
    rows = page.locator("#final table tr")
    assert rows.count() == 5  # header + four seats
    shown = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(1, 5)]
    assert shown == sorted(shown, reverse=True)
    assert done.get("discard", 0) > 24 and dropped and reloaded
    # the standings are the server's: the record's final scores, placed
    with urllib.request.urlopen(f"{server}/api/games/{game}/record?format=json") as r:
        record = json.loads(r.read())
    assert shown == sorted(record["result"]["scores"], reverse=True)
    # every hand's result was shown and closed by a click (the last one's opens the standings),
    # except a hand that ended while the page was offline: a seat that is not connected when
    # the acknowledgement opens is answered at once, so the table never waits on it
    # (the count of rounds that moved while offline was not enough: a CI run showed 6 results
    # for 8 hands with one such move; a hand that ends as the socket goes leaves the round
    # shown once back unmoved, so the hands are matched by name instead)
    played = [(r["kyoku"], r["honba"]) for r in record["rounds"]]
    missing = [r for r in played if r not in clicked]
    assert clicked and len(missing) <= len(offline), (missing, offline, sorted(clicked))
    assert all(any(b <= r <= a for b, a in offline) for r in missing), (missing, offline)
