"""A Wall that deals a recorded round exactly (layout contract: engine/rules/wall.py).

Haipai goes to the front of the live wall, dealer first; ordinary draws follow in play
order; replacement draws, dora and ura indicators fill their own lists. Positions the log
never reveals take the tiles nobody saw, lowest id first, so a round builds one wall only.
"""

from __future__ import annotations

from engine.replay.record import ReplayError, RoundRecord, StepKind
from engine.rules.tiles import NUM_TILES, SANMA_REMOVED
from engine.rules.wall import DEAD_WALL, SANMA_EXTRA, Wall

RINSHAN = 4
INDICATORS = 5


def build_wall(record: RoundRecord, players: int = 4) -> Wall:
    dealer = record.dealer
    live: list[int] = []
    for i in range(players):
        live += record.haipai[(dealer + i) % players]
    rinshan: list[int] = []
    for step in record.steps:
        if step.kind == StepKind.DRAW:
            (rinshan if step.rinshan else live).append(step.tile)
    seen = {*live, *rinshan, *record.dora, *record.ura}
    if len(seen) != len(live) + len(rinshan) + len(record.dora) + len(record.ura):
        raise ReplayError(f"{record.label}: one physical tile appears twice")
    everything = [t for t in range(NUM_TILES) if not (players == 3 and t >> 2 in SANMA_REMOVED)]
    unused = iter([t for t in everything if t not in seen])
    # sanma kita and kans may need more than four replacement tiles: the fifth on are the
    # tiles the live wall gave up to the dead wall, live[-1] first (Wall.draw_rinshan)
    extra = rinshan[RINSHAN:]
    rinshan = rinshan[:RINSHAN]
    live_size = len(everything) - DEAD_WALL
    if len(live) + len(extra) > live_size or len(record.dora) > INDICATORS:
        raise ReplayError(f"{record.label}: more draws or kans than a wall holds")
    live += [next(unused) for _ in range(live_size - len(live) - len(extra))]
    live += extra[::-1]
    rinshan += [next(unused) for _ in range(RINSHAN - len(rinshan))]
    dora = [*record.dora] + [next(unused) for _ in range(INDICATORS - len(record.dora))]
    ura = [*record.ura] + [next(unused) for _ in range(INDICATORS - len(record.ura))]
    return Wall(live, rinshan, dora, ura, SANMA_EXTRA if players == 3 else 0)
