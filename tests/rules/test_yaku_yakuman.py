"""Yakuman, their Tenhou switches (double yakuman off: single, but named apart), stacking and
kazoe yakuman."""

from engine.rules.config import RuleConfig
from tests.rules.winning import names, win

DOUBLE = RuleConfig(double_yakuman=True)


def test_kokushi_single_wait() -> None:
    result = win("119m19p19s1234567z", "9m")
    assert names(result) == {"kokushi_musou"}
    assert result is not None and result.yakuman == 1 and result.ron == 32000


def test_kokushi_thirteen_sided_is_single_on_tenhou_but_named_apart() -> None:
    result = win("119m19p19s1234567z", "1m")
    assert names(result) == {"kokushi_musou_13"}
    assert result is not None and result.yakuman == 1
    assert result.yaku[0].tenhou == "国士無双１３面"


def test_kokushi_thirteen_sided_doubles_when_the_rule_allows() -> None:
    result = win("119m19p19s1234567z", "1m", rules=DOUBLE)
    assert result is not None and result.yakuman == 2 and result.ron == 64000


def test_no_kokushi_missing_one_honour() -> None:
    assert win("119m19p19s1234566z", "9m") is None


def test_suuankou_on_tsumo() -> None:
    result = win("111m333p555s777s22z", "7s", tsumo=True)
    assert names(result) == {"suuankou"}


def test_suuankou_shape_won_by_ron_on_a_shanpon_is_sanankou_toitoi() -> None:
    assert names(win("111m333p555s777s22z", "7s")) == {"sanankou", "toitoi"}


def test_suuankou_tanki_by_ron() -> None:
    result = win("111m333p555s777s22z", "2z")
    assert names(result) == {"suuankou_tanki"}
    assert result is not None and result.yakuman == 1
    assert win("111m333p555s777s22z", "2z", rules=DOUBLE).yakuman == 2  # type: ignore[union-attr]


def test_daisangen() -> None:
    assert names(win("555z666z777z123m44p", "3m")) == {"daisangen"}


def test_no_daisangen_with_a_dragon_pair() -> None:
    assert "daisangen" not in names(win("555z666z77z123m444p", "3m"))


def test_shousuushii() -> None:
    assert names(win("111z222z333z44z123m", "3m")) == {"shousuushii"}


def test_no_shousuushii_with_two_wind_triplets() -> None:
    assert "shousuushii" not in names(win("111z222z33z123m444p", "3m"))


def test_daisuushii_single_on_tenhou() -> None:
    result = win("222z333z444z11m", "1m", "pon:111z")
    assert names(result) == {"daisuushii"}
    assert result is not None and result.yakuman == 1
    assert win("222z333z444z11m", "1m", "pon:111z", rules=DOUBLE).yakuman == 2  # type: ignore[union-attr]


def test_yakuman_stack_daisuushii_and_suuankou_tanki() -> None:
    result = win("111z222z333z444z11m", "1m")
    assert names(result) == {"daisuushii", "suuankou_tanki"}
    assert result is not None and result.yakuman == 2 and result.ron == 64000
    assert result.limit == "yakuman" and result.han == 26


def test_tsuuiisou_even_as_seven_pairs() -> None:
    assert names(win("11223344556677z", "7z")) == {"tsuuiisou"}


def test_no_tsuuiisou_with_a_suited_pair() -> None:
    assert "tsuuiisou" not in names(win("111z222z555z666z11m", "1m"))


def test_chinroutou() -> None:
    assert names(win("999m111p999p11s", "1s", "pon:111m")) == {"chinroutou"}


def test_an_honour_pair_makes_it_honroutou() -> None:
    assert "chinroutou" not in names(win("999m111p999p11z", "1z", "pon:111m", seat="W"))


def test_ryuuiisou_with_and_without_hatsu() -> None:
    assert "ryuuiisou" in names(win("223344666888s66z", "4s"))
    assert "ryuuiisou" in names(win("22334444666888s", "3s"))


def test_no_ryuuiisou_with_a_nine() -> None:
    assert "ryuuiisou" not in names(win("223344666999s66z", "4s"))


def test_chuuren_poutou() -> None:
    assert names(win("11122345678999m", "5m")) == {"chuuren_poutou"}


def test_junsei_chuuren_poutou_nine_sided() -> None:
    result = win("11122345678999m", "2m")
    assert names(result) == {"junsei_chuuren_poutou"}
    assert result is not None and result.yakuman == 1
    assert win("11122345678999m", "2m", rules=DOUBLE).yakuman == 2  # type: ignore[union-attr]


def test_no_chuuren_with_a_meld() -> None:
    assert "chuuren_poutou" not in names(win("12345678999m", "5m", "pon:111m"))


def test_suukantsu() -> None:
    result = win("77p", "7p", "ankan:1111m", "minkan:2222p", "minkan:3333s", "kakan:4444s")
    assert names(result) == {"suukantsu"}


def test_tenhou_and_chiihou() -> None:
    assert names(win("123m456p789s23455s", "3s", tsumo=True, seat="E", tenhou=True)) == {"tenhou"}
    result = win("123m456p789s23455s", "3s", tsumo=True, seat="S", chiihou=True)
    assert names(result) == {"chiihou"}


def test_tenhou_flag_for_a_non_dealer_is_ignored() -> None:
    assert names(win("123m456p789s23455s", "3s", tsumo=True, seat="S", tenhou=True)) == {
        "menzen_tsumo"
    }


def test_kazoe_yakuman_at_13_han() -> None:
    # riichi, tsumo, iipeikou, ittsu, chinitsu (penchan: no pinfu) = 11 han, two dora (3m)
    result = win("11223345678999m", "3m", tsumo=True, riichi=True, dora="2m")
    assert result is not None and result.han == 13
    assert result.limit == "yakuman" and result.yakuman == 1 and result.base == 8000


def test_kazoe_off_caps_at_sanbaiman() -> None:
    rules = RuleConfig(kazoe_yakuman=False)
    result = win("11223345678999m", "3m", tsumo=True, riichi=True, dora="2m", rules=rules)
    assert result is not None and result.limit == "sanbaiman" and result.yakuman == 0
