"""What the resolvers offer: chii direction, red-five variants, riichi ankan, bad answers."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from engine.actions import ActionType as A
from engine.actions import InvalidResponse, MultiPlayerInquiry
from engine.centers import DefaultCenter
from engine.driver import run_async, run_sync
from engine.game import new_game
from engine.rules.config import TENHOU_TONPUU
from engine.rules.tiles import to_str
from engine.view import snapshot
from tests.engine.table import Holding, make_wall, play

QUIET = ["777m444p777s22z33z", "888m111p222s44z66z"]


def _claims_on(center: Any, seat: int, action: A) -> list[MultiPlayerInquiry]:
    return [
        q
        for q in center.inquiries
        if q.kind == "claim" and seat in q.players and q.players[seat].find(action) >= 0
    ]


def test_chii_is_offered_only_to_the_next_seat_with_each_red_five_variant() -> None:
    wall = make_wall(
        [QUIET[0], "405m123p789p11z55z", "45m999m111s666s99p", QUIET[1]], draws="3m", dora="7z"
    )
    _, center = play([wall])
    first = center.inquiries[1]
    assert first.kind == "claim" and first.players[2].find(A.CHII) < 0  # 45m, but not left
    chii = first.players[1].actions[first.players[1].find(A.CHII)]
    assert sorted(to_str(o.tiles) for o in chii.options) == ["40m", "45m"]


def test_a_pon_with_a_red_five_is_a_separate_option() -> None:
    wall = make_wall(
        [QUIET[0], "505m123p999s11z34z", "999m111s666s99p78p", QUIET[1]], draws="5m", dora="7z"
    )
    _, center = play([wall])
    pon = _claims_on(center, 1, A.PON)[0].players[1]
    options = pon.actions[pon.find(A.PON)].options
    assert sorted(to_str(o.tiles) for o in options) == ["05m", "55m"]


def test_ankan_after_riichi_only_when_the_waits_stay() -> None:
    keeps = make_wall(
        ["111z234m567p23s99s", *QUIET, "456m456p456s7z8m9m1p"], draws="5z1m2m3m1z", dora="7z"
    )
    changes = make_wall(
        ["3334m567p789s555z", *QUIET, "456m456p456s7z8m9m1p"], draws="6z1m2m8p3m", dora="7z"
    )
    for wall, offered in ((keeps, True), (changes, False)):
        script = [(0, A.RIICHI, "5z" if offered else "6z")]
        _, center = play([wall], script)
        turns = [q for q in center.inquiries if q.kind == "turn" and 0 in q.players]
        second = turns[1].players[0]
        assert (second.find(A.ANKAN) >= 0) == offered
        assert [a.type for a in second.actions if a.type == A.DISCARD]


def test_riichi_needs_a_thousand_points() -> None:
    from engine.game import RoundStart

    for score, offered in ((1000, True), (900, False)):
        wall = make_wall(["111z234m567p23s99s", *QUIET, "456m456p456s7z8m9m1p"], draws="5z")
        start = RoundStart(0, 0, 0, (score, 25000, 25000, 100000 - 25000 * 2 - score))
        _, center = play([wall], start=start)
        assert (center.inquiries[0].players[0].find(A.RIICHI) >= 0) == offered


class _BadFirst(DefaultCenter):
    """Tries illegal answers before the default one."""

    def __init__(self) -> None:
        self.rejected = 0

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        seat = next(iter(inquiry.players))
        for bad in ((seat, 99, 0), (seat, 0, 99), (seat + 7, 0, 0)):
            with pytest.raises(InvalidResponse):
                inquiry.respond(*bad)
            self.rejected += 1
        assert not inquiry.done and not inquiry.decisions
        inquiry.respond_defaults()
        with pytest.raises(InvalidResponse):
            inquiry.respond(seat, 0, 0)


def test_a_bad_answer_is_refused_and_changes_nothing() -> None:
    center = _BadFirst()
    game = run_sync(new_game(TENHOU_TONPUU, 5, center))
    reference = run_sync(new_game(TENHOU_TONPUU, 5, DefaultCenter()))
    assert center.rejected > 0
    assert game.scores == reference.scores and game.decisions == reference.decisions


async def test_run_async_waits_for_answers_from_another_task() -> None:
    center = Holding()
    game = new_game(TENHOU_TONPUU, 9, center)
    lock = anyio.Lock()
    seen_hidden: list[bool] = []

    async def answer() -> None:
        while not game.over:
            await anyio.sleep(0)
            while center.open:
                inquiry = center.open.pop()
                async with lock:  # the engine is parked: state can be read
                    view = snapshot(game, 0)
                    seen_hidden.append(all(p.hand is None for p in view.players[1:]))
                inquiry.respond_defaults()

    async with anyio.create_task_group() as tg:
        tg.start_soon(answer)
        await run_async(game, lock)
    reference = run_sync(new_game(TENHOU_TONPUU, 9, DefaultCenter()))
    assert game.over and game.scores == reference.scores
    assert seen_hidden and all(seen_hidden)


def test_each_discard_carries_the_guaranteed_minimum_of_its_waits() -> None:
    wall = make_wall(
        ["234m456p678s23s55p", "777m444p777s22z33z", "888m111p222s44z66z", "999m222p333s55z66z"],
        draws="1z",
        dora="9m",
    )
    _, center = play([wall])
    turn = center.inquiries[0].players[0]
    discard = turn.actions[turn.find(A.DISCARD)]
    by_tile = {to_str(o.tiles): o.tenpai for o in discard.options}
    one_s, four_s = by_tile["1z"]
    assert (one_s.han, one_s.fu, one_s.points) == (1, 30, 1500)  # pinfu only: 1s is no simple
    assert (four_s.han, four_s.fu, four_s.points) == (2, 30, 2900)  # tanyao pinfu, dealer ron
    assert by_tile["2m"] == ()
    riichi = turn.actions[turn.find(A.RIICHI)]
    assert [to_str(o.tiles) for o in riichi.options] == ["1z"]
    # the riichi discard's values count the declaration: double riichi on this first turn
    one_s, four_s = riichi.options[0].tenpai
    assert (one_s.han, one_s.points) == (3, 5800)
    assert (four_s.han, four_s.points) == (4, 11600)


def test_a_later_riichi_discard_counts_riichi_in_its_values() -> None:
    wall = make_wall(
        ["234m456p678s23s55p", "777m444p777s22z33z", "888m111p222s44z66z", "999m222p333s55z66z"],
        draws="1z" + "7z7z7z" + "1z",
        dora="9m",
    )
    _, center = play([wall])
    turns = [q for q in center.inquiries if q.kind == "turn" and 0 in q.players]
    second = turns[1].players[0]
    riichi = second.actions[second.find(A.RIICHI)]
    one_s, four_s = riichi.options[0].tenpai
    assert (one_s.han, one_s.points) == (2, 2900)  # riichi pinfu
    assert (four_s.han, four_s.points) == (3, 5800)  # riichi tanyao pinfu
    plain = second.actions[second.find(A.DISCARD)]
    by_tile = {to_str(o.tiles): o.tenpai for o in plain.options}
    assert by_tile["1z"][0].han == 1
