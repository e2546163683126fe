"""Mahjong Soul's ranked sanma preset and M-League's tenpai declaration at the table, and a
check that every RuleConfig switch is read by the engine and exercised by some scenario
(docs/rules.md lists the presets with sources)."""

from __future__ import annotations

from engine.actions import ActionType as A
from engine.centers import Script
from engine.game import RoundStart
from engine.rules.config import (
    LABELS,
    MAHJONGSOUL_SANMA,
    PRESETS,
    TENHOU_SANMA_HANCHAN,
    RuleConfig,
)
from engine.rules.scoring.points import placement_points
from tests.engine.table import events, make_wall, play

MS3 = MAHJONGSOUL_SANMA
T3 = TENHOU_SANMA_HANCHAN
START3 = RoundStart(0, 0, 0, (35000,) * 3)
#: a sanma dealer hand waiting on 1z/5s with a North (4z) to set aside
NORTH_HAND = "123p456p789s1z4z55s"
QUIET3 = ("999m111p999p22z33z", "111m777s888s55z66z")

# ---------------------------------------------------------------- Mahjong Soul sanma


def test_the_lobby_offers_mahjong_soul_sanma() -> None:
    assert PRESETS["mahjongsoul-sanma"] is MS3
    assert LABELS["mahjongsoul-sanma"] == "Mahjong Soul 3p hanchan (雀魂三麻)"
    assert MS3.players == 3 and MS3.winds == 2
    assert (MS3.start_points, MS3.target_points) == (35000, 40000)


def test_mahjong_soul_sanma_tsumo_loses_the_north_share_and_pays_honba_100_each() -> None:
    # a dealer's rinshan tsumo on a kita replacement with one honba: 2000 + 100 from each
    wall = make_wall([NORTH_HAND, *QUIET3], draws="1z", rinshan="5s", dora="6z", rules=MS3)
    start = RoundStart(0, 1, 0, (35000,) * 3)
    game, _ = play([wall], [(0, A.KITA), (0, A.TSUMO)], rules=MS3, start=start)
    assert game.rounds[0].deltas == (4200, -2100, -2100)


def test_mahjong_soul_sanma_pays_noten_2000_in_all() -> None:
    hands = [QUIET3[0], "1m9m1p3p5p7p1s3s5s7s1z3z5z", "2p4p6p8p2s4s6s8s2z6z7z9s1m"]
    game, _ = play([make_wall(hands, rules=MS3)], rules=MS3, start=START3)
    assert game.rounds[0].tenpai == (0,) and game.rounds[0].deltas == (2000, -1000, -1000)


def test_mahjong_soul_sanma_uma_is_15_0_minus_15_exact() -> None:
    scores = (45300, 35000, 24700)
    assert placement_points(scores, T3) == (40.0, -5.0, -35.0)
    assert placement_points(scores, MS3) == (35.3, -5.0, -30.3)


def _kokushi_13_ron(rules: RuleConfig) -> tuple[int, ...]:
    hands = [QUIET3[0], "19m19p19s1234567z", "234p567p777s888s6s"]
    wall = make_wall(hands, draws="1m", rules=rules)
    game, _ = play([wall], [(1, A.RON)], rules=rules, start=START3)
    return game.rounds[0].deltas


def test_mahjong_soul_sanma_pays_a_13_sided_kokushi_as_double_yakuman() -> None:
    assert _kokushi_13_ron(T3) == (-32000, 32000, 0)
    assert _kokushi_13_ron(MS3) == (-64000, 64000, 0)


def test_mahjong_soul_sanma_kokushi_robs_a_closed_kan() -> None:
    hands = ["1111z123p567p23s6s", "119m19p19s234567z", "234p678p345s789s9s"]
    for rules, robbed in ((T3, False), (MS3, True)):
        wall = make_wall(hands, draws="8s", rules=rules)
        _, center = play([wall], [(0, A.ANKAN, "1111z"), (1, A.RON)], rules=rules, start=START3)
        agari = events(center, "Agari")
        assert bool(agari and agari[0].chankan) == robbed


def _ippatsu_after(kita: bool) -> bool:
    """The dealer riichis, seat 1 draws a North (and sets it aside if ``kita``), the dealer
    tsumos on the next draw."""
    wall = make_wall(["123p456p789s11z55s", *QUIET3], draws="7z4z2p5s", rinshan="8p", rules=MS3)
    script: list[Script] = [(0, A.RIICHI, "7z"), *([(1, A.KITA)] if kita else []), (0, A.TSUMO)]
    _, center = play([wall], script, rules=MS3, start=START3)
    assert len(events(center, "Kita")) == kita
    win = events(center, "Agari")[0].wins[0]
    return "ippatsu" in {y.name for y in win.result.yaku}


def test_mahjong_soul_sanma_kita_cancels_ippatsu() -> None:
    assert _ippatsu_after(kita=False)
    assert not _ippatsu_after(kita=True)


def _kyuushu_offered(kita: bool) -> bool:
    """Seat 1 holds eleven kinds of terminals and honours on its first draw; the dealer set
    a North aside before it (if ``kita``)."""
    hands = [NORTH_HAND, "19m19p19s12356z2p3p", "234p567p777s888s6s"]
    wall = make_wall(hands, draws="8p9s", rinshan="8p", rules=MS3)
    _, center = play([wall], [(0, A.KITA)] if kita else [], rules=MS3, start=START3)
    turns = [q for q in center.inquiries if q.kind == "turn" and 1 in q.players]
    return turns[0].players[1].find(A.KYUUSHU) >= 0


def test_mahjong_soul_sanma_kita_cancels_kyuushu() -> None:
    assert _kyuushu_offered(kita=False)
    assert not _kyuushu_offered(kita=True)


def test_mahjong_soul_sanma_has_no_three_riichi_abort() -> None:
    hands = ["123p456p789s11z55s", *QUIET3]
    wall = make_wall(hands, draws="7z7z7z", rules=MS3)
    script: list[Script] = [(0, A.RIICHI, "7z"), (1, A.RIICHI, "7z"), (2, A.RIICHI, "7z")]
    game, center = play([wall], script, rules=MS3, start=START3)
    assert len(events(center, "RiichiAccepted")) == 3
    assert game.rounds[0].kind == "exhaustive"


def test_mahjong_soul_sanma_north_can_be_ronned_without_chankan() -> None:
    hands = [NORTH_HAND, "555z666z123p789p4z", "111m777s888s22z33z"]
    wall = make_wall(hands, draws="7z", rules=MS3)
    _, center = play([wall], [(0, A.KITA), (1, A.RON)], rules=MS3, start=START3)
    agari = events(center, "Agari")[0]
    assert agari.winners == (1,) and not agari.chankan
    assert "chankan" not in {y.name for y in agari.wins[0].result.yaku}
