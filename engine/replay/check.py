"""Replay recorded rounds through the real engine and say which ones it reproduces."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import msgspec

from engine.actions import ActionCenter
from engine.driver import run_sync
from engine.events import AFTER
from engine.game.events import GameEnded
from engine.game.game import Game
from engine.game.results import RoundStart
from engine.game.setup import new_game
from engine.replay.compare import compare_end
from engine.replay.mjai_read import read_mjai
from engine.replay.record import GameRecord, ReplayError, RoundRecord, engine_kyoku
from engine.replay.recorder import Recorder
from engine.replay.scripted import LogCenter, Mismatch
from engine.replay.tenhou_read import read_game
from engine.replay.wallbuild import build_wall
from engine.rules.config import TENHOU_HANCHAN, RuleConfig


class RoundVerdict(msgspec.Struct, frozen=True):
    label: str
    reason: str | None  # None: the engine reproduced the round
    #: wins the engine offered that the log passed up (legal, but where a furiten or yaku
    #: bug would show: see LogCenter.declined)
    declined: tuple[str, ...] = ()
    #: this round is the log's last and the log states its final scores: the engine was
    #: checked to end the match here with them
    final: bool = False
    #: what the log does not say (or contradicts) and the check therefore did not assume
    notes: tuple[str, ...] = ()

    @property
    def matched(self) -> bool:
        return self.reason is None


def check_round(record: RoundRecord, rules: RuleConfig) -> str | None:
    """None when the engine, answered with the log's decisions, plays the round exactly."""
    return verdict(record, rules).reason


def verdict(
    record: RoundRecord, rules: RuleConfig, end: MatchEnd | None = None, notes: tuple[str, ...] = ()
) -> RoundVerdict:
    """Replay one round; ``end`` also checks whether the match ends after it (see MatchEnd)."""
    center = LogCenter(record, rules.red)
    reason = replay_round(record, rules, center, end=end)
    final = end is not None and bool(end.final)
    notes = (*notes, *record.notes)
    return RoundVerdict(record.label, reason, tuple(center.declined), final, notes)


class MatchEnd(msgspec.Struct, frozen=True):
    """What a log says about the match after one round: it goes on (``last`` False), or it
    ends there, with Tenhou's ``sc`` (points and placement result per seat) when known."""

    last: bool
    final: tuple[float, ...] = ()
    #: the results in ``final`` were cut to whole numbers (GameRecord.truncated)
    truncated: bool = False


def _check_end(game: Game, ended: GameEnded | None, end: MatchEnd) -> str | None:
    """None when the engine ends the match where the log does, with the log's results."""
    if not end.last:
        return "engine ended the match; the log goes on" if game.over else None
    if not end.final:  # a log without its final scores: whether it is complete is unknown
        return None
    if ended is None:
        return "the log's match ends here; the engine plays on"
    n = game.n
    scores = tuple(int(x) for x in end.final[0 : 2 * n : 2])
    points = tuple(float(x) for x in end.final[1 : 2 * n : 2])
    if ended.scores != scores:
        return f"final scores {list(ended.scores)}, log {list(scores)}"
    mine = [float(math.trunc(round(p, 1))) if end.truncated else p for p in ended.points]
    if any(abs(a - b) > 0.05 for a, b in zip(mine, points, strict=True)):
        return f"placement points {list(ended.points)}, log {list(points)}"
    return None


def rerecord_round(record: RoundRecord, rules: RuleConfig) -> RoundRecord:
    """The engine's own record of a logged round it replays (raises when it cannot)."""
    center = LogCenter(record, rules.red)
    recorder = Recorder(center, rules.players)
    reason = replay_round(record, rules, center, recorder)
    if reason is not None or len(recorder.rounds) != 1:
        raise Mismatch(reason or "no round recorded")
    return recorder.rounds[0]


def replay_round(
    record: RoundRecord,
    rules: RuleConfig,
    center: LogCenter,
    outer: ActionCenter | None = None,
    end: MatchEnd | None = None,
) -> str | None:
    """None when the engine, answered by ``center``, plays the round the log's way, else
    the first difference. ``outer`` (wrapping ``center``) is the game's action center when
    a caller wants the events too (engine.replay.godview, the recorder)."""
    wall = build_wall(record, rules.players)
    kyoku = engine_kyoku(record.kyoku, rules.players)
    start = RoundStart(kyoku, record.honba, record.kyotaku, record.scores[: rules.players])
    game = new_game(rules, 0, outer or center, start=start, walls=lambda _i: wall, max_rounds=1)
    center.game = game
    ended: list[GameEnded] = []
    game.bus.subscribe(GameEnded, ended.append, AFTER)
    try:
        run_sync(game)
    except Mismatch as e:
        return str(e)
    except Exception as e:  # an engine crash on a real log is a finding, not the end of a run
        return f"engine error at step {center.pos}: {type(e).__name__}: {e}"
    if center.pos < len(record.steps):
        step = record.steps[center.pos]
        return f"engine ended the round at step {center.pos}; log goes on: {center.show(step)}"
    if not game.rounds:
        return "engine ended no round"
    reason = compare_end(record.end, game.rounds[-1], record.dora)
    if reason is None and end is not None:
        reason = _check_end(game, ended[0] if ended else None, end)
    return reason


def check_game(game: GameRecord) -> list[RoundVerdict]:
    """Every round, and after each whether the match ends where the log ends."""
    last = len(game.rounds) - 1
    return [
        verdict(
            r,
            game.rules,
            MatchEnd(i == last, game.final if i == last else (), game.truncated),
            game.notes if i == 0 else (),
        )
        for i, r in enumerate(game.rounds)
    ]


def read_path(path: Path, mjai_rules: RuleConfig = TENHOU_HANCHAN) -> GameRecord:
    """A Tenhou JSON (``*.json``, rules from the log) or mjai lines (``*.jsonl``,
    ``*.mjson``: ``mjai_rules``, as mjai logs do not state theirs) file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".jsonl", ".mjson"):
        return read_mjai(text, mjai_rules)
    return read_game(json.loads(text))


def log_files(paths: list[str]) -> Iterator[Path]:
    """The files named, and the game logs inside the folders named, sorted."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for ext in ("*.json", "*.jsonl", "*.mjson"):
                yield from sorted(path.rglob(ext))
        else:
            yield path


def check_file(path: Path, mjai_rules: RuleConfig = TENHOU_HANCHAN) -> list[RoundVerdict]:
    try:
        game = read_path(path, mjai_rules)
    except (ReplayError, ValueError, KeyError, IndexError, TypeError) as e:
        return [RoundVerdict("log", f"unreadable: {type(e).__name__}: {e}")]
    return check_game(game)
