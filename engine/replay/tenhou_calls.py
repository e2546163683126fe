"""Tenhou's call strings (``"c375336"``, ``"41p4141"``, ``"3636k3636"``...) both ways.

The letter gives the call; its position among the 2-digit codes gives the seat the tile came
from (first = kamicha, second = toimen, later = shimocha; a kakan keeps its pon's place);
the code right after the letter is the called (or added) tile.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.replay.record import ReplayError, StepKind

_LETTERS = {
    "c": StepKind.CHII,
    "p": StepKind.PON,
    "m": StepKind.DAIMINKAN,
    "k": StepKind.KAKAN,
    "a": StepKind.ANKAN,
    "f": StepKind.KITA,
}
_LETTER_OF = {v: k for k, v in _LETTERS.items()}


class Call(NamedTuple):
    kind: StepKind
    tile: int  # Tenhou code of the called / added tile (an ankan: its last code)
    own: tuple[int, ...]  # the other codes, in written order
    offset: int  # seats from the caller to the source, (source - caller) % 4; 0 = own tiles


def parse_call(text: str) -> Call:
    """Read one call string. ``offset`` is relative on a four-seat table (1 shimocha,
    2 toimen, 3 kamicha): sanma keeps that geometry with the North seat empty, so the
    source is ``(caller + offset) % 4`` there too."""
    at = next((i for i, ch in enumerate(text) if not ch.isdigit()), -1)
    kind = _LETTERS.get(text[at]) if at >= 0 else None
    digits = text[:at] + text[at + 1 :]
    if kind is None or at % 2 or len(digits) % 2:
        raise ReplayError(f"bad call string {text!r}")
    codes = [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]
    pos = at // 2
    tile = codes[pos]
    own = tuple(codes[:pos] + codes[pos + 1 :])
    if kind in (StepKind.ANKAN, StepKind.KITA):
        return Call(kind, tile, own, 0)
    offset = 3 if pos == 0 else 2 if pos == 1 else 1
    return Call(kind, tile, own, offset)


def code_key(code: int) -> tuple[int, int, int]:
    """Sort key of a Tenhou code: by suit and number, a red five after its plain twins."""
    if code > 50:
        return (code - 50, 5, 1)
    return (code // 10, code % 10, 0)


def _red_last(codes: list[int]) -> list[int]:
    return sorted(codes, key=code_key)


def format_call(kind: StepKind, tile: int, own: list[int], offset: int, pon: str = "") -> str:
    """Write a call string. ``tile`` is the called/added code; ``pon`` is the string of the
    pon a kakan extends (the kakan inserts ``k`` + added tile where the pon's ``p`` was)."""
    letter = _LETTER_OF[kind]
    if kind == StepKind.KAKAN:
        if "p" not in pon:
            raise ReplayError(f"kakan without its pon string {pon!r}")
        return pon.replace("p", f"k{tile}", 1)
    if kind == StepKind.KITA:
        return f"f{tile}"
    if kind == StepKind.CHII:
        rest = sorted(own, key=code_key)
        return "c" + "".join(str(c) for c in [tile, *rest])
    if kind == StepKind.ANKAN:
        codes = _red_last([*own, tile])
        return "".join(str(c) for c in codes[:3]) + "a" + str(codes[3])
    mine = [str(c) for c in _red_last(own)]
    called = f"{letter}{tile}"
    if offset == 1:  # shimocha: the letter comes last
        return "".join(mine) + called
    if offset == 2:  # toimen: after the first own tile
        return mine[0] + called + "".join(mine[1:])
    return called + "".join(mine)
