"""Export any game the engine played as Tenhou JSON or mjai.

The game is played again from its seed and decisions (same start, walls and length) with a
Recorder around the answers, so the export is the engine's own account of every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.game.game import Game, RoundStart
from engine.replay.mjai_write import mjai_events
from engine.replay.record import GameRecord
from engine.replay.recorder import Recorder
from engine.replay.tenhou_write import write_game


def record_game(game: Game, names: Sequence[str] = ()) -> GameRecord:
    """The round records of ``game`` (finished or not: what its decisions reach)."""
    first = game.rounds[0] if game.rounds else None
    start = RoundStart(first.kyoku, first.honba, first.kyotaku, first.scores) if first else None
    recorder = Recorder(ReplayCenter(game.decisions), game.n)
    again = Game(
        game.rules,
        game.seed,
        recorder,
        start=start,
        walls=game.walls,
        max_rounds=game.max_rounds,
    )
    run_sync(again, fill_defaults=True)
    return GameRecord(
        rules=game.rules,
        rounds=tuple(recorder.rounds),
        names=tuple(names),
        final=recorder.final,
    )


def to_tenhou(game: Game, names: Sequence[str] = ()) -> dict[str, Any]:
    """tenhou.net/6 JSON, as Tenhou's viewer and NAGA / mjai-reviewer load it."""
    return write_game(record_game(game, names))


def to_mjai(game: Game, names: Sequence[str] = ()) -> list[dict[str, Any]]:
    """mjai events from start_game to end_game, one dict per line."""
    return mjai_events(record_game(game, names))
