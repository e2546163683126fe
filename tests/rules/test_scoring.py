"""score_hand as a whole: dora, aka, ura, kita, minimum han, the result record, previews."""

import msgspec

from engine.rules import tiles
from engine.rules.config import TENHOU_SANMA_HANCHAN, RuleConfig
from engine.rules.scoring import HandResult, WinContext, score_hand
from engine.rules.scoring.preview import preview_value
from engine.rules.scoring.yaku import REGULAR, YAKUMAN
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


#: the 55 yaku names of Tenhou's mjlog (ids 0..54), as tenhou.net/6 prints them
TENHOU_NAMES = (
    "門前清自摸和 立直 一発 槍槓 嶺上開花 海底摸月 河底撈魚 平和 断幺九 一盃口 "
    "自風_東 自風_南 自風_西 自風_北 場風_東 場風_南 場風_西 場風_北 役牌_白 役牌_發 役牌_中 "
    "両立直 七対子 混全帯幺九 一気通貫 三色同順 三色同刻 三槓子 対々和 三暗刻 小三元 混老頭 "
    "二盃口 純全帯幺九 混一色 清一色 人和 天和 地和 大三元 四暗刻 四暗刻単騎 字一色 緑一色 "
    "清老頭 九蓮宝燈 純正九蓮宝燈 国士無双 国士無双１３面 大四喜 小四喜 四槓子 ドラ 裏ドラ 赤ドラ"
)


def test_every_yaku_prints_a_tenhou_name_and_every_tenhou_name_has_a_yaku() -> None:
    expected = sorted(name.replace("_", " ") for name in TENHOU_NAMES.split())
    names = [y.tenhou for y in REGULAR] + [y.tenhou for y in YAKUMAN]
    ours = sorted([*names, "ドラ", "裏ドラ", "赤ドラ"])
    assert len(expected) == 55
    assert ours == expected
