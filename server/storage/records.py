"""Record downloads: our JSON (seed, rules, decisions, results) and the exported log formats.

Tenhou JSON and mjai come from ``engine.replay.export``, which plays the game again from its
seed and the stored decisions, so a download is the engine's own account of the game and
``python -m engine.replay check`` can verify it; the server has no second serialiser.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.actions.types import Decision
from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.game.game import Game
from engine.game.setup import new_game
from engine.replay.export import to_mjai, to_tenhou
from engine.replay.verify import verify_record
from engine.rules.config import RuleConfig
from server.storage.sqlite import Store, StoredGame

FORMATS = ("json", "tenhou", "mjai")
#: statuses of a game that is over: only these records carry the seed (it makes every wall)
OVER = frozenset({"finished", "error", "aborted"})


class NotAvailable(Exception):
    """The engine cannot export this format."""


#: statuses of a game that did not end: its record holds what was played, and says so
UNFINISHED = ("playing", "suspended", "aborted")


def replay(record: StoredGame, rounds: int | None = None) -> Game:
    """The game rebuilt from seed and decisions, played to where the decisions reach
    (``rounds``: only its first hands, the ones a game that did not end has finished)."""
    assert record.seed is not None, "a record served during the game has no seed"
    rules = msgspec.json.decode(record.rules, type=RuleConfig)
    decisions = [Decision(d.inquiry, d.seat, d.action, d.option) for d in record.decisions]
    game = new_game(rules, record.seed, ReplayCenter(decisions), max_rounds=rounds)
    return run_sync(game, fill_defaults=True)


def unfinished(record: StoredGame) -> StoredGame:
    """The record of a game that did not end, labelled: the seed only once it never will
    go on (aborted), since it makes every wall still to be played."""
    hands = len(record.rounds)
    notes = {
        "suspended": f"suspended (the server stopped): the {hands} hands played so far",
        "playing": f"not finished: the {hands} hands played so far",
        "aborted": f"aborted (the engine cannot replay it): the {hands} hands played",
    }
    over = record.status == "aborted"
    seed, salt = (record.seed, record.salt) if over else (None, "")
    return msgspec.structs.replace(record, seed=seed, salt=salt, note=notes.get(record.status, ""))


def verify(record: StoredGame) -> dict[str, bool | list[str]]:
    """The replay viewer's "shuffle verified": engine.replay.verify on the stored record."""
    verdict = verify_record(msgspec.json.decode(msgspec.json.encode(record)))
    return {
        "commitment_ok": verdict.commitment_ok,
        "replay_ok": verdict.replay_ok,
        "practice": verdict.practice,
        "drawn": verdict.drawn,
        "draw_ok": verdict.draw_ok,
        "failures": list(verdict.failures),
    }


def kept_verdict(storage: Store, game: str) -> bytes | None:
    """The verification stored with ``game``'s record, encoded, or None: a game that is over
    never changes, so it is replayed once, however often it is asked for (docs/security.md,
    resources)."""
    rows = storage.query("SELECT data FROM verdicts WHERE game = ?", (game,))
    return rows[0][0].encode() if rows else None


def keep_verdict(storage: Store, game: str, verdict: bytes) -> None:
    storage.execute(
        "INSERT INTO verdicts (game, data) VALUES (?, ?) ON CONFLICT (game) DO NOTHING",
        (game, verdict.decode()),
    )


def export(record: StoredGame, fmt: str) -> tuple[bytes, str]:
    """(body, media type) of the record in ``fmt`` (one of FORMATS). A game that did not
    end exports its finished hands only (NotAvailable for one the engine cannot replay)."""
    partial = record.status in UNFINISHED
    if fmt == "json":
        return msgspec.json.encode(unfinished(record) if partial else record), "application/json"
    if record.status == "aborted":
        raise NotAvailable("the engine cannot replay this game; format=json has its hands")
    if partial and not record.rounds:
        raise NotAvailable("no hand of this game has finished yet")
    game = replay(record, len(record.rounds) if partial else None)
    if fmt == "tenhou":
        log = to_tenhou(
            game,
            record.seats,
            commitment=record.commitment,
            practice=record.practice,
            salt=record.salt,
            draw=record.draw,
        )
        if partial:  # a game that may still go on: its seed would give away every wall
            log.pop("seed", None)
            log.pop("salt", None)  # and its salt would let a small seed be searched for
        return msgspec.json.encode(log), "application/json"
    lines: list[Any] = to_mjai(game, record.seats)
    if record.practice:  # start_game says so, as the Tenhou log and the JSON record do
        lines[0]["practice"] = True
    body = b"\n".join(msgspec.json.encode(line) for line in lines) + b"\n"
    return body, "application/x-ndjson"
