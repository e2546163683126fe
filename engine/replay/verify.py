"""Verify a finished game's shuffle: the seed matches the commitment published before the
first deal, and the game follows from the seed.

Two inputs (already parsed JSON; reading files is the CLI's business):

* our JSON record (the server's ``GET /api/games/{id}/record``): the game is played again
  from ``seed`` + ``decisions`` by the real engine, every decision must be taken exactly as
  stored (none refused, none left over, no inquiry unanswered), and the replay must end every
  round exactly as ``rounds`` says and the game with ``result.scores``;
* a Tenhou JSON export carrying ``seed`` (engine.replay.tenhou_write): every round's haipai,
  draws, replacement draws and indicators must be the ones ``seeded_wall(seed, i)`` holds.

Either may carry ``draw``, the seats drawn at the start (engine.rules.bagime): it must be
``bagime(seed, players)``. A record without one (from before seats were drawn) seats its
players as they joined and verifies as before.

Every failure is one line; a verdict with none is a verified game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.actions.types import Decision, InvalidResponse
from engine.centers import ReplayCenter
from engine.driver import Unanswered, run_sync
from engine.game.results import RoundResult
from engine.game.setup import new_game
from engine.replay.record import ReplayError, RoundRecord, StepKind
from engine.replay.tenhou_read import read_game
from engine.rules.bagime import bagime
from engine.rules.config import RuleConfig
from engine.rules.tiles import to_tenhou
from engine.rules.wall import Wall, seed_commitment, seeded_wall


class Verdict(msgspec.Struct, frozen=True):
    """What a verification found; ``failures`` has one line per problem."""

    commitment_ok: bool
    #: our record: the replay reproduced it; a Tenhou log: every wall follows from the seed
    replay_ok: bool
    practice: bool
    failures: tuple[str, ...] = ()
    rounds: int = 0
    #: the seats were drawn (the record carries ``draw``) and the draw is the seed's
    drawn: bool = False
    #: False only when the record carries a draw the seed does not give
    draw_ok: bool = True

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.replay_ok and self.draw_ok


def check_commitment(seed: object, commitment: object, salt: object = "") -> str | None:
    """None when ``commitment`` is the commitment to ``seed`` (v2 with its ``salt``, v1 for a
    record without one), else why not."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        return "no seed: a record served before the game ended has none"
    if not isinstance(commitment, str) or not commitment:
        return "no commitment: the seed was not committed to before the game"
    if not isinstance(salt, str):
        return f"the salt must be text, not {salt!r}"
    if seed_commitment(seed, salt) != commitment.lower():
        return f"commitment {commitment[:16]}... is not the commitment to seed {seed}"
    return None


def check_draw(seed: int, players: int, draw: object) -> str | None:
    """None when ``draw`` is absent (an old record) or the seat draw ``seed`` gives."""
    if draw is None:
        return None
    expected = list(bagime(seed, players))
    if not isinstance(draw, list | tuple) or list(draw) != expected:
        return f"the seat draw {draw!r} is not the one the seed gives {expected}"
    return None


def _draw_verdict(verdict: Verdict, seed: int, players: int, draw: object) -> Verdict:
    """``verdict`` with the seat draw checked."""
    failure = check_draw(seed, players, draw)
    if failure is not None:
        failures = (*verdict.failures, failure)
        return msgspec.structs.replace(verdict, failures=failures, draw_ok=False)
    return msgspec.structs.replace(verdict, drawn=draw is not None)


def verify_record(doc: Mapping[str, Any]) -> Verdict:
    """Verify our JSON record (see the module docstring)."""
    seed = doc.get("seed")
    practice = doc.get("practice") is True
    committed = check_commitment(seed, doc.get("commitment"), doc.get("salt") or "")
    failures = [committed] if committed is not None else []
    if not isinstance(seed, int) or isinstance(seed, bool):
        return Verdict(False, False, practice, tuple(failures))
    replayed = _replay_failures(doc, seed)
    failures += replayed
    rounds = doc.get("rounds")
    count = len(rounds) if isinstance(rounds, list) else 0
    verdict = Verdict(committed is None, not replayed, practice, tuple(failures), count)
    rules = doc.get("rules")
    players = rules.get("players", 4) if isinstance(rules, Mapping) else 4
    return _draw_verdict(verdict, seed, players if isinstance(players, int) else 4, doc.get("draw"))


def _replay_failures(doc: Mapping[str, Any], seed: int) -> list[str]:
    try:
        rules = msgspec.convert(doc["rules"], RuleConfig)
        decisions = [Decision(*map(int, d[:4])) for d in doc["decisions"]]
        stored = list(doc["rounds"])
        result = doc.get("result") or {}
    except (KeyError, TypeError, ValueError, msgspec.ValidationError) as e:
        return [f"unreadable record: {type(e).__name__}: {e}"]
    game = new_game(rules, seed, ReplayCenter(decisions))
    try:
        run_sync(game)
    except (Unanswered, InvalidResponse) as e:
        return [f"the decisions do not replay from the seed: {e}"]
    except Exception as e:  # a tampered decision can drive the engine anywhere
        return [f"the replay failed: {type(e).__name__}: {e}"]
    failures = _decision_failures(decisions, game.decisions)
    failures += _round_failures(stored, game.rounds)
    scores = result.get("scores") if isinstance(result, Mapping) else None
    if scores is not None and list(scores) != list(game.scores):
        failures.append(f"final scores {list(scores)} are not the replay's {list(game.scores)}")
    return failures


def _decision_failures(stored: Sequence[Decision], taken: Sequence[Decision]) -> list[str]:
    """Every stored decision must be one the replay took, in the same order."""
    for i, (mine, theirs) in enumerate(zip(stored, taken, strict=False)):
        if mine != theirs:
            shown, took = msgspec.structs.astuple(mine), msgspec.structs.astuple(theirs)
            return [f"decision {i} {shown} is not the one the replay took {took}"]
    if len(stored) != len(taken):
        return [f"the record has {len(stored)} decisions, the replay took {len(taken)}"]
    return []


def _label(kyoku: int, honba: int) -> str:
    return f"{'ESWN'[kyoku // 4 % 4]}{kyoku % 4 + 1}-{honba}"


def _round_failures(stored: Sequence[Any], played: Sequence[RoundResult]) -> list[str]:
    failures = []
    for i, result in enumerate(played[: len(stored)]):
        mine = msgspec.json.decode(msgspec.json.encode(result))
        theirs = stored[i]
        if mine != theirs:
            keys = sorted(
                k for k in mine if not isinstance(theirs, dict) or theirs.get(k) != mine[k]
            )
            label = _label(result.kyoku, result.honba)
            failures.append(f"round {i} ({label}): stored {', '.join(keys)} differ from the replay")
    if len(stored) != len(played):
        failures.append(f"the record has {len(stored)} rounds, the replay played {len(played)}")
    return failures


def verify_tenhou(doc: Mapping[str, Any]) -> Verdict:
    """Verify a Tenhou JSON export that carries its seed (see the module docstring)."""
    try:
        game = read_game(dict(doc))
    except (ReplayError, KeyError, IndexError, TypeError, ValueError) as e:
        return Verdict(False, False, False, (f"unreadable log: {type(e).__name__}: {e}",))
    committed = check_commitment(game.seed, game.commitment, game.salt)
    failures = [committed] if committed is not None else []
    if game.seed is None:
        return Verdict(False, False, game.practice, tuple(failures))
    walls = []
    for i, rec in enumerate(game.rounds):
        wall = seeded_wall(game.seed, i, game.rules.sanma)
        reason = wall_failure(rec, wall, game.rules)
        if reason is not None:
            walls.append(f"round {i} ({rec.label}): {reason}")
    failures += walls
    count = len(game.rounds)
    verdict = Verdict(committed is None, not walls, game.practice, tuple(failures), count)
    return _draw_verdict(verdict, game.seed, game.rules.players, game.draw)


def wall_failure(rec: RoundRecord, wall: Wall, rules: RuleConfig) -> str | None:
    """None when the round's haipai, draws and indicators are the ones ``wall`` holds.

    Logs name tiles by kind (and red or not), so tiles are compared by their Tenhou code."""
    players = rules.players

    def codes(tiles: Sequence[int]) -> list[int]:
        return [to_tenhou(t, rules.red) for t in tiles]

    hands = wall.deal(players, rec.dealer)
    for seat in range(players):
        if sorted(codes(rec.haipai[seat])) != sorted(codes(hands[seat])):
            return f"seat {seat}'s haipai is not the seed's"
    live = [s.tile for s in rec.steps if s.kind == StepKind.DRAW and not s.rinshan]
    rinshan = [s.tile for s in rec.steps if s.kind == StepKind.DRAW and s.rinshan]
    checks = (
        ("draw", live, wall.live[wall.pos :]),
        ("replacement draw", rinshan, wall.rinshan),
        ("dora indicator", list(rec.dora), wall.dora),
        ("ura indicator", list(rec.ura), wall.ura),
    )
    for what, logged, expected in checks:
        if len(logged) > len(expected):
            return f"{len(logged)} {what}s, the seed's wall has {len(expected)}"
        mine, theirs = codes(logged), codes(expected[: len(logged)])
        for n, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if a != b:
                return f"{what} {n} is tile {a}, the seed's wall has {b}"
    return None


def verify_document(doc: object) -> Verdict:
    """Our record or a Tenhou export, told apart by their keys."""
    if isinstance(doc, Mapping) and "log" in doc:
        return verify_tenhou(doc)
    if isinstance(doc, Mapping) and "decisions" in doc:
        return verify_record(doc)
    return Verdict(False, False, False, ("neither our JSON record nor a Tenhou JSON log",))
