"""The smallest hands for the rules the Tenhou corpus forced (docs/replay-findings.md) that
the engine's own scenario tests do not already pin."""

from __future__ import annotations

from engine.actions import ActionType as A
from engine.game import RoundStart
from tests.engine.table import PAO_QUIET, make_wall, pao_dragon_script, play


def test_pao_on_a_tsumo_pays_the_whole_composite_yakuman_and_the_honba() -> None:
    """2019103023gm-00a9-0000-f90e0fe9 E4-3, made small: seat 1 pons the three dragons, seat 2
    feeds the last one, then seat 1 draws its tanki 2z: daisangen + tsuuiisou, 16000-32000.
    The feeder pays all of it and the honba; the others pay nothing."""
    wall = make_wall(
        [PAO_QUIET[0], "55z66z77z111z2z1s2s3s", PAO_QUIET[1], PAO_QUIET[2]],
        draws="5z6z7z" + "3z3z3z" + "2z",
    )
    script = pao_dragon_script(A.TSUMO)
    start = RoundStart(0, 1, 0, (25000,) * 4)
    game, _ = play([wall], script, start=start)
    (win,) = game.rounds[0].wins
    assert {y.name for y in win.result.yaku} == {"daisangen", "tsuuiisou"}
    assert win.pao_seat == 2
    assert game.rounds[0].deltas == (0, 64300, -64300, 0)
