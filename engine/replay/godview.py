"""The engine's own god-view events of a game it replays: a stored game from its seed and
decisions, or a logged game (Tenhou JSON, mjai) whose rounds it plays answered by the log's
decisions (engine.replay.check).

A replay viewer then applies the very events a live table sends its spectators, so it shows
what the engine did, never a second reading of the log; a round the engine does not
reproduce is an error that names the round and the first difference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from engine.actions import ActionCenter, Decision, MultiPlayerInquiry
from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.events import EventBase
from engine.game.events import BeginGame, GameEnded
from engine.game.game import Game
from engine.game.setup import new_game
from engine.replay.check import MatchEnd, replay_round
from engine.replay.mjai_read import read_mjai
from engine.replay.record import GameRecord, ReplayError
from engine.replay.scripted import LogCenter
from engine.replay.tenhou_read import read_game
from engine.rules.config import TENHOU_HANCHAN, RuleConfig


class GodView:
    """An action center around ``inner`` (which still answers every inquiry) that keeps
    every god-view event in order: what a broadcast table's spectators receive."""

    wants_events = True

    def __init__(self, inner: ActionCenter) -> None:
        self.inner = inner
        self.events: list[Any] = []

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if seat is None:
            self.events.append(event)

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.inner.on_inquiry(inquiry)


class RoundFailed(ReplayError):
    """A logged round the engine does not play the log's way; ``label`` names it (``E2-1``)
    and ``reason`` is the first difference."""

    def __init__(self, label: str, reason: str) -> None:
        super().__init__(f"round {label} does not replay: {reason}")
        self.label = label
        self.reason = reason


class Replay(msgspec.Struct, frozen=True):
    """A replayed game: its rules, seat names and the god-view events from BeginGame on."""

    rules: RuleConfig
    names: tuple[str, ...]
    events: list[Any]


def seeded_game(
    rules: RuleConfig, seed: int, decisions: Iterable[Decision], rounds: int | None = None
) -> tuple[Game, list[Any]]:
    """A stored game played again from its seed and decisions (``rounds``: only its first
    hands, those a game that did not end has finished), with its god-view events; the game
    is returned so its round results can be checked against the stored ones."""
    view = GodView(ReplayCenter(decisions))
    game = run_sync(new_game(rules, seed, view, max_rounds=rounds), fill_defaults=True)
    return game, view.events


def logged_game(record: GameRecord) -> list[Any]:
    """The god-view events of a logged game, each round played by the engine from the log's
    wall and answered by the log's decisions (RoundFailed at the first round it does not
    reproduce). The engine plays each round as a game of its own, so one BeginGame opens the
    stream and a GameEnded closes it only where the engine ends the match."""
    rules = record.rules
    if not record.rounds:
        raise ReplayError("the log has no round")
    first = record.rounds[0].scores[: rules.players]
    events: list[Any] = [BeginGame(players=rules.players, scores=first)]
    last = len(record.rounds) - 1
    for i, rnd in enumerate(record.rounds):
        center = LogCenter(rnd, rules.red)
        view = GodView(center)
        end = MatchEnd(i == last, record.final if i == last else ())
        reason = replay_round(rnd, rules, center, view, end)
        if reason is not None:
            raise RoundFailed(rnd.label, reason)
        events += [e for e in view.events if _in_stream(e, i == last)]
    return events


def _in_stream(event: Any, last: bool) -> bool:
    """Each round's own BeginGame is dropped, and its GameEnded unless it is the last."""
    if isinstance(event, BeginGame):
        return False
    return last or not isinstance(event, GameEnded)


def read_log(data: bytes, mjai_rules: RuleConfig = TENHOU_HANCHAN) -> GameRecord:
    """An uploaded log: Tenhou JSON (one object with ``log``) or mjai JSON lines (rules
    ``mjai_rules``, as mjai logs do not state theirs). ReplayError when it is neither."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReplayError("the log is not UTF-8 text") from e
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        doc = None  # several lines: mjai
    try:
        if isinstance(doc, Mapping) and "log" in doc:
            return read_game(dict(doc))
        if doc is None or (isinstance(doc, Mapping) and "type" in doc):
            return read_mjai(text, mjai_rules)
    except ReplayError:
        raise
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise ReplayError(f"unreadable log: {type(e).__name__}: {e}") from e
    raise ReplayError("neither a Tenhou JSON log nor mjai JSON lines")


def replay_log(data: bytes) -> Replay:
    """An uploaded log's god-view events (ReplayError: unreadable; RoundFailed: a round the
    engine does not reproduce)."""
    record = read_log(data)
    return Replay(record.rules, record.names[: record.rules.players], logged_game(record))
