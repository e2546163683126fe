"""Tile-notation helpers for scoring tests: ``win("123m456p789s23455s", "3s", riichi=True)``.

Every hand ``win`` scores is also scored by the specification (``spec.spec_score``), which must
agree: each hand-written yaku test is a differential test too, for the rare yaku and rule
switches that random hands seldom reach.
"""

from __future__ import annotations

import msgspec

from engine.rules import tiles
from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.meld import Meld, MeldType
from engine.rules.scoring import HandResult, WinContext, score_hand
from engine.rules.scoring.spec import spec_score

_TYPES = {
    "chii": MeldType.CHII,
    "pon": MeldType.PON,
    "minkan": MeldType.DAIMINKAN,
    "kakan": MeldType.KAKAN,
    "ankan": MeldType.ANKAN,
}
_WIND = {"E": 27, "S": 28, "W": 29, "N": 30}


def deal(hand: str, melds: tuple[str, ...]) -> tuple[list[int], list[Meld]]:
    """Physical ids of ``hand`` and of melds written ``"pon:555z"``, all distinct."""
    parts = [hand, *(m.split(":")[1] for m in melds)]
    ids = tiles.parse("".join(parts))
    concealed = ids[: len(tiles.parse_kinds(hand))]
    rest = ids[len(concealed) :]
    out: list[Meld] = []
    for m in melds:
        kind, text = m.split(":")
        n = len(tiles.parse_kinds(text))
        group, rest = tuple(sorted(rest[:n])), rest[n:]
        t = _TYPES[kind]
        out.append(Meld(t, group, -1 if t == MeldType.ANKAN else group[0]))
    return concealed, out


def win(
    hand: str,
    tile: str,
    *melds: str,
    tsumo: bool = False,
    seat: str = "S",
    round_: str = "E",
    rules: RuleConfig = TENHOU_HANCHAN,
    dora: str = "",
    ura: str = "",
    **flags: bool | int,
) -> HandResult | None:
    """Score ``hand`` (concealed, including the winning ``tile``) with the given melds."""
    concealed, meld_list = deal(hand, melds)
    ((win_kind, win_red),) = tiles.parse_kinds(tile)
    win_tile = next(
        t for t in reversed(concealed) if t >> 2 == win_kind and (t in rules.red) == win_red
    )
    taken = set(concealed).union(*(m.tiles for m in meld_list))
    free = [t for t in range(136) if t not in taken]

    def indicators(text: str) -> tuple[int, ...]:
        kinds = tiles.kinds_from_str(text) if text else []
        return tuple(next(t for t in free if t >> 2 == k) for k in kinds)

    ctx = WinContext(
        win_tile=win_tile,
        tsumo=tsumo,
        seat_wind=_WIND[seat],
        round_wind=_WIND[round_],
        dora_indicators=indicators(dora),
        ura_indicators=indicators(ura),
        **flags,  # type: ignore[arg-type]
    )
    result = score_hand(concealed, meld_list, ctx, rules)
    spec = spec_score(concealed, meld_list, ctx, rules)
    assert comparable(result) == comparable(spec), f"fast: {result}\nspec: {spec}"
    return result


def comparable(result: HandResult | None) -> HandResult | None:
    """A result with its yakuman entries in name order: the fast scorer lists them in the
    order it finds them, the spec in ``YAKUMAN``'s (regular yaku: ``REGULAR``'s in both)."""
    if result is None or not result.yakuman or result.fu:
        return result
    return msgspec.structs.replace(result, yaku=tuple(sorted(result.yaku, key=lambda y: y.name)))


def names(result: HandResult | None) -> set[str]:
    """The yaku ids of a result; empty when the hand does not win."""
    return {y.name for y in result.yaku} if result else set()
