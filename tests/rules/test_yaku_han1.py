"""One-han yaku of the tiles, each with a winning case and a near miss."""

from engine.rules.config import RuleConfig
from tests.rules.winning import names, win


def test_pinfu_four_sequences_two_sided_wait_plain_pair() -> None:
    result = win("123m456p789s234s33z", "4s", seat="S", round_="E")
    assert names(result) == {"pinfu"}
    assert result is not None and result.fu == 30


def test_no_pinfu_on_a_round_wind_pair() -> None:
    assert win("123m456p789s234s11z", "4s", seat="S", round_="E") is None


def test_no_pinfu_on_a_kanchan() -> None:
    assert win("123m456p789s234s55p", "3s") is None


def test_pinfu_reading_beats_tanki_on_the_same_tile() -> None:
    result = win("123m456p789s44456m", "4m", riichi=True)
    assert names(result) == {"riichi", "pinfu"}


def test_tanyao_closed() -> None:
    assert names(win("234m456p678s23455s", "3s")) == {"tanyao"}


def test_tanyao_open_with_kuitan() -> None:
    assert names(win("456p678s23455s", "3s", "chii:234m")) == {"tanyao"}


def test_no_open_tanyao_without_kuitan() -> None:
    assert win("456p678s23455s", "3s", "chii:234m", rules=RuleConfig(kuitan=False)) is None


def test_no_tanyao_with_a_terminal() -> None:
    assert win("234m456p789s23455s", "3s") is None


def test_iipeikou_two_identical_sequences() -> None:
    assert "iipeikou" in names(win("112233m456p789s55s", "2m"))


def test_no_iipeikou_when_open() -> None:
    assert win("112233m789s55s", "2m", "chii:456p") is None


def test_yakuhai_dragons() -> None:
    assert names(win("123m456p23455s555z", "3s")) == {"yakuhai_haku"}
    assert names(win("123m456p23455s666z", "3s")) == {"yakuhai_hatsu"}
    assert names(win("123m456p23455s777z", "3s")) == {"yakuhai_chun"}


def test_a_dragon_pair_is_no_yakuhai() -> None:
    assert win("123m456p789s234s55z", "3s") is None


def test_seat_wind_triplet() -> None:
    assert names(win("123m456p23455s222z", "3s", seat="S", round_="E")) == {"jikaze_nan"}


def test_round_wind_triplet() -> None:
    assert names(win("123m456p23455s222z", "3s", seat="W", round_="S")) == {"bakaze_nan"}


def test_double_wind_triplet_scores_twice() -> None:
    result = win("123m456p23455s111z", "3s", seat="E", round_="E")
    assert names(result) == {"jikaze_ton", "bakaze_ton"}
    assert result is not None and result.han == 2


def test_guest_wind_triplet_is_no_yakuhai() -> None:
    assert win("123m456p23455s444z", "3s", seat="S", round_="E") is None
