"""Two-han yaku (one han less when open where the rule says so), with near misses."""

from tests.rules.winning import names, win


def test_chiitoitsu_seven_pairs() -> None:
    result = win("1122m3344p5566s77z", "7z")
    assert names(result) == {"chiitoitsu"}
    assert result is not None and (result.han, result.fu) == (2, 25)


def test_four_of_a_kind_is_not_two_pairs() -> None:
    assert win("1111m2233p4455s66z", "6z") is None


def test_sanshoku_doujun_closed_and_open() -> None:
    closed = win("123m123p123s456m99p", "4m")
    assert "sanshoku_doujun" in names(closed)
    opened = win("123p123s456m99p", "4m", "chii:123m")
    assert names(opened) == {"sanshoku_doujun"} and opened is not None and opened.han == 1


def test_no_sanshoku_with_one_suit_off_by_one() -> None:
    assert "sanshoku_doujun" not in names(win("123m123p234s456m99p", "4m", riichi=True))


def test_ittsu_closed_and_open() -> None:
    assert "ittsu" in names(win("123456789m234p55s", "9m"))
    opened = win("456789m234p55s", "9m", "chii:123m")
    assert names(opened) == {"ittsu"} and opened is not None and opened.han == 1


def test_no_ittsu_across_suits() -> None:
    assert "ittsu" not in names(win("123456m789p234p55s", "6m", riichi=True))


def test_chanta_every_group_holds_a_terminal_or_honour() -> None:
    assert names(win("123m789p999s111z22z", "3m", seat="W", round_="S")) == {"chanta"}


def test_no_chanta_with_a_middle_sequence() -> None:
    assert win("234m789p999s111z22z", "4m", seat="W", round_="S") is None


def test_toitoi_all_triplets() -> None:
    result = win("666s999s55p", "9s", "pon:222m", "pon:444p")
    assert names(result) == {"toitoi"}


def test_no_toitoi_with_one_sequence() -> None:
    assert win("666s789s55p", "9s", "pon:222m", "pon:444p") is None


def test_sanankou_three_concealed_triplets() -> None:
    assert names(win("111m333p555s789s22z", "8s")) == {"sanankou"}


def test_a_triplet_completed_by_ron_is_not_concealed() -> None:
    assert win("111m333p555s789s22z", "5s") is None


def test_the_same_triplet_on_tsumo_stays_concealed() -> None:
    assert names(win("111m333p555s789s22z", "5s", tsumo=True)) == {"menzen_tsumo", "sanankou"}


def test_sanshoku_doukou() -> None:
    result = win("222m222p789m77p", "7m", "pon:222s")
    assert names(result) == {"sanshoku_doukou"}


def test_no_sanshoku_doukou_with_a_different_number() -> None:
    assert win("222m222p789m77p", "7m", "pon:333s") is None


def test_sankantsu() -> None:
    result = win("456s77p", "4s", "ankan:1111m", "minkan:2222p", "minkan:3333s")
    assert names(result) == {"sankantsu"}


def test_two_kans_are_no_sankantsu() -> None:
    assert win("456s77p", "4s", "pon:111m", "minkan:2222p", "minkan:3333s") is None


def test_shousangen_two_dragon_triplets_and_a_dragon_pair() -> None:
    result = win("555z666z77z123m456p", "3m")
    assert names(result) == {"shousangen", "yakuhai_haku", "yakuhai_hatsu"}


def test_no_shousangen_with_a_suited_pair() -> None:
    assert "shousangen" not in names(win("555z666z123m456p77p", "3m"))


def test_honroutou_terminals_and_honours_only() -> None:
    result = win("999p111s222z33z", "3z", "pon:111m", seat="W")
    assert names(result) == {"honroutou", "toitoi", "sanankou"}


def test_no_honroutou_with_a_simple_pair() -> None:
    assert "honroutou" not in names(win("999p111s222z22p", "2p", "pon:111m", seat="W"))
