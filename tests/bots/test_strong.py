"""The strong bot's judgement on hand-made tables, and the seat view's privacy."""

from __future__ import annotations

import msgspec

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import Action, ActionType, Option
from engine.bot import SeatView, make, seat_view
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.rules.config import TENHOU_HANCHAN
from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import parse, to_str


def _view(hand: list[int], **changes: object) -> SeatView:
    base = SeatView(
        seat=0,
        rules=TENHOU_HANCHAN,
        hand=tuple(hand),
        drawn=hand[-1],
        melds=((), (), (), ()),
        rivers=((), (), (), ()),
        riichi=(-1, -1, -1, -1),
        dora_indicators=tuple(parse("9p")),
        scores=(25000, 25000, 25000, 25000),
        kyoku=1,
        honba=0,
        kyotaku=0,
        round_wind=27,
        seat_wind=30,
        remaining=40,
    )
    return msgspec.structs.replace(base, **changes)


def _turn(hand: list[int]) -> SinglePlayerInquiry:
    single = SinglePlayerInquiry(0, skip=False)
    single.add(Action(ActionType.DISCARD, [Option((t,)) for t in hand]))
    return single


def _discarded(hand: list[int], view: SeatView) -> str:
    single = _turn(hand)
    a, o = make("strong").choose(single, view)
    return to_str(single.actions[a].options[o].tiles)


def test_far_from_tenpai_it_folds_onto_the_riichi_seats_genbutsu() -> None:
    hand = parse("1479m258p369s1234z")  # far from tenpai; 7z no one discarded
    river = tuple(parse("5z2p"))  # seat 1 discarded 5z, then 2p declaring riichi
    view = _view(hand, rivers=((), river, (), ()), riichi=(-1, 1, -1, -1))
    assert _discarded(hand, view) in ("2p",)


def test_without_a_threat_it_plays_for_efficiency() -> None:
    hand = parse("123m456p789s1122z") + parse("7z")
    assert _discarded(hand, _view(hand)) == "7z"


def test_it_pons_a_dragon_pair_and_skips_a_pon_that_leaves_no_yaku() -> None:
    hand = parse("55z123m456p799s15s")
    for kind, want in (("5z", 1), ("9s", 0)):
        single = SinglePlayerInquiry(0)
        own = tuple(t for t in hand if to_str([t]) == kind)
        single.add(Action(ActionType.PON, [Option(own)]))
        assert make("strong").choose(single, _view(hand, drawn=None))[0] == want, kind


def test_it_wins_when_offered() -> None:
    hand = parse("123m456p789s1122z2z")
    single = _turn(hand)
    single.add(Action(ActionType.TSUMO))
    assert make("strong").choose(single, _view(hand)) == (1, 0)


def test_a_seat_view_holds_no_other_seats_concealed_tiles() -> None:
    center = BotCenter([make("strong") for _ in range(4)])
    game = new_game(TENHOU_HANCHAN, 3, center, max_rounds=1)
    center.game = game
    views: list[SeatView] = []
    original = center.on_inquiry

    def spy(inquiry: object) -> None:
        for seat in inquiry.players:  # type: ignore[attr-defined]
            views.append(seat_view(game, seat))
        original(inquiry)  # type: ignore[arg-type]

    center.on_inquiry = spy  # type: ignore[method-assign]
    run_sync(game)
    assert views
    for view in views:
        held = set(view.hand)
        public = {t for r in view.rivers for t in r}
        public |= {t for ms in view.melds for m in ms for t in m.tiles}
        public |= set(view.dora_indicators)
        fields = set(msgspec.structs.asdict(view))
        assert fields == set(SeatView.__struct_fields__)
        assert len(held) == len(view.hand) and not held & public - held


def test_the_same_inquiry_and_view_give_the_same_answer() -> None:
    hand = parse("1479m258p369s1234z")
    river = tuple(parse("5z2p"))
    meld = Meld(MeldType.PON, tuple(parse("666z")), called=parse("666z")[0], from_seat=0)
    view = _view(hand, rivers=((), river, (), ()), melds=((), (), (meld,), ()))
    answers = {make("strong").choose(_turn(hand), view) for _ in range(3)}
    assert len(answers) == 1
