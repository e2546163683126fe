"""Table scripts: set hands, wall and dora, script the answers, check events and points."""

from __future__ import annotations

from engine.actions import ActionType as A
from engine.centers import Script, ScriptedCenter
from engine.game import RoundStart
from engine.rules.config import RuleConfig
from engine.rules.tiles import kind_to_str
from engine.rules.wall import Wall
from tests.engine.table import PAO_QUIET, events, make_wall, pao_dragon_script, play

QUIET = ["777m444p777s22z33z", "888m111p222s44z66z"]


def test_ron_on_the_riichi_declaration_tile_leaves_no_stick() -> None:
    wall = make_wall(
        [QUIET[0], "234m345p456s1199s", "55z123m678p345s99p", QUIET[1]], draws="1z5z", dora="8s"
    )
    game, center = play([wall], [(1, A.RIICHI, "5z"), (2, A.RON)])
    result = game.rounds[0]
    assert result.kind == "agari"
    assert result.deltas == (0, -1300, 1300, 0)
    assert game.kyotaku == 0
    assert not events(center, "RiichiAccepted")


def test_double_ron_gives_honba_and_sticks_to_the_first_winner_only() -> None:
    wall = make_wall(
        ["111z222z333z444z6z", "234m456p456s678s3s", "999m111p999p111s9s", "234p567p345m678m3s"],
        draws="3s",
        dora="9m",
    )
    start = RoundStart(0, 2, 1, (25000, 25000, 25000, 24000))
    game, center = play([wall], [(1, A.RON), (3, A.RON)], start=start)
    agari = events(center, "Agari")[0]
    assert agari.winners == (1, 3)
    assert game.rounds[0].deltas == (-3200, 1300 + 600 + 1000, 0, 1300)


def test_kakan_is_robbed_by_chankan_and_its_dora_never_turns() -> None:
    wall = make_wall(
        ["111m999m111p999p1s", "66p123m789m111s5z9s", "234m345s678s57p22s", "111z222z333z777z9s"],
        draws="6p" + "2z3z4z" + "6p",
        dora="7z",
    )
    script: list[Script] = [(1, A.PON), (2, A.SKIP), (1, A.KAKAN, "6p"), (2, A.RON)]
    game, center = play([wall], script)
    agari = events(center, "Agari")[0]
    assert agari.chankan and agari.winners == (2,)
    assert {y.name for y in agari.wins[0].result.yaku} >= {"chankan", "tanyao"}
    assert game.rounds[0].deltas == (0, -2600, 2600, 0)
    assert not events(center, "DoraRevealed")


def test_chii_forbids_discarding_the_called_kind_and_its_suji() -> None:
    wall = make_wall(
        [QUIET[0], "3456m555p666s777z", "11m99m22p99p11s99s3z", QUIET[1]], draws="3m", dora="1z"
    )
    _game, center = play([wall], [(1, A.CHII, "45m")])
    after_call = next(q for q in center.inquiries if q.kind == "turn" and 1 in q.players)
    kinds = {o.tiles[0] >> 2 for o in after_call.players[1].actions[0].options}
    assert {kind_to_str(k) for k in kinds} == {"5p", "6s", "7z"}


FURITEN_HAND = "555z234m456p23s99s"  # haku, waiting on 1s-4s


def _ron_offers(center: ScriptedCenter, seat: int) -> list[int]:
    """The id of every claim inquiry that offered ``seat`` a ron."""
    out = []
    for q in center.inquiries:
        if q.kind == "claim" and seat in q.players and q.players[seat].find(A.RON) >= 0:
            out.append(q.id)
    return out


def test_own_discard_of_a_wait_is_furiten() -> None:
    hands = [QUIET[0], FURITEN_HAND, "111m999p888s1p2p3p8p", QUIET[1]]
    furiten = make_wall(hands, draws="1z1s2z3z4s", dora="9m")
    clean = make_wall(hands, draws="1z6z2z3z4s", dora="9m")
    _, center = play([furiten])
    blocked = _ron_offers(center, 1)
    _, center = play([clean])
    offered = _ron_offers(center, 1)
    assert offered and offered[0] not in blocked  # seat 0's 4s: a ron only when clean


def test_passing_a_win_is_furiten_until_the_own_next_discard() -> None:
    hands = [QUIET[0], FURITEN_HAND, "111m999p888s1p2p3p8p", QUIET[1]]
    # seat 2 drops 4s (passed), seat 3 and seat 0 drop 1s (temporary furiten), seat 1
    # discards, then seat 2's second 4s is offered again
    wall = make_wall(hands, draws="1z2z4s1s1s3z4s", dora="9m")
    _, center = play([wall])
    discards = [e for e in center.seen(None) if type(e).__name__ == "Discard"]
    tiles = [kind_to_str(d.tile >> 2) for d in discards[:7]]
    assert tiles == ["1z", "2z", "4s", "1s", "1s", "3z", "4s"]
    offered = set(_ron_offers(center, 1))
    ron_on: list[int] = []
    for q, moment in zip(center.inquiries, center.moments, strict=True):
        if q.id in offered:
            last = [e for s, e in center.events[:moment] if s is None and e.name == "Discard"]
            ron_on.append(len(last))
    assert ron_on[:2] == [3, 7]  # not on the 1s of discards 4 and 5


def test_kyuushu_kyuuhai_aborts_and_the_dealer_stays() -> None:
    wall = make_wall(
        ["19m19p19s1234z234m", QUIET[1], "234m345p456s678s5z", "567p678s567m234s8p"], dora="2p"
    )
    game, _center = play([wall, wall_again()], [(0, A.KYUUSHU)], max_rounds=2)
    assert game.rounds[0].kind == "kyuushu" and game.rounds[0].deltas == (0, 0, 0, 0)
    assert game.rounds[1].kyoku == 0 and game.rounds[1].honba == 1


def wall_again() -> Wall:
    return make_wall(
        ["1357m1357p1357s1z", "2468m2468p2468s2z", "1357m1357p1357s3z", "2468m2468p2468s4z"]
    )


def test_four_same_winds_on_the_first_turn_abort() -> None:
    wall = make_wall(
        ["2345m2345p2345s6s", "6789m6789p6789s5z", "234m345p456s678s7z", "567p567m111p99p6z3z"],
        draws="1z1z1z1z",
    )
    game, _ = play([wall])
    assert game.rounds[0].kind == "suufon_renda"


def test_four_riichi_abort_after_the_fourth_stick_is_down() -> None:
    wall = make_wall(
        ["123m456m789m123p5p", "123s456s789s234p6p", "567m567p567s888p4z", "444m444s333z66z77z"],
        draws="1z2z3z1m",
    )
    script = [(0, A.RIICHI, "1z"), (1, A.RIICHI, "2z"), (2, A.RIICHI, "3z"), (3, A.RIICHI, "1m")]
    game, _ = play([wall], script)
    assert game.rounds[0].kind == "suucha_riichi"
    assert game.kyotaku == 4 and game.scores == (24000,) * 4


def test_three_rons_on_one_discard_abort() -> None:
    wall = make_wall(
        ["111z222z333z444z6z", "234m678m234s678s5p", "345m345s678p666p5p", "456m456s234p222m5p"],
        draws="0p",
    )
    game, center = play([wall], [(1, A.RON), (2, A.RON), (3, A.RON)])
    assert game.rounds[0].kind == "sanchahou"
    assert not events(center, "Agari")


def test_feeding_the_third_dragon_pays_the_whole_daisangen_tsumo() -> None:
    wall = make_wall(
        [PAO_QUIET[0], "55z66z77z123m9s1s2s3s", PAO_QUIET[1], PAO_QUIET[2]],
        draws="5z6z7z1z1z1z9s",
    )
    script = pao_dragon_script(A.TSUMO)
    game, center = play([wall], script)
    win = events(center, "Agari")[0].wins[0]
    assert win.pao_seat == 2 and win.result.yakuman == 1
    assert game.rounds[0].deltas == (0, 32000, -32000, 0)


def test_a_daiminkan_dora_turns_after_the_discard_and_an_ankan_dora_at_once() -> None:
    wall = make_wall(
        ["1111z234m567p23s6z", "550m123p789p456s7z", "222z234s678s999m9p", "888m111p999s44z66z"],
        draws="6m",
        rinshan="5m",
    )
    _, center = play([wall], [(0, A.ANKAN, "1111z"), (1, A.DAIMINKAN)])
    names = [type(e).__name__ for e in center.seen(None)]
    kan = names.index("Kan")
    assert names[kan + 1] == "DoraRevealed" and names[kan + 2] == "Draw"
    call = names.index("Call")
    assert names[call + 1 : call + 4] == ["Draw", "Discard", "DoraRevealed"]


def test_a_score_below_zero_ends_the_match() -> None:
    wall = make_wall(
        [QUIET[0], "234m345p456s1199s", "55z123m678p345s99p", QUIET[1]], draws="1z5z", dora="8s"
    )
    start = RoundStart(0, 0, 0, (25000, 1000, 49000, 25000))
    game, center = play([wall], [(1, A.DISCARD, "5z"), (2, A.RON)], start=start, max_rounds=None)
    assert game.over and len(game.rounds) == 1
    assert game.scores[1] == -300
    assert events(center, "GameEnded")[0].ranks[1] == 4


def test_all_last_dealer_win_as_top_ends_the_match() -> None:
    hands = [QUIET[1], QUIET[0], "234m345p456s1199s", "55z123m678p345s99p"]
    wall = make_wall(hands, draws="2z1z" + "1z5z", dora="8s", dealer=3)
    start = RoundStart(7, 0, 0, (20000, 20000, 25000, 35000))
    game, _ = play([wall, wall], [(2, A.DISCARD, "5z"), (3, A.RON)], start=start, max_rounds=None)
    assert game.over and len(game.rounds) == 1 and game.rounds[0].deltas[3] == 2000


def test_nobody_at_thirty_thousand_after_south_four_plays_west() -> None:
    start = RoundStart(7, 0, 0, (25000,) * 4)
    game, _ = play([wall_again(), wall_again()], start=start, max_rounds=2)
    assert [r.kyoku for r in game.rounds] == [7, 8]
    assert not game.over


def test_somebody_at_thirty_thousand_after_south_four_ends_the_match() -> None:
    start = RoundStart(7, 0, 0, (31000, 23000, 23000, 23000))
    game, _ = play([wall_again(), wall_again()], start=start, max_rounds=None)
    assert game.over and len(game.rounds) == 1


def test_a_ron_on_a_pao_daisangen_is_split_and_the_feeder_pays_the_honba() -> None:
    wall = make_wall(
        [PAO_QUIET[0], "55z66z77z123m9s1s2s3s", PAO_QUIET[1], PAO_QUIET[2]],
        draws="5z6z7z1z9s",
    )
    script = pao_dragon_script(A.RON)
    start = RoundStart(0, 1, 0, (25000,) * 4)
    game, _ = play([wall], script, start=start)
    assert game.rounds[0].deltas == (0, 32300, -16300, -16000)


def test_sticks_left_at_the_end_go_to_the_top_with_uma_and_oka() -> None:
    start = RoundStart(7, 0, 2, (35000, 20000, 21000, 22000))
    _, center = play([wall_again()], start=start, max_rounds=None)
    end = events(center, "GameEnded")[0]
    assert end.scores == (37000, 20000, 21000, 22000)
    assert end.ranks == (1, 4, 3, 2)
    assert end.points == (47.0, -30.0, -19.0, 2.0)


def test_without_double_ron_the_first_in_turn_order_takes_the_win() -> None:
    wall = make_wall(
        ["111z222z333z444z6z", "234m456p456s678s3s", "999m111p999p111s9s", "234p567p345m678m3s"],
        draws="3s",
        dora="9m",
    )
    rules = RuleConfig(double_ron=False)
    game, center = play([wall], [(1, A.RON), (3, A.RON)], rules=rules)
    assert events(center, "Agari")[0].winners == (1,)
    assert game.rounds[0].deltas == (-1300, 1300, 0, 0)
