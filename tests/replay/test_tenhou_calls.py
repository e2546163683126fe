"""Tenhou call strings: the examples of FORMAT.md read and written back."""

import pytest

from engine.replay.record import StepKind
from engine.replay.tenhou_calls import Call, format_call, parse_call

KAMICHA, TOIMEN, SHIMOCHA = 3, 2, 1


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("c375336", Call(StepKind.CHII, 37, (53, 36), KAMICHA)),
        ("p414141", Call(StepKind.PON, 41, (41, 41), KAMICHA)),
        ("41p4141", Call(StepKind.PON, 41, (41, 41), TOIMEN)),
        ("4141p41", Call(StepKind.PON, 41, (41, 41), SHIMOCHA)),
        ("p151551", Call(StepKind.PON, 15, (15, 51), KAMICHA)),
        ("1551p15", Call(StepKind.PON, 15, (15, 51), SHIMOCHA)),
        ("m39393939", Call(StepKind.DAIMINKAN, 39, (39, 39, 39), KAMICHA)),
        ("31m313131", Call(StepKind.DAIMINKAN, 31, (31, 31, 31), TOIMEN)),
        ("252552m25", Call(StepKind.DAIMINKAN, 25, (25, 25, 52), SHIMOCHA)),
        ("151515a51", Call(StepKind.ANKAN, 51, (15, 15, 15), 0)),
        ("f44", Call(StepKind.KITA, 44, (), 0)),
    ],
)
def test_call_string_reads_kind_called_tile_and_source(text: str, call: Call) -> None:
    assert parse_call(text) == call
    assert format_call(call.kind, call.tile, list(call.own), call.offset) == text


def test_kakan_inserts_k_and_added_tile_where_the_pons_p_was() -> None:
    assert parse_call("3636k3636") == Call(StepKind.KAKAN, 36, (36, 36, 36), SHIMOCHA)
    assert format_call(StepKind.KAKAN, 36, [], 0, pon="3636p36") == "3636k3636"
    assert format_call(StepKind.KAKAN, 51, [], 0, pon="p151515") == "k51151515"


def test_own_red_five_is_written_after_its_plain_twin() -> None:
    assert format_call(StepKind.PON, 15, [51, 15], TOIMEN) == "15p1551"
    assert format_call(StepKind.ANKAN, 15, [51, 15, 15], 0) == "151515a51"
