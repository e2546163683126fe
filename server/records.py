"""Record downloads: our JSON (seed, rules, decisions, results) and the exported log formats.

Tenhou JSON and mjai are made by replaying the stored decisions on the seeded game with the
engine and handing the finished game to ``engine.replay``'s exporters, so a download is the
engine's own account of the game, not a second serialiser.
"""

from __future__ import annotations

import importlib
from typing import Any

import msgspec

from engine.actions.inquiry import MultiPlayerInquiry
from engine.game.game import Game
from engine.rules.config import RuleConfig
from server.storage import GameRecord

FORMATS = ("json", "tenhou", "mjai")


class NotAvailable(Exception):
    """The engine cannot export this format yet."""


class _Scripted:
    """Answers each inquiry with the stored decisions, in the order they were taken."""

    wants_events = False

    def __init__(self, record: GameRecord) -> None:
        self._by_inquiry: dict[int, list[tuple[int, int, int]]] = {}
        for d in record.decisions:
            self._by_inquiry.setdefault(d.inquiry, []).append((d.seat, d.action, d.option))

    def on_event(self, seat: int | None, event: Any) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for seat, action, option in self._by_inquiry.pop(inquiry.id, []):
            if not inquiry.done:
                inquiry.respond(seat, action, option)
        if not inquiry.done:  # the game ended on the server before this was answered
            inquiry.respond_defaults()


def replay(record: GameRecord) -> Game:
    """The finished game, rebuilt from seed and decisions."""
    rules = msgspec.json.decode(record.rules, type=RuleConfig)
    game = Game(rules, record.seed, _Scripted(record))
    coro = game.run()
    try:
        while True:
            coro.send(None)
    except StopIteration:
        pass
    return game


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
        return msgspec.json.encode(exporter.to_tenhou(game)), "application/json"
    lines: list[Any] = exporter.to_mjai(game)
    body = b"\n".join(msgspec.json.encode(line) for line in lines) + b"\n"
    return body, "application/x-ndjson"
