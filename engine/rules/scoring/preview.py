"""The value a waiting hand shows before it wins: the guaranteed minimum of seed 000's tenpai
info, scored as a ron with none of the luck a win might bring."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.rules.config import RuleConfig
from engine.rules.meld import Meld
from engine.rules.scoring import score_hand
from engine.rules.scoring.result import HandResult, WinContext


def preview_value(
    concealed13: Sequence[int],
    melds: Sequence[Meld],
    win_tile_kind: int,
    ctx: WinContext,
    rules: RuleConfig,
) -> HandResult | None:
    """The guaranteed minimum of winning on ``win_tile_kind``: a ron with no luck yaku, no ura,
    and a plain (not red) copy of the tile whenever one is left."""
    used = set(concealed13)
    for m in melds:
        used.update(m.tiles)
    free = [t for t in range(win_tile_kind * 4, win_tile_kind * 4 + 4) if t not in used]
    if not free:
        return None
    plain = [t for t in free if t not in rules.red]
    tile = plain[0] if plain else free[0]
    guaranteed = msgspec.structs.replace(
        ctx, win_tile=tile, tsumo=False, ippatsu=False, haitei=False, houtei=False,
        rinshan=False, chankan=False, tenhou=False, chiihou=False, renhou=False,
        ura_indicators=(),
    )  # fmt: skip
    return score_hand([*concealed13, tile], melds, guaranteed, rules)
