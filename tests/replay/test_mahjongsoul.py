"""Mahjong Soul exports (tenhou.net/6 JSON written by the Mahjong Soul converters) are read
under Mahjong Soul's rules and checked by meaning. Every record here is built by the test:
a scenario played by the engine, written as Tenhou JSON, then put in the converters' shape
(room label and title, Mahjong Soul's yaku names, the North dora apart, a draw without
payments written 流局, results cut to whole numbers)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from engine.actions import ActionType as A
from engine.centers import Script, ScriptedCenter
from engine.driver import run_sync
from engine.game import RoundStart, new_game
from engine.replay.check import check_game
from engine.replay.record import GameRecord
from engine.replay.recorder import Recorder
from engine.replay.tenhou_read import read_game
from engine.replay.tenhou_write import write_game
from engine.rules.config import (
    MAHJONGSOUL_HANCHAN,
    MAHJONGSOUL_SANMA,
    TENHOU_HANCHAN,
    RuleConfig,
)
from engine.rules.wall import Wall
from tests.engine.table import make_wall

QUIET = ("234p678p345s678m5m", "456m456s78p33m44m9p")
#: the dealer holds East three times and waits on 1s-4s; seat 1 (kokushi, waiting on East)
#: draws 4s and deals it in: 場風 東 + 自風 東, 40 fu, a dealer's 3,900
DOUBLE_EAST = ["111z234m567p23s99s", "119m19p19s234567z", *QUIET]
KOKUSHI_ANKAN = ["1111z234m567p23s6s", "119m19p19s234567z", *QUIET]


def _played(
    wall: Wall, script: list[Script], rules: RuleConfig, start: RoundStart | None = None
) -> dict[str, Any]:
    """One scripted hand, written as Tenhou JSON (Tenhou's names, as our exports write)."""
    recorder = Recorder(ScriptedCenter(script), rules.players)
    game = new_game(rules, 0, recorder, start=start, walls=lambda _i: wall, max_rounds=1)
    run_sync(game)
    record = GameRecord(rules=rules, rounds=tuple(recorder.rounds), final=recorder.final)
    return write_game(record)


def _soul(log: dict[str, Any], room: str, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The converters' shape: the room in rule.disp and title, no Tenhou ref or lobby, and
    each Tenhou yaku name replaced as ``names`` says (a converter's own words)."""
    out = copy.deepcopy(log)
    out["rule"]["disp"] = room
    out["title"] = [room, "Sat, 02 Aug 2025 10:00:00 GMT"]
    out["ref"] = "250802-00000000-0000-0000-0000-000000000000"
    for raw in out["log"]:
        result = raw[16]
        if result[0] != "和了":
            continue
        for info in result[2::2]:
            for i, text in enumerate(info[4:], start=4):
                name, han = text.rsplit("(", 1)
                info[i] = f"{(names or {}).get(name, name)}({han}"
    return out


def _reasons(log: dict[str, Any]) -> list[str | None]:
    return [v.reason for v in check_game(read_game(log))]


def _double_east() -> dict[str, Any]:
    wall = make_wall(DOUBLE_EAST, draws="9m4s")
    return _played(wall, [(0, A.RON)], MAHJONGSOUL_HANCHAN)


@pytest.mark.parametrize(
    ("room", "rules", "winds"),
    [
        ("玉の間南喰赤", MAHJONGSOUL_HANCHAN, 2),
        ("金の間四人東", MAHJONGSOUL_HANCHAN, 1),
        ("Jade Room East", MAHJONGSOUL_HANCHAN, 1),
        ("王座之间四人南", MAHJONGSOUL_HANCHAN, 2),
    ],
)
def test_the_room_label_picks_the_mahjong_soul_preset(
    room: str, rules: RuleConfig, winds: int
) -> None:
    record = read_game(_soul(_double_east(), room))
    assert record.source == "mahjongsoul"
    assert record.rules.winds == winds
    assert record.rules == type(rules)(**{**_fields(rules), "winds": winds})


def _fields(rules: RuleConfig) -> dict[str, Any]:
    return {f: getattr(rules, f) for f in rules.__struct_fields__}


def test_a_tenhou_label_stays_a_tenhou_log() -> None:
    record = read_game(_double_east())
    assert record.source == "tenhou" and record.rules.uma == TENHOU_HANCHAN.uma


@pytest.mark.parametrize(
    "names",
    [
        {"場風 東": "役牌:場風牌", "自風 東": "役牌:自風牌"},
        {"場風 東": "役牌:场风牌", "自風 東": "役牌:自风牌"},
        {"場風 東": "Prevalent Wind", "自風 東": "Seat Wind"},
    ],
)
def test_mahjong_soul_yaku_names_are_compared_by_meaning(names: dict[str, str]) -> None:
    log = _soul(_double_east(), "玉の間南喰赤", names)
    info = log["log"][0][16][2]
    assert info[3] == "40符2飜3900点" and set(names.values()) <= {
        y.rsplit("(", 1)[0] for y in info[4:]
    }
    assert _reasons(log) == [None]


def test_an_english_export_reads_its_score_texts_and_names() -> None:
    log = _soul(
        _double_east(), "Jade Room South", {"場風 東": "Prevalent Wind", "自風 東": "Seat Wind"}
    )
    log["log"][0][16][2][3] = "40Fu2Han3900点"
    assert _reasons(log) == [None]
    log["log"][0][16][2][3] = "40Fu3Han3900点"
    assert _reasons(log) == ["seat 0 win: 2 han, log 3"]
    wall = make_wall(KOKUSHI_ANKAN, draws="8s")
    played = _played(wall, [(0, A.ANKAN, "1111z"), (1, A.RON)], MAHJONGSOUL_HANCHAN)
    english = _soul(played, "Jade Room South", {"国士無双": "Thirteen Orphans"})
    english["log"][0][16][2][3] = "Yakuman 32000点"
    assert english["log"][0][16][2][4:] == ["Thirteen Orphans(役満)"]
    assert _reasons(english) == [None]


def test_a_yaku_name_of_another_meaning_still_fails() -> None:
    log = _soul(_double_east(), "玉の間南喰赤", {"場風 東": "役牌:白", "自風 東": "役牌:自風牌"})
    (reason,) = _reasons(log)
    assert reason is not None and "役牌 白" in reason and "場風 東" in reason


def test_the_north_dora_listed_apart_counts_as_dora() -> None:
    hands = ["123p456p789s1z4z55s", "999m111p999p22z33z", "111m777s888s55z66z"]
    wall = make_wall(hands, draws="1z", rinshan="5s", dora="6z", rules=MAHJONGSOUL_SANMA)
    played = _played(wall, [(0, A.KITA), (0, A.TSUMO)], MAHJONGSOUL_SANMA)
    log = _soul(played, "三玉の間南喰赤", {"ドラ": "抜きドラ"})
    assert "抜きドラ(1飜)" in log["log"][0][16][2]
    record = read_game(log)
    assert record.rules == MAHJONGSOUL_SANMA
    assert _reasons(log) == [None]
    log["log"][0][16][2].append("ドラ(1飜)")  # one dora more than the hand holds
    assert _reasons(log)[0] is not None


def test_a_draw_without_payments_is_all_tenpai_or_all_noten_and_the_checker_says_so() -> None:
    hands = ["123p456p789s11z55s", "999m111p999p22z33z", "111m777s888s55z66z"]
    wall = make_wall(hands, draws="7z7z7z", rules=MAHJONGSOUL_SANMA)
    script: list[Script] = [(0, A.RIICHI, "7z"), (1, A.RIICHI, "7z"), (2, A.RIICHI, "7z")]
    start = RoundStart(0, 0, 0, (35000,) * 3)
    log = _soul(_played(wall, script, MAHJONGSOUL_SANMA, start), "三銀の間東喰赤")
    assert log["log"][0][16] == ["全員聴牌"]
    log["log"][0][16] = ["流局", [0, 0, 0, 0]]
    (verdict,) = check_game(read_game(log))
    assert verdict.reason is None
    assert any("all tenpai or all noten" in note for note in verdict.notes)
    log["log"][0][16] = ["流局", [2000, -1000, -1000, 0]]  # only the dealer tenpai: not so
    assert _reasons(log)[0] is not None


def test_kokushi_robs_a_closed_kan_under_mahjong_soul_rules_only() -> None:
    wall = make_wall(KOKUSHI_ANKAN, draws="8s")
    played = _played(wall, [(0, A.ANKAN, "1111z"), (1, A.RON)], MAHJONGSOUL_HANCHAN)
    assert played["log"][0][16][1] == [-32000, 32000, 0, 0]
    assert _reasons(_soul(played, "玉の間南喰赤")) == [None]
    played["rule"]["disp"] = "鳳南喰赤"  # the same round under Tenhou's rules
    (reason,) = _reasons(played)
    assert reason is not None


def test_a_converters_extra_riichi_stick_is_checked_against_the_next_rounds_scores() -> None:
    """Seat 1 declares riichi on the tile the dealer rons: no stick is paid (the next round
    starts so), but a converter counted it in the winner's delta."""
    wall = make_wall(DOUBLE_EAST, draws="9m4s")
    first = _played(wall, [(1, A.RIICHI, "4s"), (0, A.RON)], MAHJONGSOUL_HANCHAN)
    again = _played(
        make_wall(DOUBLE_EAST, draws="9m4s"),
        [(1, A.RIICHI, "4s"), (0, A.RON)],
        MAHJONGSOUL_HANCHAN,
        RoundStart(0, 1, 0, (28900, 21100, 25000, 25000)),
    )
    assert first["log"][0][16][1] == [3900, -3900, 0, 0]
    assert again["log"][0][0] == [0, 1, 0] and again["log"][0][16][1] == [4200, -4200, 0, 0]
    log = _soul(first, "玉の間南喰赤")
    log["log"].append(again["log"][0])
    log["log"][0][16][1] = [4900, -3900, 0, 0]  # the converter's count
    verdicts = check_game(read_game(log))
    assert [v.reason for v in verdicts] == [None, None]
    assert any("next round's scores" in note for note in verdicts[0].notes)
    log["log"][1][1] = [29900, 20100, 25000, 25000]  # a game that did not go so
    assert check_game(read_game(log))[0].reason is not None


def _all_last(final: Sequence[float]) -> dict[str, Any]:
    """South 4 (dealer seat 3): seat 0's ankan is robbed by seat 1's kokushi; seat 0 busts."""
    wall = make_wall(KOKUSHI_ANKAN, draws="8s", dealer=3)
    start = RoundStart(7, 0, 0, (25300, 24700, 25000, 25000))
    played = _played(wall, [(0, A.ANKAN, "1111z"), (1, A.RON)], MAHJONGSOUL_HANCHAN, start)
    log = _soul(played, "玉の間南喰赤")
    log["sc"] = list(final)
    return log


def test_the_match_end_uses_mahjong_soul_results_exact_or_cut_to_whole_numbers() -> None:
    # (score - 25,000) / 1000 + uma 15/5/-5/-15: 56,700 first, 25,000 second and third
    # (the earlier seat ranks higher), -6,700 last
    exact = [-6700, -46.7, 56700, 46.7, 25000, 5.0, 25000, -5.0]
    cut = [-6700, -46, 56700, 46, 25000, 5, 25000, -5]
    tenhou = [-6700, -57.0, 56700, 66.7, 25000, 0.0, 25000, -10.0]  # uma 20/10 and oka
    assert _reasons(_all_last(exact)) == [None]
    assert _reasons(_all_last(cut)) == [None]
    (reason,) = _reasons(_all_last(tenhou))
    assert reason is not None and reason.startswith("placement points")


def test_a_friendly_room_says_its_rules_are_the_hosts() -> None:
    log = _soul(_double_east(), "友人戦南喰赤")
    (verdict,) = check_game(read_game(log))
    assert verdict.reason is None
    assert any("host's rules" in note for note in verdict.notes)
