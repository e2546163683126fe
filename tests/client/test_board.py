"""The board shows what issue 6 lists, checked on a known moment of a real Tenhou log (the
last step before the result of its fifth hand, East 3): round wind and number, honba, sticks,
tiles left, dora indicator, seat winds and scores; the riichi tile turned; called-away
tiles marked; each meld's called tile turned toward its giver."""

from __future__ import annotations

import json

from playwright.sync_api import Locator, Page

from tests.client.conftest import DESKTOP, LAPTOP, PHONE, WIDE, click_until, shot
from tests.client.test_replay import tenhou_log

ROUND = 4


def _mpsz(code: int) -> str:
    if code > 50:
        return f"0{'mps'[code - 51]}"
    suit, num = divmod(code, 10)
    return f"{num}{'mpsz'[suit - 1]}"


def _before_result(page: Page) -> None:
    page.goto(page.url.split("#")[0] + "#/replay")
    page.set_input_files("#replay-file", str(tenhou_log()))
    page.wait_for_selector(".board")
    page.select_option("#replay-round", str(ROUND))
    click_until(page, "#replay-next", ".overlay .result", 300)
    page.click("#replay-prev")


def test_the_centre_rivers_and_melds_of_east_3_before_its_win(server: str, page: Page) -> None:
    rnd = json.loads(tenhou_log().read_text())["log"][ROUND]
    kyoku, honba, _sticks = rnd[0]
    takes = [t for s in range(4) for t in rnd[5 + 3 * s] if isinstance(t, int)]
    page.goto(server + "/#/replay")
    _before_result(page)
    shot(page, "desktop-board-east3")
    centre = page.locator(".centre")
    assert centre.locator(".round").inner_text() == f"East {kyoku + 1}"
    assert centre.locator(".honba").inner_text() == f"×{honba}"
    assert centre.locator(".honba").get_attribute("title") == "honba"
    assert centre.locator(".kyotaku").inner_text() == "×1"  # B's riichi stick
    assert centre.locator(".left b").inner_text() == str(70 - len(takes))
    dora = centre.locator(".dora .tile")
    assert dora.count() == 5 and dora.nth(0).get_attribute("data-name") == _mpsz(rnd[2][0])
    assert centre.locator(".dora .tile.back").count() == 4
    # the dealer of East 3 is seat 2 (C): E, then S, W, N round the table
    winds = {centre.locator(f'.side[data-seat="{s}"] .wind').inner_text(): s for s in range(4)}
    assert winds == {"E": 2, "S": 3, "W": 0, "N": 1}
    assert "riichi" in _cls(centre.locator('.side[data-seat="1"]')).split()

    # B (seat 1) declared riichi with its discard of 4p ("r24")
    river_b = page.locator('.seat[data-seat="1"] .river .tile')
    turned = [river_b.nth(i) for i in range(river_b.count()) if "turned" in _cls(river_b.nth(i))]
    assert [t.get_attribute("data-name") for t in turned] == ["4p"]
    # C (seat 2) chii'd 3s from B and pon'd 6p from D: those river tiles are marked
    called_b = page.locator('.seat[data-seat="1"] .river .tile.called')
    called_d = page.locator('.seat[data-seat="3"] .river .tile.called')
    assert [called_b.nth(i).get_attribute("data-name") for i in range(called_b.count())] == ["3s"]
    assert [called_d.nth(i).get_attribute("data-name") for i in range(called_d.count())] == ["6p"]
    assert page.locator(".river .tile.called").count() == 2
    # C's melds: the chii's 3s turned to the left (first), the pon's 6p to the right (last)
    melds = page.locator('.seat[data-seat="2"] .meld')
    by_type = {_cls(melds.nth(i)).split()[1]: melds.nth(i) for i in range(melds.count())}
    chii = by_type["chii"].locator(".tile")
    pon = by_type["pon"].locator(".tile")
    assert [_cls(chii.nth(i)).count("turned") for i in range(3)] == [1, 0, 0]
    assert chii.nth(0).get_attribute("data-name") == "3s"
    assert [_cls(pon.nth(i)).count("turned") for i in range(3)] == [0, 0, 1]


#: the centre's contents that no seat's label may cover
INFO = ".centre .round, .centre .sub > span, .centre .left, .centre .dora .tile"


def test_the_seat_labels_round_the_centre_never_cover_its_round_sticks_or_dora(
    server: str, page: Page
) -> None:
    page.goto(server + "/#/replay")
    _before_result(page)
    for size in (PHONE, DESKTOP, LAPTOP, WIDE):
        page.set_viewport_size(size)
        overlaps = page.evaluate(
            """(sel) => { const r = (e) => e.getBoundingClientRect(), out = [];
              const cut = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                && a.top < b.bottom - 1 && b.top < a.bottom - 1;
              for (const side of document.querySelectorAll('.centre .side > span'))
                for (const e of document.querySelectorAll(sel))
                  if (cut(r(side), r(e)))
                    out.push(`${side.className} ${side.textContent} / ${e.className}`);
              return out; }""",
            INFO,
        )
        assert not overlaps, (size, overlaps)


def _cls(locator: Locator) -> str:
    return locator.get_attribute("class") or ""
