"""The point table: base points, limits, kiriage and payments."""

import pytest

from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.scoring.points import base_points, payments

KIRIAGE = RuleConfig(kiriage=True)


def pay(han: int, fu: int, dealer: bool, rules: RuleConfig = TENHOU_HANCHAN) -> tuple[int, ...]:
    base, _ = base_points(han, fu, 0, rules)
    return payments(base, dealer)


@pytest.mark.parametrize(
    ("han", "fu", "ron"),
    [
        (1, 30, 1000),
        (1, 40, 1300),
        (2, 25, 1600),
        (2, 30, 2000),
        (3, 30, 3900),
        (3, 40, 5200),
        (4, 30, 7700),
        (3, 60, 7700),
        (3, 70, 8000),
        (4, 40, 8000),
        (1, 110, 3600),
    ],
)
def test_non_dealer_ron_table(han: int, fu: int, ron: int) -> None:
    assert pay(han, fu, dealer=False)[0] == ron


@pytest.mark.parametrize(
    ("han", "fu", "ron"), [(1, 30, 1500), (2, 25, 2400), (3, 30, 5800), (4, 30, 11600)]
)
def test_dealer_ron_table(han: int, fu: int, ron: int) -> None:
    assert pay(han, fu, dealer=True)[0] == ron


def test_dealer_20_fu_tsumo_pays_700_all() -> None:
    assert pay(2, 20, dealer=True) == (2000, 0, 700)


def test_non_dealer_20_fu_tsumo_is_400_700() -> None:
    _, dealer_pays, other_pays = pay(2, 20, dealer=False)
    assert (other_pays, dealer_pays) == (400, 700)


def test_non_dealer_30_fu_1_han_tsumo_is_300_500() -> None:
    assert pay(1, 30, dealer=False)[1:] == (500, 300)


def test_kiriage_rounds_4_han_30_fu_and_3_han_60_fu_up_to_mangan() -> None:
    assert base_points(4, 30, 0, KIRIAGE) == (2000, "mangan")
    assert base_points(3, 60, 0, KIRIAGE) == (2000, "mangan")
    assert base_points(4, 30, 0, TENHOU_HANCHAN) == (1920, "")


@pytest.mark.parametrize(
    ("han", "base", "limit"),
    [
        (5, 2000, "mangan"),
        (6, 3000, "haneman"),
        (7, 3000, "haneman"),
        (8, 4000, "baiman"),
        (10, 4000, "baiman"),
        (11, 6000, "sanbaiman"),
        (12, 6000, "sanbaiman"),
        (13, 8000, "yakuman"),
        (20, 8000, "yakuman"),
    ],
)
def test_limits_by_han(han: int, base: int, limit: str) -> None:
    assert base_points(han, 30, 0, TENHOU_HANCHAN) == (base, limit)


def test_kazoe_off_caps_13_han_at_sanbaiman() -> None:
    assert base_points(13, 30, 0, RuleConfig(kazoe_yakuman=False)) == (6000, "sanbaiman")


def test_double_yakuman_payments() -> None:
    base, limit = base_points(26, 0, 2, TENHOU_HANCHAN)
    assert (base, limit) == (16000, "yakuman")
    assert payments(base, dealer=False) == (64000, 32000, 16000)
    assert payments(base, dealer=True) == (96000, 0, 32000)


def test_mangan_payments() -> None:
    assert payments(2000, dealer=False) == (8000, 4000, 2000)
    assert payments(2000, dealer=True) == (12000, 0, 4000)
