"""Hand analysis on hands written in tile notation: readings, special forms, waits, shanten."""

import pytest

from engine.rules import hand as H
from engine.rules.tiles import counts_from_str, kinds_from_str


def c(text: str) -> list[int]:
    return counts_from_str(text)


def k(text: str) -> list[int]:
    """Kinds in ascending order, e.g. ``k("25m")`` = [1, 4]."""
    return sorted(kinds_from_str(text))


def D(pair: str, shuntsu: str = "", koutsu: str = "") -> H.Decomposition:
    """A reading written in notation: the pair, the first tile of each run, each triplet."""
    return H.Decomposition(k(pair)[0], tuple(k(shuntsu)), tuple(k(koutsu)))


# ---------------------------------------------------------------- decompose


def test_three_consecutive_triplets_read_as_triplets_or_as_runs() -> None:
    assert H.decompose(c("111222333m456p11z")) == [
        D("1z", "111m4p"),
        D("1z", "4p", "123m"),
    ]


def test_decompose_finds_every_pair_choice_in_one_suit() -> None:
    # 11122233344455m: the pair can be 2m or 5m, with three readings around 5m
    assert H.decompose(c("11122233344455m")) == [
        D("2m", "233m", "1m"),
        D("5m", "", "1234m"),
        D("5m", "111m", "4m"),
        D("5m", "222m", "1m"),
    ]


def test_decompose_reads_honours_and_runs_across_suits() -> None:
    assert H.decompose(c("234m567p789s55z777z")) == [D("5z", "2m5p7s", "7z")]


def test_decompose_of_an_incomplete_hand_is_empty() -> None:
    assert H.decompose(c("123m456p789s11234z")) == []
    assert H.decompose(c("123m456p789s1122z3z")) == []  # two pairs and a single


def test_decompose_handles_a_concealed_part_beside_melds() -> None:
    assert H.decompose(c("11m")) == [D("1m")]
    assert H.decompose(c("12355m")) == [D("5m", "1m")]


def test_ryanpeikou_is_both_seven_pairs_and_a_standard_reading() -> None:
    hand = c("223344m556677p11z")
    assert H.is_chiitoitsu(hand)
    assert H.decompose(hand) == [D("1z", "22m55p")]


def test_list_and_tuple_inputs_agree() -> None:
    hand = c("111222333m456p11z")
    assert H.decompose(tuple(hand)) == H.decompose(hand)
    assert H.waits(tuple(c("2345m111p222s333z"))) == H.waits(c("2345m111p222s333z"))


# ---------------------------------------------------------------- special forms


def test_seven_distinct_pairs_are_chiitoitsu_without_a_standard_reading() -> None:
    hand = c("1144m77p22s55s1122z")
    assert H.is_chiitoitsu(hand)
    assert H.decompose(hand) == []
    assert H.is_agari(hand)


def test_four_of_a_kind_is_not_two_pairs() -> None:
    hand = c("1111m33m55p77p99p11z")
    assert not H.is_chiitoitsu(hand)
    assert not H.is_agari(hand)


def test_chiitoitsu_needs_a_fully_concealed_hand() -> None:
    assert not H.is_chiitoitsu(c("1122m33p44p"))  # four pairs beside melds


def test_kokushi_complete_and_its_thirteen_sided_wait() -> None:
    assert H.is_kokushi(c("19m19p19s12345677z"))
    assert H.is_agari(c("19m19p19s12345677z"))
    assert not H.is_kokushi(c("19m19p19s1234567z2m"))
    thirteen = c("19m19p19s1234567z")
    assert H.kokushi_13_sided(thirteen)
    assert H.waits(thirteen) == k("19m19p19s1234567z")


def test_kokushi_with_a_pair_waits_on_the_missing_kind_only() -> None:
    hand = c("19m19p19s1234566z")
    assert not H.kokushi_13_sided(hand)
    assert H.waits(hand) == k("7z")


# ---------------------------------------------------------------- waits


def test_nobetan_waits_on_both_ends() -> None:
    assert H.waits(c("2345m111p222s333z")) == k("25m")


def test_nine_sided_chuuren_waits_on_every_man() -> None:
    assert H.waits(c("1112345678999m")) == k("123456789m")


def test_shanpon_waits_on_both_pairs() -> None:
    assert H.waits(c("789m456p123s11m55z")) == k("1m5z")
    # beside 123m the 1m pair also reads 111m + 23m: 4m joins
    assert H.waits(c("123m456p789s11m55z")) == k("14m5z")


def test_kanchan_beside_a_pair_in_another_suit() -> None:
    assert H.waits(c("13m456p789s111z55s")) == k("2m")


def test_pair_that_can_also_become_runs() -> None:
    # 1123m: 11 + 23 (1m 4m) or 1 tanki + 123 (1m)
    assert H.waits(c("1123m456p789s111z")) == k("14m")


def test_chiitoitsu_tanki_wait() -> None:
    assert H.waits(c("1144m77p22s55s113z")) == k("3z")


def test_chiitoitsu_wait_never_completes_a_quad() -> None:
    # five pairs and a triplet: the fourth 1m would be four of a kind, not two pairs
    assert H.waits(c("111m33p55p77s1122z")) == []


def test_tanki_on_a_kind_held_four_times_is_not_a_wait() -> None:
    # 111m + 1m tanki looks ready, but the fifth 1m does not exist: noten on Tenhou
    assert H.waits(c("1111m234p567s111z")) == []
    assert not H.is_tenpai(c("1111m234p567s111z"))
    assert H.waits(c("1111m")) == []


def test_four_copies_rule_drops_only_the_exhausted_kind() -> None:
    # 1111m234m: 111m + 234m + 1m tanki (a fifth 1m) or 111m + 123m + 4m tanki
    assert H.waits(c("1111m234m456p789s")) == k("4m")


def test_meld_tiles_do_not_count_unless_held_is_given() -> None:
    # Tenhou scored 12s44466688p beside an open kan of 3s as tenpai: melds are not counted
    hand = c("12s44466688p")
    assert H.waits(hand) == k("3s")
    assert H.waits(hand, held=c("3333s")) == []
    assert H.waits(c("1m"), held=c("111m")) == []
    assert H.waits(c("1m"), held=c("11m")) == k("1m")


def test_waits_of_a_complete_or_far_hand_are_empty() -> None:
    assert H.waits(c("123m456p789s11122z")) == []
    assert H.waits(c("159m159p159s1234z")) == []


# ---------------------------------------------------------------- shanten


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s11122z", -1),
        ("123m456p789s1112z", 0),
        ("19m19p19s1234567z", 0),
        ("123m456p789s1234z", 2),
        ("1111m234p567s111z", 1),
        ("1m", 0),
        ("159m159p159s1234z", 3),  # ten kokushi kinds
        ("258m258p258s1357z", 6),  # thirteen singles, four of them yaochuu
    ],
)
def test_shanten(hand: str, expected: int) -> None:
    assert H.shanten(c(hand)) == expected


def test_sanma_shanten_cannot_use_the_missing_man() -> None:
    hand = c("1111m111122233z")
    assert H.shanten(hand) == 1
    assert H.shanten(hand, sanma=True) == 2


def test_is_tenpai_matches_shanten_zero() -> None:
    for text in ("2345m111p222s333z", "1111m234p567s111z", "19m19p19s1234566z", "1m", "1111m"):
        assert H.is_tenpai(c(text)) == (H.shanten(c(text)) == 0)


# ---------------------------------------------------------------- tenpai discards


def test_tenpai_discards_lists_each_discard_that_leaves_a_wait() -> None:
    assert H.tenpai_discards(c("2345m111p222s3334z")) == {
        k("2m")[0]: k("4z"),
        k("5m")[0]: k("4z"),
        k("4z")[0]: k("25m"),
    }


def test_tenpai_discards_of_a_far_hand_is_empty() -> None:
    assert H.tenpai_discards(c("159m159p159s12345z")) == {}


def test_tenpai_discards_includes_kokushi_and_chiitoitsu() -> None:
    discards = H.tenpai_discards(c("19m19p19s12345677z"))
    assert discards[k("7z")[0]] == k("19m19p19s1234567z")
    assert discards[k("1m")[0]] == k("1m")
    assert H.tenpai_discards(c("1144m77p22s55s1134z"))[k("4z")[0]] == k("3z")


def test_tenpai_discards_respects_held_meld_tiles() -> None:
    assert H.tenpai_discards(c("15m"), held=c("111m")) == {k("1m")[0]: k("5m")}
    assert H.tenpai_discards(c("15m")) == {k("1m")[0]: k("5m"), k("5m")[0]: k("1m")}


def test_sanma_shanten_rejects_the_removed_man() -> None:
    with pytest.raises(ValueError):
        H.shanten(c("2m"), sanma=True)


# ---------------------------------------------------------------- honours and small parts


def test_honour_triplets_and_pair_decompose_without_runs() -> None:
    assert H.decompose(c("111z222z33z")) == [D("3z", "", "12z")]
    assert H.decompose(c("123z")) == []
    assert H.waits(c("11z22z")) == k("12z")


def test_single_tile_part_waits_on_itself() -> None:
    assert H.waits(c("7z")) == k("7z")
    assert H.is_agari(c("77z"))
    assert not H.is_agari(c("67z"))
