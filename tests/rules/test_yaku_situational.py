"""Yaku of the situation: riichi and its kin, menzen tsumo, and the lucky last/kan tiles.

The base hand ``123m456p789s23455s`` won on a 3s kanchan has no yaku of its own, so each
flag alone decides whether the hand wins.
"""

from engine.rules.config import RuleConfig
from tests.rules.winning import names, win

BARE = "123m456p789s23455s"


def test_riichi_makes_a_bare_closed_hand_win() -> None:
    assert names(win(BARE, "3s", riichi=True)) == {"riichi"}


def test_without_riichi_the_bare_hand_has_no_yaku() -> None:
    assert win(BARE, "3s") is None


def test_double_riichi_replaces_riichi() -> None:
    result = win(BARE, "3s", riichi=True, double_riichi=True)
    assert names(result) == {"double_riichi"}
    assert result is not None and result.han == 2


def test_ippatsu_after_riichi() -> None:
    assert names(win(BARE, "3s", riichi=True, ippatsu=True)) == {"riichi", "ippatsu"}


def test_ippatsu_flag_without_riichi_is_no_yaku() -> None:
    assert win(BARE, "3s", ippatsu=True) is None


def test_menzen_tsumo_on_a_closed_hand_with_an_ankan() -> None:
    result = win("456p789s23455s", "3s", "ankan:1111m", tsumo=True)
    assert names(result) == {"menzen_tsumo"}


def test_no_menzen_tsumo_with_an_open_pon() -> None:
    assert win("456p789s23455s", "3s", "pon:111m", tsumo=True) is None


def test_rinshan_on_the_replacement_draw() -> None:
    result = win("456p789s23455s", "3s", "minkan:1111m", tsumo=True, rinshan=True)
    assert names(result) == {"rinshan"}


def test_chankan_robbing_a_kan() -> None:
    assert names(win(BARE, "3s", chankan=True)) == {"chankan"}


def test_haitei_on_the_last_draw() -> None:
    assert names(win("456p789s23455s", "3s", "pon:111m", tsumo=True, haitei=True)) == {"haitei"}


def test_rinshan_draw_is_never_haitei() -> None:
    result = win("456p789s23455s", "3s", "minkan:1111m", tsumo=True, rinshan=True, haitei=True)
    assert names(result) == {"rinshan"}


def test_houtei_on_the_last_discard() -> None:
    assert names(win(BARE, "3s", houtei=True)) == {"houtei"}


def test_houtei_flag_on_a_tsumo_is_no_yaku() -> None:
    assert names(win("456p789s23455s", "3s", "pon:111m", tsumo=True, houtei=True)) == set()


def test_renhou_is_off_on_tenhou() -> None:
    assert win(BARE, "3s", renhou=True) is None


def test_renhou_as_mangan_when_the_rule_allows() -> None:
    result = win(BARE, "3s", renhou=True, rules=RuleConfig(renhou=True))
    assert names(result) == {"renhou"}
    assert result is not None and result.limit == "mangan" and result.ron == 8000
