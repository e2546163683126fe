"""Notation round trips and the tile conventions every other module relies on."""

import pytest

from engine.rules import tiles as T


def test_mpsz_round_trip_keeps_red_fives() -> None:
    ids = T.parse("123m406p789s1122z")
    assert T.to_str(ids) == "123m406p789s1122z"
    assert 52 in ids  # the red 5p is id 52


def test_parse_gives_distinct_copies() -> None:
    ids = T.parse("555m")
    assert 16 not in ids  # plain fives never take the red copy
    assert len(set(T.parse("1111z"))) == 4


def test_fifth_copy_is_an_error() -> None:
    with pytest.raises(ValueError):
        T.parse("11111m")


def test_red_and_plain_fives_are_counted_apart() -> None:
    # three plain 5m exist besides the red one; a fourth plain one cannot
    with pytest.raises(ValueError):
        T.parse("5555m")  # only three plain 5m exist beside the red one
    assert T.to_str(T.parse("0555m")) == "0555m"


@pytest.mark.parametrize(
    ("indicator", "dora"),
    [
        ("1m", "2m"),
        ("9m", "1m"),
        ("9s", "1s"),
        ("4z", "1z"),
        ("1z", "2z"),
        ("7z", "5z"),
        ("5z", "6z"),
    ],
)
def test_dora_wraps_within_its_group(indicator: str, dora: str) -> None:
    assert T.dora_of(T.kinds_from_str(indicator)[0]) == T.kinds_from_str(dora)[0]


def test_sanma_dora_skips_removed_man() -> None:
    assert T.dora_of(0, sanma=True) == 8


@pytest.mark.parametrize("tile", range(136))
def test_mjai_and_tenhou_codes_round_trip(tile: int) -> None:
    k, red = T.mjai_kind(T.to_mjai(tile))
    assert k == tile >> 2 and red == (tile in T.DEFAULT_RED)
    k2, red2 = T.tenhou_kind(T.to_tenhou(tile))
    assert k2 == tile >> 2 and red2 == red


def test_bad_notation_is_rejected() -> None:
    for bad in ("123", "8z", "12x", "0z"):
        with pytest.raises(ValueError):
            T.parse(bad)
