"""The engine tells a seat, and only that seat, whether it is furiten: on its own Draw (the
state it plays its turn in) and its own Discard (the state it waits in afterwards)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.actions import ActionType as A
from engine.centers import ScriptedCenter
from engine.rules.tiles import kind_to_str
from tests.engine.table import make_wall, play

QUIET = ["777m444p777s22z33z", "888m111p222s44z66z"]
FURITEN_HAND = "555z234m456p23s99s"  # haku, waiting on 1s-4s
HANDS = [QUIET[0], FURITEN_HAND, "111m999p888s1p2p3p8p", QUIET[1]]


def _own(center: ScriptedCenter, seat: int) -> list[tuple[str, str, bool | None]]:
    """(event, tile, furiten) of ``seat``'s own draws and discards, as that seat saw them."""
    out = []
    for e in center.seen(seat):
        name = type(e).__name__
        if name in ("Draw", "Discard") and e.seat == seat:
            out.append((name, kind_to_str(e.tile >> 2), e.furiten))
    return out


def _never_shown_to_others(center: ScriptedCenter) -> None:
    for seat in range(4):
        for e in center.seen(seat):
            if type(e).__name__ in ("Draw", "Discard") and e.seat != seat:
                assert e.furiten is None, (seat, e)
                assert b'"furiten":null' in msgspec.json.encode(e)


def _god(center: ScriptedCenter, seat: int) -> list[Any]:
    return [
        e.furiten for e in center.seen(None) if type(e).__name__ == "Discard" and e.seat == seat
    ]


def test_discarding_a_wait_1s_makes_the_discarder_furiten_and_only_it_learns_so() -> None:
    _, center = play([make_wall(HANDS, draws="1z1s2z3z4s", dora="9m")])
    assert _own(center, 1)[:2] == [("Draw", "1s", False), ("Discard", "1s", True)]
    _never_shown_to_others(center)
    assert _god(center, 1)[0] is True  # the god view (spectators) sees every seat


def test_discarding_a_safe_6z_leaves_the_same_hand_free_to_ron() -> None:
    _, center = play([make_wall(HANDS, draws="1z6z2z3z4s", dora="9m")])
    assert _own(center, 1)[:2] == [("Draw", "6z", False), ("Discard", "6z", False)]
    _never_shown_to_others(center)


def test_passing_a_ron_on_4s_is_furiten_at_the_next_draw_until_the_own_discard() -> None:
    # seat 1 lets seat 2's 4s go, then draws 3z: temporarily furiten; its discard ends it
    _, center = play([make_wall(HANDS, draws="1z2z4s1s1s3z4s", dora="9m")])
    assert _own(center, 1)[:4] == [
        ("Draw", "2z", False),
        ("Discard", "2z", False),
        ("Draw", "3z", True),
        ("Discard", "3z", False),
    ]
    _never_shown_to_others(center)


def test_a_riichi_that_lets_4s_go_stays_furiten_after_its_next_discard() -> None:
    wall = make_wall(HANDS, draws="1z2z4s6z6z3z1s", dora="9m")
    _, center = play([wall], [(1, A.RIICHI, "2z")])
    assert _own(center, 1)[:4] == [
        ("Draw", "2z", False),
        ("Discard", "2z", False),
        ("Draw", "3z", True),
        ("Discard", "3z", True),  # riichi furiten outlives the discard
    ]
    _never_shown_to_others(center)
