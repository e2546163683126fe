"""Three- and six-han yaku: ryanpeikou, junchan, honitsu, chinitsu."""

from tests.rules.winning import names, win


def test_ryanpeikou_beats_chiitoitsu_on_the_same_tiles() -> None:
    result = win("112233m445566p77s", "7s")
    assert names(result) == {"ryanpeikou"}
    assert result is not None and (result.han, result.fu) == (3, 40)


def test_no_ryanpeikou_with_one_pair_of_sequences() -> None:
    assert "ryanpeikou" not in names(win("112233m456678p77s", "7s"))


def test_junchan_closed_and_open() -> None:
    closed = win("123m789p999s111p99m", "3m")
    assert names(closed) == {"junchan"} and closed is not None and closed.han == 3
    opened = win("789p999s111p99m", "9m", "chii:123m")
    assert names(opened) == {"junchan"} and opened is not None and opened.han == 2


def test_an_honour_turns_junchan_into_chanta() -> None:
    assert names(win("123m789p999s111p11z", "3m", seat="W")) == {"chanta"}


def test_honitsu_closed_and_open() -> None:
    assert names(win("123m456m999m111z22z", "3m", seat="W", round_="S")) == {"honitsu"}
    opened = win("456m999m111z22z", "6m", "chii:123m", seat="W", round_="S")
    assert names(opened) == {"honitsu"} and opened is not None and opened.han == 2


def test_no_honitsu_with_a_second_suit() -> None:
    assert win("123m456p999m111z22z", "3m", seat="W", round_="S") is None


def test_chinitsu_closed_and_open() -> None:
    closed = win("12334556788999m", "4m")
    assert "chinitsu" in names(closed) and "honitsu" not in names(closed)
    opened = win("345567889m99m", "9m", "chii:123m")
    assert opened is not None and {y.name: y.han for y in opened.yaku}["chinitsu"] == 5


def test_no_chinitsu_with_an_honour() -> None:
    assert "chinitsu" not in names(win("1233455678m999m22z", "4m"))
