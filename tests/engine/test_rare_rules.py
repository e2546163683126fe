"""Rarer table situations: four kans, nagashi mangan, riichi furiten, tenhou
(kokushi robbing an ankan and keishiki tenpai: test_rule_fixes)."""

from __future__ import annotations

from engine.actions import ActionType as A
from engine.rules.tiles import NUM_TILES, YAOCHUU
from engine.rules.wall import Wall
from tests.engine.table import events, make_wall, play

FURITEN_HAND = "555z234m456p23s99s"  # haku, waiting on 1s-4s


def test_four_kans_by_two_players_abort_after_the_next_discard() -> None:
    wall = make_wall(
        ["1111z2222z123m45m", "3333z4444z678p99p", "123p456p789p11s22s", "456s789s55m66m7m88m"],
        draws="9m9s",
    )
    script = [(0, A.ANKAN, "1111z"), (0, A.ANKAN, "2222z")]
    script += [(1, A.ANKAN, "3333z"), (1, A.ANKAN, "4444z")]
    game, center = play([wall], script)
    assert game.rounds[0].kind == "suukaikan"
    assert len(game.rounds[0].dora_indicators) == 5
    names = [type(e).__name__ for e in center.seen(None)]
    assert names[-2:] == ["Discard", "Ryuukyoku"]


def test_nagashi_mangan_is_paid_as_a_mangan_tsumo() -> None:
    yao = [t for t in range(NUM_TILES) if t >> 2 in YAOCHUU]
    simple = [t for t in range(NUM_TILES) if t >> 2 not in YAOCHUU]
    draws = [yao.pop() if i % 4 == 0 else simple.pop() for i in range(70)]
    seat0 = [simple.pop() for _ in range(13)]
    dead = [simple.pop() for _ in range(14)]
    others = yao + simple
    live = seat0 + others[:39] + draws
    wall = Wall(live, dead[:4], dead[4:9], dead[9:])
    game, _ = play([wall])
    result = game.rounds[0]
    assert result.kind == "nagashi"
    assert result.deltas == (12000, -4000, -4000, -4000)


def test_a_riichi_player_who_lets_a_win_go_stays_furiten() -> None:
    hands = ["777m444p777s22z33z", FURITEN_HAND, "111m999p888s1p2p3p8p", "888m111p222s44z66z"]
    wall = make_wall(hands, draws="1z2z4s6z6z3z1s", dora="9m")
    _, center = play([wall], [(1, A.RIICHI, "2z")])
    offered = {
        q.id
        for q in center.inquiries
        if q.kind == "claim" and 1 in q.players and q.players[1].find(A.RON) >= 0
    }
    ron_on = []
    for q, moment in zip(center.inquiries, center.moments, strict=True):
        if q.id in offered:
            ron_on.append(
                sum(1 for s, e in center.events[:moment] if s is None and e.name == "Discard")
            )
    assert ron_on[0] == 3  # the 4s it let go
    assert 7 not in ron_on  # the 1s after its own next discard: still furiten


def test_a_complete_dealer_hand_on_the_first_draw_is_tenhou() -> None:
    wall = make_wall(
        ["123m456p789s11z22z", "777m444p777s33z55z", "888m111p222s44z66z", "999m222p333s77z66p"],
        draws="2z",
    )
    game, center = play([wall], [(0, A.TSUMO)])
    win = events(center, "Agari")[0].wins[0]
    assert "tenhou" in {y.name for y in win.result.yaku}
    assert game.rounds[0].deltas == (48000, -16000, -16000, -16000)


def test_first_turn_riichi_then_tsumo_is_double_riichi_ippatsu_menzen_tsumo() -> None:
    wall = make_wall(
        ["123m456p789s11z23s", "777m444p777s22z33z", "888m111p222s44z66z", "999m222p333s55z66p"],
        draws="7z" + "6z6z7z" + "4s",
        dora="9p",
    )
    game, center = play([wall], [(0, A.RIICHI, "7z"), (0, A.TSUMO)])
    win = events(center, "Agari")[0].wins[0]
    names = {y.name for y in win.result.yaku}
    assert {"double_riichi", "ippatsu", "menzen_tsumo"} <= names and "riichi" not in names
    assert game.kyotaku == 0 and game.rounds[0].deltas[0] > 0


def test_a_call_breaks_ippatsu() -> None:
    wall = make_wall(
        ["123m456p789s11z23s", "777m444p777s22z33z", "888m111p222s44z66z", "999m222p333s55z66p"],
        draws="7z" + "6z" + "7z" + "4s",
        dora="9p",
    )
    _, center = play([wall], [(0, A.RIICHI, "7z"), (2, A.PON), (0, A.TSUMO)])
    assert events(center, "Call")[0].seat == 2
    names = {y.name for y in events(center, "Agari")[0].wins[0].result.yaku}
    assert "double_riichi" in names and "ippatsu" not in names


NOTEN = ["1357m1357p1357s1z", "2468m2468p2468s4z", "1399m1399p1399s6z"]


def test_an_exhaustive_draw_pays_tenpai_and_keeps_a_tenpai_dealer() -> None:
    walls = [make_wall(["777m444p777s22z33z", *NOTEN]) for _ in range(2)]
    game, _ = play(walls, max_rounds=2)
    assert game.rounds[0].kind == "exhaustive" and game.rounds[0].tenpai == (0,)
    assert game.rounds[0].deltas == (3000, -1000, -1000, -1000)
    assert (game.rounds[1].kyoku, game.rounds[1].honba) == (0, 1)


def test_the_last_tile_wins_by_haitei_and_its_discard_by_houtei() -> None:
    hands = ["777m444p777s22z33z", "123m456p789s123p5z", "123m456s789p123s6z", "55z66z999m"]
    hands[3] += "999p9s11s"
    haitei = make_wall(hands, last="5z")
    _, center = play([haitei], [(1, A.TSUMO)])
    assert "haitei" in {y.name for y in events(center, "Agari")[0].wins[0].result.yaku}
    houtei = make_wall(hands, last="6z")
    _, center = play([houtei], [(2, A.RON)])
    win = events(center, "Agari")[0].wins[0]
    assert [y.name for y in win.result.yaku if y.name != "dora"] == ["houtei"]
    assert win.from_seat == 1


def test_an_open_kan_dora_turns_right_before_the_next_kan() -> None:
    wall = make_wall(
        ["777m444p777s22z11z", "555m3333z123p45s9p", "888m111p222s44z66z", "999m222p333s55z66p"],
        draws="0m",
    )
    game, center = play([wall], [(1, A.DAIMINKAN), (1, A.ANKAN, "3333z")])
    names = [type(e).__name__ for e in center.seen(None)]
    kan = names.index("Kan")
    assert names[names.index("Call") + 1] == "Draw"
    assert names[kan + 1 : kan + 4] == ["DoraRevealed", "DoraRevealed", "Draw"]
    assert len(game.rounds[0].dora_indicators) == 3


def test_a_rinshan_draw_of_the_last_tile_is_rinshan_not_haitei() -> None:
    hands = [
        "111z234m567p23s99s",
        "111s444s789m22z33z",
        "1s333p666p888p77z9p",
        "456m789p999m55z66z",
    ]
    wall = make_wall(hands, rinshan="4s", last="1z5z")
    _, center = play([wall], [(0, A.ANKAN, "1111z"), (0, A.TSUMO)])
    names = {y.name for y in events(center, "Agari")[0].wins[0].result.yaku}
    assert "rinshan" in names and "haitei" not in names
