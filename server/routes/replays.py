"""Replays: the engine's god-view events of a stored game that is over, or of an uploaded
game log, for the browser's replay viewer.

The events are encoded exactly as a live table sends them to its spectators, so the viewer
applies them through the table's own model; the rule facts the client needs to draw the table
(seats, red fives, the wall at the deal) come from the game's RuleConfig, never a constant of
the client. A game still in play is never replayed: its god view holds every concealed tile.
"""

from __future__ import annotations

from typing import Any

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response

from engine.actions.types import Decision
from engine.replay.godview import Replay, replay_log, seeded_game
from engine.replay.record import ReplayError
from engine.rules.config import RuleConfig
from engine.rules.facts import rule_facts
from server.edge.codec import encode_raw
from server.edge.limits import Guard
from server.edge.messaging import RuleFacts
from server.edge.web import error, json_response, read_bytes
from server.routes.games import Heavy, RecordCache, round_running
from server.session.hub import Hub
from server.storage.sqlite import StoredGame

#: statuses of a stored game whose replay is served: over, or stopped with the server (its
#: finished hands only); a game in play ("playing") never
REPLAYABLE = frozenset({"finished", "aborted", "suspended", "error"})


class ReplayBody(msgspec.Struct):
    """``GET /api/games/{id}/replay`` and ``POST /api/replay``: the god-view events from
    BeginGame on, as the live table encodes them."""

    rules: RuleFacts
    names: list[str]
    events: list[msgspec.Raw]
    #: the stored game's id (null for an uploaded log) and status
    game: str | None = None
    status: str = ""


class NotReplayable(Exception):
    """A stored game the engine does not replay to its record (the message says where)."""


def body(rules: RuleConfig, names: list[str], events: list[Any], **extra: Any) -> ReplayBody:
    facts = msgspec.convert(rule_facts(rules), RuleFacts)
    return ReplayBody(facts, names, [encode_raw(e) for e in events], **extra)


def stored(record: StoredGame) -> ReplayBody:
    """A stored game played again from its seed and decisions; one that did not finish
    only up to its last finished hand. Each replayed hand must end as its record says."""
    if record.seed is None:
        raise NotReplayable("the record has no seed")
    rules = msgspec.json.decode(record.rules, type=RuleConfig)
    decisions = [Decision(d.inquiry, d.seat, d.action, d.option) for d in record.decisions]
    partial = record.status != "finished"
    if partial and not record.rounds:
        raise NotReplayable("no hand of this game has finished")
    try:
        rounds = len(record.rounds) if partial else None
        game, events = seeded_game(rules, record.seed, decisions, rounds)
    except Exception as e:  # a game the engine no longer plays (aborted) can go anywhere
        raise NotReplayable(f"the engine cannot replay it: {type(e).__name__}: {e}") from e
    played = [msgspec.json.decode(msgspec.json.encode(r)) for r in game.rounds]
    for i, kept in enumerate(record.rounds):
        if i >= len(played) or played[i] != msgspec.json.decode(kept):
            raise NotReplayable(f"hand {i + 1} does not replay as it was played")
    return body(rules, list(record.seats), events, game=record.id, status=record.status)


def uploaded(data: bytes) -> ReplayBody:
    """An uploaded Tenhou JSON or mjai log (ReplayError, naming the round that does not
    replay and its first difference)."""
    replay: Replay = replay_log(data)
    return body(replay.rules, list(replay.names), replay.events)


class ReplayApi:
    def __init__(self, hub: Hub, guard: Guard, heavy: Heavy | None = None) -> None:
        self.hub = hub
        self.guard = guard
        self.heavy = heavy or Heavy()
        #: replays of finished games (they never change) by game id
        self.cache = RecordCache(hub.settings.record_cache)

    async def _refused(self, request: Request) -> Response | None:
        client = self.guard.client(request.client, request.headers)
        return await self.guard.check_rate(self.guard.replays, client, "replays")

    async def game_replay(self, request: Request) -> Response:
        """A stored game's god view: 404 unknown, 409 while it is played (fairness)."""
        game = request.path_params["game"]
        sealed = await round_running(self.hub.storage, game)
        if sealed is not None:
            return sealed
        hit = self.cache.get((game, "replay"))
        if hit is not None:
            return Response(hit[0], media_type=hit[1])
        record = await anyio.to_thread.run_sync(self.hub.storage.load, game)
        if record is None:
            return error("no_game", "no such game", 404)
        if record.status not in REPLAYABLE:
            return error("playing", "a game is replayed when it is over", 409)
        refused = await self._refused(request)  # only a replay the engine will play counts
        if refused is not None:
            return refused
        try:
            replay = await self.heavy.run(stored, record)
        except NotReplayable as e:
            return error("not_replayable", str(e), 409)
        encoded = msgspec.json.encode(replay)
        if record.status == "finished":
            self.cache.put((game, "replay"), (encoded, "application/json"))
        return Response(encoded, media_type="application/json")

    async def upload(self, request: Request) -> Response:
        """An uploaded log's god view; 422 with the round and first difference when the
        engine does not play it the log's way."""
        refused = await self._refused(request)
        if refused is not None:
            return refused
        data = await read_bytes(request, self.hub.settings.max_log)
        if isinstance(data, Response):
            return data
        try:
            replay = await self.heavy.run(uploaded, data)
        except ReplayError as e:
            return error("bad_log", str(e), 422)
        except RecursionError:  # JSON nested thousands deep: no game log is
            return error("bad_log", "the log is nested too deeply to be a game log", 422)
        return json_response(replay)
