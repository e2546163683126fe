"""Issue 32's two kita bugs, each as a scenario and as the real round's shape in a Tenhou
log built here: a ron on a kita'd North keeps ippatsu (the robbed kita never completes, as a
robbed kakan does), and a kita turns a pending open-kan dora as a discard would."""

from __future__ import annotations

from typing import Any

from engine.actions import ActionType as A
from engine.centers import Script
from engine.game import RoundStart
from engine.replay.check import check_game
from engine.replay.tenhou_read import read_game
from engine.rules.config import TENHOU_SANMA_HANCHAN
from tests.engine.table import events, make_wall, play

SANMA = TENHOU_SANMA_HANCHAN
START = RoundStart(0, 0, 0, (35000,) * 3)


def test_a_ron_on_a_kita_in_the_ippatsu_window_keeps_ippatsu() -> None:
    hands = ["111s999s678p22z66z", "11m99m22p05p77s33z4z", "111p999p345s666s5z"]
    wall = make_wall(hands, draws="1p9p2s8s1s4z", dora="7z", rules=SANMA)
    script: list[Script] = [(1, A.DISCARD, "9p"), (1, A.RIICHI, "1s"), (2, A.KITA), (1, A.RON)]
    game, center = play([wall], script, rules=SANMA, start=START)
    agari = events(center, "Agari")[0]
    assert agari.winners == (1,) and agari.from_seat == 2 and agari.tile >> 2 == 30
    result = agari.wins[0].result
    names = {y.name for y in result.yaku if y.han}
    assert {"riichi", "ippatsu", "chiitoitsu", "aka"} <= names
    assert result.han == 5 + result.ura and result.limit == "mangan"
    assert game.rounds[0].deltas == (0, 8000 + 1000, -8000)


def test_a_kita_nobody_robs_still_ends_ippatsu() -> None:
    hands = ["111s999s678p22z66z", "11m99m22p05p77s33z1z", "111p999p345s666s5z"]
    wall = make_wall(hands, draws="1p9p2s8s1s4z7p1z", dora="7z", rules=SANMA)
    script: list[Script] = [(1, A.DISCARD, "9p"), (1, A.RIICHI, "1s"), (2, A.KITA), (1, A.TSUMO)]
    _game, center = play([wall], script, rules=SANMA, start=START)
    result = events(center, "Agari")[0].wins[0].result
    names = {y.name for y in result.yaku if y.han}
    assert "ippatsu" not in names and {"riichi", "menzen_tsumo", "chiitoitsu"} <= names


KAKAN_HANDS = [
    "66p123s345s789s1z9m",
    "1m9m1p3p5p7p1s3s5s7s2z3z5z",
    "2p4p8p8p2s4s6s8s2z6z7z9s1m",
]
KAKAN_SCRIPT: list[Script] = [
    (0, A.PON),
    (0, A.DISCARD, "9m"),
    (0, A.KAKAN),
    (0, A.KITA),
    (0, A.TSUMO),
]


def test_a_kita_turns_the_pending_open_kan_dora_at_once() -> None:
    wall = make_wall(KAKAN_HANDS, draws="8p9p6p7z3z6p", rinshan="4z1z", dora="7z5p", rules=SANMA)
    game, center = play([wall], KAKAN_SCRIPT, rules=SANMA, start=START)
    names = [type(e).__name__ for e in center.seen(None)]
    kita = names.index("Kita")
    assert names[kita + 1] == "DoraRevealed" and "DoraRevealed" not in names[:kita]
    result = events(center, "Agari")[0].wins[0].result
    assert [t >> 2 for t in game.round.dora_indicators] == [33, 13]  # chun, then 5p
    assert result.dora == 4 and result.kita == 1 and result.limit == "haneman"
    assert game.rounds[0].deltas == (12000, -6000, -6000)


# ---------------------------------------------------------------- the real rounds' shape


def _log(round_: list[Any]) -> dict[str, Any]:
    return {
        "ver": 2.3,
        "ref": "",
        "rule": {"disp": "三鳳南喰赤", "aka": 1},
        "log": [round_],
        "name": ["A", "B", "C", ""],
    }


def _sanma_round(
    dora: list[int], ura: list[int], seats: list[list[Any]], result: list[Any]
) -> list[Any]:
    body = [part for seat in seats for part in seat]
    return [[0, 0, 0], [35000, 35000, 35000, 0], dora, ura, *body, [], [], [], result]


def test_the_logged_ron_on_a_kita_pays_ippatsu() -> None:
    """Riichi (tsumogiri), the next seat pulls a North as kita, the riichi seat rons it:
    riichi, ippatsu, chiitoitsu, aka 1 = mangan 8,000 (the engine paid 6,400 before)."""
    seats: list[list[Any]] = [
        [[31, 31, 31, 39, 39, 39, 26, 27, 28, 42, 42, 46, 46], [21, 38], [60, 60]],
        [[11, 11, 19, 19, 22, 22, 25, 52, 37, 37, 43, 43, 44], [29, 31], [60, "r60"]],
        [[21, 21, 21, 29, 29, 29, 33, 34, 35, 36, 36, 36, 45], [32, 44], [60, "f44"]],
    ]
    win = [1, 2, 1, "満貫8000点", "立直(1飜)", "一発(1飜)", "七対子(2飜)", "赤ドラ(1飜)"]
    log = _log(_sanma_round([47], [41], seats, ["和了", [0, 9000, -8000, 0], win]))
    verdicts = check_game(read_game(log))
    assert [v.reason for v in verdicts] == [None]
    no_ippatsu = [*win[:3], "30符4飜7700点", *win[4:5], *win[6:]]
    log["log"][0][-1] = ["和了", [0, 8700, -7700, 0], no_ippatsu]
    assert check_game(read_game(log))[0].reason is not None


def test_the_logged_kita_after_a_kakan_shows_the_kan_dora() -> None:
    """Pon, kakan, the replacement is a North pulled as kita, the next replacement wins:
    the kakan's indicator (5p: four 6p dora) is turned by the kita, so the rinshan kaihou
    is a dealer haneman."""
    seats: list[list[Any]] = [
        [
            [19, 26, 26, 31, 32, 33, 33, 34, 35, 37, 38, 39, 41],
            [28, "26p2626", 26, 44, 41],
            [60, 19, "26k262626", "f44"],
        ],
        [[11, 19, 21, 23, 25, 27, 31, 33, 35, 37, 42, 43, 45], [29, 47], [60, 60]],
        [[11, 22, 24, 28, 28, 32, 34, 36, 38, 39, 42, 46, 47], [26, 43], [60, 60]],
    ]
    win = [0, 0, 0, "跳満6000点∀", "嶺上開花(1飜)", "ドラ(5飜)"]
    log = _log(_sanma_round([47, 25], [], seats, ["和了", [12000, -6000, -6000, 0], win]))
    assert [v.reason for v in check_game(read_game(log))] == [None]
