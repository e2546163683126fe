"""Fu, case by case, as Tenhou counts them."""

from engine.rules.config import RuleConfig
from tests.rules.winning import win


def fu(*args: str, **kwargs: object) -> int:
    result = win(*args, **kwargs)  # type: ignore[arg-type]
    assert result is not None, "hand should win"
    return result.fu


def test_pinfu_tsumo_is_20() -> None:
    assert fu("123m456p789s234s55p", "4s", tsumo=True) == 20


def test_pinfu_ron_is_30() -> None:
    assert fu("123m456p789s234s55p", "4s") == 30


def test_open_pinfu_shape_ron_is_30_on_tenhou() -> None:
    assert fu("456p678s23455s", "2s", "chii:234m") == 30


def test_open_pinfu_shape_ron_follows_the_rule() -> None:
    rules = RuleConfig(open_pinfu_ron_fu=20)
    assert fu("456p678s23455s", "2s", "chii:234m", rules=rules) == 20


def test_open_pinfu_shape_tsumo_is_30() -> None:
    assert fu("456p678s23455s", "2s", "chii:234m", tsumo=True) == 30


def test_chiitoitsu_is_25() -> None:
    assert fu("1122m3344p5566s77z", "7z", tsumo=True) == 25


def test_closed_ron_kanchan_is_40() -> None:
    # 20 + 10 closed ron + 2 kanchan = 32
    assert fu("234m456p678s23455s", "3s") == 40


def test_tsumo_adds_2_outside_pinfu() -> None:
    # 20 + 2 kanchan + 2 tsumo = 24
    assert fu("234m456p678s23455s", "3s", tsumo=True) == 30


def test_closed_terminal_triplets_are_8_simples_4() -> None:
    # 20 + 10 + 8 + 8 = 46; with simple triplets 20 + 10 + 4 + 4 = 38
    assert fu("111m999p678s234s55p", "4s", riichi=True) == 50
    assert fu("222m888p678s234s55p", "4s", riichi=True) == 40


def test_shanpon_ron_counts_the_completed_triplet_as_open() -> None:
    # 20 + 10 + 8 + 8 + 4 (111s by ron) = 50; all three concealed would be 54
    assert fu("111m999p111s234s55s", "1s", riichi=True) == 50


def test_closed_kan_of_honours_is_32() -> None:
    # 20 + 32 + 2 tsumo = 54
    assert fu("456p678s234s55p", "4s", "ankan:1111z", tsumo=True) == 60


def test_open_kan_of_honours_is_16() -> None:
    # 20 + 16 = 36
    assert fu("456p678s234s55p", "4s", "minkan:5555z") == 40


def test_dragon_pair_breaks_pinfu_and_adds_2() -> None:
    # 20 + 10 + 2 = 32
    assert fu("234m456p678s234s55z", "4s", riichi=True) == 40


def test_double_wind_pair_is_4_on_tenhou_and_2_when_set() -> None:
    # 20 + 10 + 8 (111m) + 4 = 42 -> 50; with a 2 fu double-wind pair 40
    hand = "111m234p678s234s11z"
    assert fu(hand, "4p", seat="E", round_="E", riichi=True) == 50
    rules = RuleConfig(double_wind_pair_fu=2)
    assert fu(hand, "4p", seat="E", round_="E", riichi=True, rules=rules) == 40


def test_win_tile_reading_that_scores_more_is_chosen() -> None:
    # 6m completes 456m (ryanmen: 20 + 8 + 2 = 30) or the pair 66m (tanki: 32 -> 40)
    assert fu("45666m234p678s999s", "6m", tsumo=True, riichi=True) == 40
