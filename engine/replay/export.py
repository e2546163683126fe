"""Export any game the engine played as Tenhou JSON or mjai.

The game is played again from its seed and decisions (same start, walls and length) with a
Recorder around the answers, so the export is the engine's own account of every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.game.game import Game
from engine.game.results import RoundStart
from engine.game.setup import new_game
from engine.replay.mjai_write import mjai_events
from engine.replay.record import GameRecord
from engine.replay.recorder import Recorder
from engine.replay.tenhou_write import write_game
from engine.rules.wall import seed_commitment


def record_game(
    game: Game,
    names: Sequence[str] = (),
    *,
    commitment: str = "",
    practice: bool = False,
    salt: str = "",
    draw: Sequence[int] | None = None,
) -> GameRecord:
    """The round records of ``game`` (finished or not: what its decisions reach), with its
    seed, the commitment published for it (computed from the seed when not given) and the
    seat draw (engine.rules.bagime; None: the players sat as they joined). ``names`` are by
    seat, so a drawn game names its players in their drawn seats."""
    first = game.rounds[0] if game.rounds else None
    start = RoundStart(first.kyoku, first.honba, first.kyotaku, first.scores) if first else None
    recorder = Recorder(ReplayCenter(game.decisions), game.n)
    again = new_game(
        game.rules,
        game.seed,
        recorder,
        start=start,
        walls=game.walls,
        max_rounds=game.max_rounds,
    )
    run_sync(again, fill_defaults=True)
    seed = game.seed if isinstance(game.seed, int) else None
    return GameRecord(
        rules=game.rules,
        rounds=tuple(recorder.rounds),
        names=tuple(names),
        final=recorder.final,
        seed=seed,
        commitment=commitment or ("" if seed is None else seed_commitment(seed, salt)),
        salt=salt,
        practice=practice,
        draw=None if draw is None else tuple(draw),
    )


def to_tenhou(
    game: Game,
    names: Sequence[str] = (),
    *,
    commitment: str = "",
    practice: bool = False,
    salt: str = "",
    draw: Sequence[int] | None = None,
) -> dict[str, Any]:
    """tenhou.net/6 JSON, as Tenhou's viewer and NAGA / mjai-reviewer load it, plus our
    ``seed``, ``commitment``, ``practice``, ``draw`` (and a v2 commitment's ``salt``) keys
    (see tenhou_write)."""
    record = record_game(
        game, names, commitment=commitment, practice=practice, salt=salt, draw=draw
    )
    return write_game(record)


def to_mjai(game: Game, names: Sequence[str] = ()) -> list[dict[str, Any]]:
    """mjai events from start_game to end_game, one dict per line."""
    return mjai_events(record_game(game, names))
