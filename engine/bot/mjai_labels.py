"""Mortal's action space: which label an engine choice is, and ``meta`` values per label.

Mortal (libriichi) answers each mjai event with its action plus ``meta.mask_bits`` (bit
``i`` set: label ``i`` is legal) and ``meta.q_values`` (one value per set bit, in label
order). Four players, 46 labels: 0..33 discard of a kind (mjai order 1m..9s, E S W N P F C),
34..36 the red 5m 5p 5s, 37 reach, 38 39 40 chi with the called tile the lowest / middle /
highest, 41 pon, 42 any kan, 43 hora, 44 ryukyoku (nine terminals), 45 none (pass).
Three players (the 3p forks mjai-reviewer3p reads), 44 labels: 0..37 as above, 38 pon,
39 kan, 40 nukidora (kita), 41 hora, 42 ryukyoku, 43 none. Our mjai bots answer in the same
terms (engine/bot/mjai, ``--meta``) and engine/review reads any AI that does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.actions.types import ActionType

REACH = 37
_FOUR = {
    ActionType.PON: 41,
    ActionType.DAIMINKAN: 42,
    ActionType.ANKAN: 42,
    ActionType.KAKAN: 42,
    ActionType.TSUMO: 43,
    ActionType.RON: 43,
    ActionType.KYUUSHU: 44,
    ActionType.SKIP: 45,
}
_THREE = {
    ActionType.PON: 38,
    ActionType.DAIMINKAN: 39,
    ActionType.ANKAN: 39,
    ActionType.KAKAN: 39,
    ActionType.KITA: 40,
    ActionType.TSUMO: 41,
    ActionType.RON: 41,
    ActionType.KYUUSHU: 42,
    ActionType.SKIP: 43,
}
#: the labels of a kan (kan_select narrows them down per kind)
KANS = frozenset((42,))
KANS_THREE = frozenset((39,))


def size(players: int) -> int:
    """How many labels the action space has."""
    return 44 if players == 3 else 46


def discard_label(tile: int, red: frozenset[int]) -> int:
    """0..33 by kind, 34..36 for a red 5m / 5p / 5s."""
    kind = tile >> 2
    if tile in red and kind in (4, 13, 22):
        return 34 + kind // 9
    return kind


def label(
    kind: ActionType, tiles: Sequence[int], called: int, players: int, red: frozenset[int]
) -> int | None:
    """The label of one engine choice (``tiles``: the option's own tiles, ``called``: the
    discard a call takes, -1 when none); None for choices Mortal has no label for."""
    if kind == ActionType.DISCARD:
        return discard_label(tiles[0], red)
    if kind == ActionType.RIICHI:
        return REACH
    if kind == ActionType.CHII:
        if players == 3 or called < 0:
            return None
        low, high = sorted(t >> 2 for t in tiles)
        c = called >> 2
        return 38 if c < low else (39 if c < high else 40)
    return (_THREE if players == 3 else _FOUR).get(kind)


def encode(values: Iterable[tuple[int, float]]) -> tuple[int, list[float]]:
    """(mask_bits, q_values) of (label, value) pairs; a label given twice keeps its best."""
    best: dict[int, float] = {}
    for lab, value in values:
        if lab not in best or value > best[lab]:
            best[lab] = value
    mask = 0
    for lab in best:
        mask |= 1 << lab
    return mask, [best[lab] for lab in sorted(best)]


def decode(mask_bits: int, q_values: Sequence[float]) -> dict[int, float]:
    """Label -> value from ``meta``; ValueError when the counts disagree."""
    labels = [i for i in range(64) if mask_bits >> i & 1]
    if len(labels) != len(q_values):
        raise ValueError(f"{len(q_values)} q_values for {len(labels)} mask bits")
    return {lab: float(q) for lab, q in zip(labels, q_values, strict=True)}
