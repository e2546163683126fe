"""score_hand as a whole: dora, aka, ura, kita, minimum han, the result record, previews."""

import msgspec

from engine.rules import tiles
from engine.rules.config import TENHOU_SANMA_HANCHAN, RuleConfig
from engine.rules.scoring import HandResult, WinContext, preview_value, score_hand
from tests.rules.winning import names, win


def test_dora_alone_is_no_yaku() -> None:
    assert win("456p789s23455s", "3s", "pon:111m", dora="4s") is None


def test_dora_aka_and_ura_are_yaku_entries_with_tenhou_names() -> None:
    result = win("123m406p789s23455s", "3s", riichi=True, dora="1s", ura="4s")
    assert result is not None
    entries = {y.tenhou: y.han for y in result.yaku}
    assert entries == {"立直": 1, "ドラ": 1, "赤ドラ": 1, "裏ドラ": 2}
    assert (result.dora, result.aka, result.ura, result.han) == (1, 1, 2, 5)


def test_ura_dora_counts_only_with_riichi() -> None:
    result = win("123m456p789s23455s", "3s", chankan=True, ura="4s")
    assert result is not None and result.ura == 0 and "ura" not in names(result)


def test_no_dora_entry_when_none_is_held() -> None:
    result = win("123m456p789s23455s", "3s", riichi=True, dora="1z")
    assert names(result) == {"riichi"}


def test_kan_dora_indicators_all_count() -> None:
    result = win("123m456p789s23455s", "3s", riichi=True, dora="1s4s")
    assert result is not None and result.dora == 3


def test_red_fives_do_not_reach_minimum_han() -> None:
    rules = RuleConfig(min_han=2)
    assert win("123m406p789s23455s", "3s", riichi=True, rules=rules) is None
    assert win("123m406p789s23455s", "3s", riichi=True, ippatsu=True, rules=rules) is not None


def test_kita_counts_inside_dora_as_tenhou_prints_it() -> None:
    ids = tiles.parse("999m456p789s234s55s")
    four_sou = next(t for t in ids if t >> 2 == 21)
    ctx = WinContext(win_tile=four_sou, tsumo=True, seat_wind=28, round_wind=27, kita=2)
    result = score_hand(ids, [], ctx, TENHOU_SANMA_HANCHAN)
    assert result is not None and result.kita == 2 and result.dora == 0
    assert {y.tenhou: y.han for y in result.yaku} == {"門前清自摸和": 1, "ドラ": 2}
    assert result.han == 3


def test_result_is_msgspec_serialisable_and_round_trips() -> None:
    result = win("123m406p789s23455s", "3s", riichi=True, tsumo=True)
    assert result is not None
    assert msgspec.json.decode(msgspec.json.encode(result), type=HandResult) == result


def test_an_incomplete_hand_scores_none() -> None:
    ids = tiles.parse("123m456p789s23456s")
    ctx = WinContext(win_tile=ids[-1], tsumo=True, seat_wind=27, round_wind=27, riichi=True)
    assert score_hand(ids, [], ctx, RuleConfig()) is None


def test_preview_is_a_ron_without_luck_and_without_ura() -> None:
    concealed13 = tiles.parse("123m456p789s2455s")
    ctx = WinContext(
        win_tile=concealed13[0], tsumo=True, seat_wind=28, round_wind=27, riichi=True,
        ippatsu=True, haitei=True, ura_indicators=tuple(tiles.parse("1m")),
    )  # fmt: skip
    result = preview_value(concealed13, [], 20, ctx, RuleConfig())  # 3s kanchan
    assert result is not None
    assert names(result) == {"riichi"}  # no ippatsu, haitei or menzen tsumo
    assert (result.fu, result.ura, result.ron) == (40, 0, 1300)


def test_preview_takes_a_plain_five_when_one_is_left() -> None:
    concealed = tiles.parse("123m456p789s3466s")
    ctx = WinContext(win_tile=concealed[0], tsumo=False, seat_wind=28, round_wind=27)
    result = preview_value(concealed, [], 22, ctx, RuleConfig())  # waiting 2s-5s, on 5s
    assert result is not None and result.aka == 0 and names(result) == {"pinfu"}


def test_preview_of_a_kind_all_four_held_is_none() -> None:
    concealed = tiles.parse("1111m456p789s3466s")[:13]
    ctx = WinContext(win_tile=concealed[0], tsumo=False, seat_wind=28, round_wind=27)
    assert preview_value(concealed, [], 0, ctx, RuleConfig()) is None
