"""The strong bot's judgement on hand-made tables, and the seat view's privacy."""

from __future__ import annotations

import msgspec

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.records import TenpaiInfo
from engine.actions.types import Action, ActionType, Option
from engine.bot import SeatView, StrongBot, make, seat_view
from engine.bot.defence import Threat, danger
from engine.bot.strong import Placement, Table
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


def _score(hand: list[int], tile: str, view: SeatView) -> float:
    """The strong bot's score for discarding ``tile`` (mpsz) from ``hand``."""
    single = _turn(hand)
    scores = StrongBot().scores(single, view)[0]
    pairs = zip(single.actions[0].options, scores, strict=True)
    return next(v for o, v in pairs if to_str(o.tiles) == tile)


# tenpai on a kanchan 5m; 9m keeps it (a live tile against the riichi), 4m is its genbutsu
_TENPAI = parse("234m567p678s55s46m9m")
_RIICHI = tuple(parse("1z2z4m"))


def test_against_a_riichi_tenpai_is_worth_more_at_the_end_of_the_wall() -> None:
    """Noten payments: with one draw left a tenpai push is worth them, though its race is
    nearly over (a win chance far below mid-game's), and keeps beating the genbutsu fold."""

    def at(remaining: int, tile: str = "9m") -> float:
        view = _view(
            _TENPAI, rivers=((), _RIICHI, (), ()), riichi=(-1, 2, -1, -1), remaining=remaining
        )
        return _score(_TENPAI, tile, view)

    assert at(1) > at(1, "4m") + 300
    assert at(1) > at(8) - 300


def test_riichi_sticks_on_the_table_raise_what_pushing_a_tenpai_is_worth() -> None:
    """A win takes the sticks too: the push's expected value rises with them."""

    def at(kyotaku: int) -> float:
        view = _view(_TENPAI, rivers=((), _RIICHI, (), ()), riichi=(-1, 2, -1, -1), kyotaku=kyotaku)
        return _score(_TENPAI, "9m", view)

    assert at(3) > at(0) + 100


def test_an_honour_two_seen_is_safer_than_a_suji_three() -> None:
    """Tenhou statistics: a twice-seen honour deals in about 3 %, a suji 3 about 5-6 %."""
    visible = [0] * 34
    visible[27] = 2  # 1z: one in a river, one in this hand
    visible[2] = 1  # 3m in this hand
    threat = Threat(1, 1.0, 5800, frozenset({5}))  # 6m genbutsu: 3m is suji
    assert danger(27, threat, visible) < danger(2, threat, visible)


def test_a_furiten_ryanmen_gives_way_to_a_live_kanchan() -> None:
    """A wait on a tile the seat discarded wins by tsumo only: 4m would leave 67m on 5m-8m
    with 8m in the seat's own river, 7m leaves the live 46m kanchan on 5m."""
    hand = parse("234m567p678s55s467m")
    single = SinglePlayerInquiry(0, skip=False)
    waits = {"4m": ("5m", "8m"), "7m": ("5m",)}
    options = []
    for t in hand:
        kinds = waits.get(to_str([t]), ())
        infos = tuple(TenpaiInfo(parse(k)[0] >> 2, 1, 30, 0, 1000) for k in kinds)
        options.append(Option((t,), tenpai=infos))
    single.add(Action(ActionType.DISCARD, options))

    def played(river: str) -> str:
        view = _view(hand, rivers=(tuple(parse(river)), (), (), ()))
        a, o = StrongBot().choose(single, view)
        return to_str(single.actions[a].options[o].tiles)

    assert played("1z") == "4m"  # the ryanmen, while it is not furiten
    assert played("8m") == "7m"


def test_placement_weighs_points_by_the_ranks_they_move_in_the_last_hand() -> None:
    """In the last hand a win that changes no place is worth nothing, and a leader's
    deal-in costs more than the same points won gain; early on a point stays a point."""

    def place(kyoku: int, scores: tuple[int, ...]) -> Placement:
        return Placement(_view(_TENPAI, kyoku=kyoku, scores=scores))

    early = place(0, (25000, 25000, 25000, 25000))
    assert 0.9 < early.win(3900) / 3900 < 1.1 and 0.9 < early.loss(3900, 1) / 3900 < 1.1
    behind = place(7, (12000, 30000, 29000, 29000))
    assert behind.win(2000) < 20 < behind.win(18000)
    ahead = place(7, (33000, 29000, 20000, 18000))
    assert ahead.loss(5800, 1) > 10 * ahead.win(5800)


def test_late_against_a_riichi_a_live_tenpai_pushes_a_dangerous_tile() -> None:
    """The race (``Table.race``): a kanchan on four live 5m, eight draws left, is worth more
    than a deal-in on a non-suji 7p costs (the old 0.05 a tile folded it onto genbutsu 4m)."""
    hand = parse("234m567p678s55s46m4p")
    view = _view(hand, rivers=((), _RIICHI, (), ()), riichi=(-1, 2, -1, -1), remaining=8)
    assert _discarded(hand, view) in ("4p", "7p")


def test_the_race_and_the_two_step_chance_grow_with_waits_and_draws() -> None:
    """``Table.race`` and ``Table.two_step`` (the latter switched off, ``ONE_RACE``): more
    live waits or more draws left win more often, a second riichi less often."""
    riichi = _view(_TENPAI, rivers=((), _RIICHI, (), ()), riichi=(-1, 2, -1, -1))
    table = Table(riichi)
    assert 0 < table.race(2, 10) < table.race(4, 10) < 0.6
    assert table.race(4, 2) < table.race(4, 10)
    assert table.two_step(20, 5) < table.two_step(40, 5) < table.race(5, 10)
    both = _view(_TENPAI, rivers=((), _RIICHI, _RIICHI, ()), riichi=(-1, 2, 2, -1))
    assert Table(both).race(4, 10) < table.race(4, 10)
