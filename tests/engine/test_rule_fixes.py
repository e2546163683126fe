"""The rule bugs of issue 12, each at the table: renhou, tenpai-yame, kokushi robbing an
ankan, keishiki tenpai, furiten after a passed ankan rob, pao switched off, export."""

from __future__ import annotations

from engine.actions import ActionType as A
from engine.centers import Script
from engine.game import RoundStart
from engine.replay.export import to_tenhou
from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.wall import Wall
from tests.engine.table import PAO_QUIET, events, make_wall, pao_dragon_script, play

QUIET = ["777m444p777s22z33z", "888m111p222s44z66z"]
NOTEN = ["1357m1357p1357s1z", "2468m2468p2468s4z", "1399m1399p1399s6z"]


def test_a_ron_before_the_first_draw_is_renhou_when_the_rule_has_it() -> None:
    hands = [QUIET[0], "234m345p456s2288s", "567m567p345s66z77z", "888m111p999s44z66z"]
    plain, _ = play([make_wall(hands, draws="8s", dora="1z")], [(1, A.RON)])
    with_renhou, center = play(
        [make_wall(hands, draws="8s", dora="1z")], [(1, A.RON)], rules=RuleConfig(renhou=True)
    )
    names = {y.name for y in events(center, "Agari")[0].wins[0].result.yaku}
    assert names == {"renhou", "tanyao"}
    assert with_renhou.rounds[0].deltas == (-12000, 12000, 0, 0)  # 6 han: haneman
    assert plain.rounds[0].deltas[1] < 12000
    assert "renhou" not in {y.name for y in plain.rounds[0].wins[0].result.yaku}


def test_no_renhou_after_a_call() -> None:
    # seat 2 pons the dealer's first discard (chun), so seat 1 never draws before it rons
    # the dealer's second discard
    hands = [QUIET[0], "234m345p456s2288s", "567m567p345s66z77z", "888m111p999s44z66z"]
    wall = make_wall(hands, draws="7z1z8s", dora="1z")
    script: list[Script] = [(2, A.PON), (2, A.DISCARD, "6z"), (1, A.RON)]
    _, center = play([wall], script, rules=RuleConfig(renhou=True))
    assert events(center, "Call")
    win = events(center, "Agari")[0].wins[0]
    assert win.seat == 1 and {y.name for y in win.result.yaku} == {"tanyao"}


def _last_dealer_tenpai_walls() -> list[Wall]:
    hands = [NOTEN[0], NOTEN[1], NOTEN[2], "777m444p777s22z33z"]
    return [make_wall(hands, dealer=3) for _ in range(2)]


def test_tenhou_ends_the_match_when_the_top_last_dealer_is_tenpai_at_the_draw() -> None:
    start = RoundStart(7, 0, 0, (20000, 20000, 25000, 35000))
    game, center = play(_last_dealer_tenpai_walls(), start=start, max_rounds=None)
    assert game.rounds[0].kind == "exhaustive" and game.rounds[0].tenpai == (3,)
    assert game.over and len(game.rounds) == 1
    assert events(center, "GameEnded")[0].scores[3] == 38000


def test_without_tenpai_yame_the_tenpai_dealer_plays_on() -> None:
    start = RoundStart(7, 0, 0, (20000, 20000, 25000, 35000))
    rules = RuleConfig(tenpaiyame=False)
    game, _ = play(_last_dealer_tenpai_walls(), start=start, max_rounds=2, rules=rules)
    assert [(r.kyoku, r.honba) for r in game.rounds] == [(7, 0), (7, 1)]
    assert not game.over


KOKUSHI_ANKAN = [
    "1111z234m567p23s6s",
    "119m19p19s234567z",
    "234p678p345s678m5m",
    "456m456s78p33m44m9p",
]


def test_tenhou_kokushi_does_not_rob_a_closed_kan() -> None:
    assert not TENHOU_HANCHAN.kokushi_chankan_ankan
    wall = make_wall(KOKUSHI_ANKAN, draws="8s")
    _, center = play([wall], [(0, A.ANKAN, "1111z"), (1, A.RON)])
    assert not [q for q in center.inquiries if q.kind == "chankan"]
    assert not events(center, "Agari") and events(center, "Kan")


def test_kokushi_robs_an_ankan_of_its_wait_where_the_rule_allows_it() -> None:
    wall = make_wall(KOKUSHI_ANKAN, draws="8s")
    rules = RuleConfig(kokushi_chankan_ankan=True)
    game, center = play([wall], [(0, A.ANKAN, "1111z"), (1, A.RON)], rules=rules)
    agari = events(center, "Agari")[0]
    assert agari.chankan and agari.wins[0].result.yakuman == 1
    assert game.rounds[0].deltas == (-32000, 32000, 0, 0)


def test_only_the_kokushi_offered_a_closed_kan_becomes_furiten_by_passing_it() -> None:
    # seat 0 ankans 1m; seat 1 (kokushi on 1m) may rob it and passes; seat 2 waits on
    # 1m-4m but was never offered the ron: it still rons seat 0's 4m right after
    hands = ["1111m4m777p888p99p", "99m19p19s1234567z", "23m345p456s678s55p", "456m456s78p33m44m9p"]
    wall = make_wall(hands, draws="5z", rinshan="9s")
    rules = RuleConfig(kokushi_chankan_ankan=True)
    script: list[Script] = [(0, A.ANKAN, "1111m"), (1, A.SKIP), (0, A.DISCARD, "4m"), (2, A.RON)]
    game, center = play([wall], script, rules=rules)
    robs = [q for q in center.inquiries if q.kind == "chankan"]
    assert [sorted(q.players) for q in robs] == [[1]]
    agari = events(center, "Agari")[0]
    assert agari.winners == (2,) and agari.from_seat == 0
    assert game.players[1].furiten_temp


def test_a_pon_of_the_kind_plus_its_tanki_is_keishiki_tenpai() -> None:
    wall = make_wall(
        ["777m444p777s22z33z", "555m123p456p789p1z", "234s567s88s99s11m3m", "888m111p222s44z66z"],
        draws="0m",
    )
    game, _ = play([wall], [(1, A.PON, "55m"), (1, A.DISCARD, "1z")])
    assert game.rounds[0].kind == "exhaustive"
    assert game.rounds[0].tenpai == (0, 1, 3)
    assert game.rounds[0].deltas == (1000, 1000, -3000, 1000)


def test_four_concealed_copies_of_the_only_wait_are_noten() -> None:
    wall = make_wall(["777m444p777s22z33z", "1111m567p789p789s", NOTEN[1], QUIET[1]])
    game, _ = play([wall])
    assert game.rounds[0].tenpai == (0, 3)


def test_without_pao_no_liable_seat_is_recorded_or_exported() -> None:
    wall = make_wall(
        [PAO_QUIET[0], "55z66z77z123m9s1s2s3s", PAO_QUIET[1], PAO_QUIET[2]],
        draws="5z6z7z1z1z1z9s",
    )
    game, center = play([wall], pao_dragon_script(A.TSUMO), rules=RuleConfig(pao=False))
    win = events(center, "Agari")[0].wins[0]
    assert win.pao_seat == -1
    assert game.rounds[0].deltas == (-16000, 32000, -8000, -8000)
    info = to_tenhou(game)["log"][0][16][2]
    assert info[:3] == [1, 1, 1]  # who, from, pao == who: no liable seat


def test_export_replays_a_game_whose_walls_hand_out_one_wall_object() -> None:
    wall = make_wall(
        [QUIET[0], "234m345p456s1199s", "55z123m678p345s99p", QUIET[1]], draws="1z5z", dora="8s"
    )
    game, _ = play([wall], [(1, A.DISCARD, "5z"), (2, A.RON)])
    assert game.rounds[0].kind == "agari"
    log = to_tenhou(game)["log"]
    assert len(log) == 1 and log[0][16][0] == "和了"
    assert log[0][16][1] == list(game.rounds[0].deltas)
