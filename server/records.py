"""Record downloads: our JSON (seed, rules, decisions, results) and the exported log formats.

Tenhou JSON and mjai come from ``engine.replay.export``, which plays the game again from its
seed and the stored decisions, so a download is the engine's own account of the game and
``python -m engine.replay check`` can verify it; the server has no second serialiser.
"""

from __future__ import annotations

import importlib
from typing import Any

import msgspec

from engine.actions.types import Decision
from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.game.game import Game
from engine.replay.verify import verify_record
from engine.rules.config import RuleConfig
from server.storage import GameRecord

FORMATS = ("json", "tenhou", "mjai")
#: statuses of a game that is over: only these records carry the seed (it makes every wall)
OVER = frozenset({"finished", "error", "aborted"})


class NotAvailable(Exception):
    """The engine cannot export this format."""


def replay(record: GameRecord) -> Game:
    """The game rebuilt from seed and decisions, played to where the decisions reach."""
    assert record.seed is not None, "a record served during the game has no seed"
    rules = msgspec.json.decode(record.rules, type=RuleConfig)
    decisions = [Decision(d.inquiry, d.seat, d.action, d.option) for d in record.decisions]
    return run_sync(Game(rules, record.seed, ReplayCenter(decisions)), fill_defaults=True)


def verify(record: GameRecord) -> dict[str, bool | list[str]]:
    """The replay viewer's "shuffle verified": engine.replay.verify on the stored record."""
    verdict = verify_record(msgspec.json.decode(msgspec.json.encode(record)))
    return {
        "commitment_ok": verdict.commitment_ok,
        "replay_ok": verdict.replay_ok,
        "practice": verdict.practice,
        "failures": list(verdict.failures),
    }


def export(record: GameRecord, fmt: str) -> tuple[bytes, str]:
    """(body, media type) of the record in ``fmt`` (one of FORMATS)."""
    if fmt == "json":
        return msgspec.json.encode(record), "application/json"
    try:
        exporter = importlib.import_module("engine.replay.export")
    except ImportError as exc:
        raise NotAvailable(f"{fmt} export needs engine.replay.export") from exc
    game = replay(record)
    if fmt == "tenhou":
        log = exporter.to_tenhou(
            game, record.seats, commitment=record.commitment, practice=record.practice
        )
        return msgspec.json.encode(log), "application/json"
    lines: list[Any] = exporter.to_mjai(game, record.seats)
    body = b"\n".join(msgspec.json.encode(line) for line in lines) + b"\n"
    return body, "application/x-ndjson"
