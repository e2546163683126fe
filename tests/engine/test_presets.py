"""Mahjong Soul, M-League and WRC presets: each difference from Tenhou at the table (or, for
pure scoring and result switches, at the scorer). docs/rules.md lists them with sources."""

from __future__ import annotations

import pytest

from engine.actions import ActionType as A
from engine.centers import RandomCenter, Script
from engine.driver import run_sync
from engine.events import AFTER, EventBase, late
from engine.game import RoundStart, new_game
from engine.rules.config import (
    MAHJONGSOUL_HANCHAN,
    MLEAGUE,
    PRESETS,
    TENHOU_HANCHAN,
    WRC,
    RuleConfig,
)
from engine.rules.scoring import WinContext, score_hand
from engine.rules.scoring.points import base_points, placement_points
from engine.rules.tiles import parse
from tests.engine.table import (
    PAO_QUIET,
    BotCenter,
    check_invariants,
    events,
    make_wall,
    pao_dragon_script,
    play,
)

QUIET = ["777m444p777s22z33z", "888m111p222s44z66z"]
NOTEN = ["1357m1357p1357s1z", "2468m2468p2468s2z", "1357m1357p1357s3z", "2468m2468p2468s4z"]


def test_the_lobby_lists_the_presets() -> None:
    assert PRESETS["mahjongsoul-hanchan"] is MAHJONGSOUL_HANCHAN
    assert PRESETS["mleague"] is MLEAGUE and PRESETS["wrc"] is WRC


# ---------------------------------------------------------------- Mahjong Soul


def _kokushi_13_ron(rules: RuleConfig) -> tuple[int, ...]:
    hands = [QUIET[0], "19m19p19s1234567z", "234m345p456s678s5p", "567p234s567m234s8p"]
    wall = make_wall(hands, draws="1m", rules=rules)
    game, _ = play([wall], [(1, A.RON)], rules=rules)
    return game.rounds[0].deltas


def test_mahjong_soul_pays_a_13_sided_kokushi_as_double_yakuman() -> None:
    assert _kokushi_13_ron(TENHOU_HANCHAN) == (-32000, 32000, 0, 0)
    assert _kokushi_13_ron(MAHJONGSOUL_HANCHAN) == (-64000, 64000, 0, 0)


def test_mahjong_soul_pays_three_rons_on_one_discard() -> None:
    wall = make_wall(
        ["111z222z333z444z6z", "234m678m234s678s5p", "345m345s678p666p5p", "456m456s234p222m5p"],
        draws="0p",
    )
    script: list[Script] = [(1, A.RON), (2, A.RON), (3, A.RON)]
    game, center = play([wall], script, rules=MAHJONGSOUL_HANCHAN)
    assert game.rounds[0].kind == "agari" and events(center, "Agari")[0].winners == (1, 2, 3)


def test_mahjong_soul_kokushi_robs_a_closed_kan() -> None:
    wall = make_wall(
        ["1111z234m567p23s6s", "119m19p19s234567z", "234p678p345s678m5m", "456m456s78p33m44m9p"],
        draws="8s",
    )
    _, center = play([wall], [(0, A.ANKAN, "1111z"), (1, A.RON)], rules=MAHJONGSOUL_HANCHAN)
    assert events(center, "Agari")[0].chankan


def test_mahjong_soul_results_are_exact_from_the_start_uma_15_5() -> None:
    scores = (33000, 23800, 30700, 12500)
    assert placement_points(scores, TENHOU_HANCHAN) == (42.0, -16.0, 11.0, -37.0)
    assert placement_points(scores, MAHJONGSOUL_HANCHAN) == (23.0, -6.2, 10.7, -27.5)
    assert not MAHJONGSOUL_HANCHAN.oka and MAHJONGSOUL_HANCHAN.target_points == 30000
    # a real Throne Room export's final scores and results (sc)
    real = (13200, 47400, 34100, 5300)
    assert placement_points(real, MAHJONGSOUL_HANCHAN) == (-16.8, 37.4, 14.1, -34.7)


def test_mahjong_soul_pao_pays_only_the_liable_yakuman_of_a_composite_hand() -> None:
    # daisangen fed by seat 2 (pao) plus tsuuiisou: Tenhou's liable seat pays both yakuman,
    # Mahjong Soul's only daisangen; tsuuiisou is paid as an ordinary tsumo
    hands = [PAO_QUIET[0], "55z66z77z111z4z1s2s3s", PAO_QUIET[1], PAO_QUIET[2]]
    for rules, want in (
        (TENHOU_HANCHAN, (0, 64000, -64000, 0)),
        (MAHJONGSOUL_HANCHAN, (-16000, 64000, -40000, -8000)),
    ):
        wall = make_wall(hands, draws="5z6z7z3z3z3z4z", rules=rules)
        game, center = play([wall], pao_dragon_script(A.TSUMO), rules=rules)
        assert events(center, "Agari")[0].wins[0].pao_seat == 2
        assert game.rounds[0].deltas == want


# ---------------------------------------------------------------- M-League


def test_m_league_turns_an_open_kan_dora_at_once() -> None:
    hands = ["777m444p777s22z11z", "555m3333z123p45s9p", "888m111p222s44z66z", "999m222p333s55z66p"]
    for rules, after in ((TENHOU_HANCHAN, "Draw"), (MLEAGUE, "DoraRevealed")):
        _, center = play([make_wall(hands, draws="0m")], [(1, A.DAIMINKAN)], rules=rules)
        names = [type(e).__name__ for e in center.seen(None)]
        assert names[names.index("Call") + 1] == after


def _riichi_offered(rules: RuleConfig) -> bool:
    wall = make_wall(
        ["123m456p789s11z23s", QUIET[0], QUIET[1], "999m222p333s55z66p"], draws="7z", dora="9p"
    )
    start = RoundStart(0, 0, 0, (500, 33000, 33000, 33500))
    _, center = play([wall], rules=rules, start=start)
    turn = center.inquiries[0].players[0]
    return turn.find(A.RIICHI) >= 0


def test_m_league_allows_riichi_below_a_thousand_points() -> None:
    assert not _riichi_offered(TENHOU_HANCHAN)
    assert _riichi_offered(MLEAGUE)


def test_m_league_splits_placement_points_on_a_tie() -> None:
    scores = (30000, 30000, 20000, 20000)
    assert placement_points(scores, MLEAGUE) == (30.0, 30.0, -30.0, -30.0)
    assert placement_points(scores, TENHOU_HANCHAN) == (40.0, 10.0, -20.0, -30.0)


def test_m_league_has_no_nine_terminals_abort() -> None:
    wall = make_wall(["19m19p19s1234z234m", QUIET[1], "234m345p456s678s5z", "567p678s567m234s8p"])
    _, center = play([wall], rules=MLEAGUE)
    assert center.inquiries[0].players[0].find(A.KYUUSHU) < 0


def test_m_league_has_no_four_riichi_abort() -> None:
    wall = make_wall(
        ["123m456m789m123p5p", "123s456s789s234p6p", "567m567p567s888p4z", "444m444s333z66z77z"],
        draws="1z2z3z1m",
    )
    script: list[Script] = [
        (0, A.RIICHI, "1z"), (1, A.RIICHI, "2z"), (2, A.RIICHI, "3z"), (3, A.RIICHI, "1m"),
    ]  # fmt: skip
    game, _ = play([wall], script, rules=MLEAGUE)
    assert game.rounds[0].kind != "suucha_riichi"


def test_m_league_plays_on_below_zero() -> None:
    wall = make_wall(
        [QUIET[0], "234m345p456s1199s", "55z123m678p345s99p", QUIET[1]], draws="1z5z", dora="8s"
    )
    start = RoundStart(0, 0, 0, (25000, 1000, 49000, 25000))
    walls = [wall, make_wall(NOTEN)]
    script: list[Script] = [(1, A.DISCARD, "5z"), (2, A.RON)]
    game, _ = play(walls, script, rules=MLEAGUE, start=start, max_rounds=2)
    assert game.rounds[0].deltas[1] < 0 and game.scores[1] < 0
    assert len(game.rounds) == 2


def test_m_league_rounds_30_fu_4_han_up_and_has_no_kazoe() -> None:
    assert base_points(4, 30, 0, TENHOU_HANCHAN) == (1920, "")
    assert base_points(4, 30, 0, MLEAGUE) == (2000, "mangan")
    assert base_points(13, 40, 0, MLEAGUE) == (6000, "sanbaiman")


# ---------------------------------------------------------------- WRC


def _tsuuiisou_daisangen(rules: RuleConfig) -> int:
    hand = parse("555z666z777z111z22z")
    ctx = WinContext(win_tile=hand[-1], tsumo=False, seat_wind=28, round_wind=27)
    result = score_hand(hand, [], ctx, rules)
    assert result is not None
    return result.ron


def test_wrc_pays_one_yakuman_at_most() -> None:
    assert _tsuuiisou_daisangen(TENHOU_HANCHAN) >= 3 * 32000
    assert _tsuuiisou_daisangen(WRC) == 32000


def test_wrc_makes_the_feeder_of_the_fourth_kan_liable_for_suukantsu() -> None:
    hands = ["777m444s777s55m66m", "111p222p333p444p9s", "888m111s222s55z66z", "888s555s666s44z77z"]
    kans: list[Script] = [(1, A.DAIMINKAN)] * 4
    script = [*kans, (1, A.TSUMO)]
    for rules, want in (
        (TENHOU_HANCHAN, (-16000, 32000, -8000, -8000)),
        (WRC, (0, 32000, -32000, 0)),
    ):
        wall = make_wall(hands, draws="1p2p3p4p", rinshan="1z2z3z9s", rules=rules)
        game, center = play([wall], script, rules=rules)
        win = events(center, "Agari")[0].wins[0]
        assert "suukantsu" in {y.name for y in win.result.yaku}
        assert game.rounds[0].deltas == want


def test_wrc_counts_renhou_as_five_han() -> None:
    hands = [QUIET[0], "234m345p456s2288s", "567m567p345s66z77z", "888m111p999s44z66z"]
    for rules, haneman in ((TENHOU_HANCHAN, False), (WRC, True)):
        game, _ = play(
            [make_wall(hands, draws="8s", dora="1z", rules=rules)], [(1, A.RON)], rules=rules
        )
        assert (game.rounds[0].deltas[1] == 12000) == haneman


def test_wrc_confiscates_the_sticks_left_at_the_end() -> None:
    start = RoundStart(7, 0, 2, (40000, 25000, 26000, 27000))
    _, center = play([make_wall(NOTEN)], start=start, max_rounds=None, rules=WRC)
    end = events(center, "GameEnded")[0]
    assert end.scores == (40000, 25000, 26000, 27000)
    assert end.points == (25.0, -20.0, -9.0, 2.0)


def test_wrc_plays_without_red_fives() -> None:
    assert not WRC.red and TENHOU_HANCHAN.red


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_whole_matches_keeping_the_invariants(name: str) -> None:
    rules = PRESETS[name]
    bots = BotCenter()
    for game in (new_game(rules, 1, RandomCenter(1)), new_game(rules, 2, bots)):
        bots.game = game
        game.bus.subscribe(EventBase, check_invariants, late(AFTER))
        run_sync(game)
        assert game.over and game.rounds
