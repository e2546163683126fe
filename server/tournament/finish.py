"""A tournament game's end: its match points and the new standings in the transaction that
marks it finished, and the round revealed when it was the round's last table.

``standings_hook`` is (part of) the store's ``finish_hook`` (server/storage/sqlite.py): it
first locks the tournament's row, so two tables ending at once on two nodes take turns and
the second sees the first's points. One commit holds the game's end, its table's points,
the standings and, for the last table of a round, ``revealed``: a kill -9 before it leaves
the game unfinished (it resumes, ends again and is counted then), after it everything is
counted once. The points are the preset's own result (``placement_points``, the function
that makes the engine's ``GameEnded.points``), computed from the stored final scores.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec

from engine.rules.config import PRESETS, RuleConfig
from engine.rules.scoring.points import placement_points, placement_ranks
from server.storage import tournaments as rows
from server.storage.sqlite import FinishHook, Reader, Statement
from server.tournament.standings import GameResult, Penalty, Standing, compute

#: a table's status once its game is over (counted, or aborted: no points)
DONE = ("finished", "aborted")


class _Result(msgspec.Struct):
    scores: list[int] | None = None


def standings_hook(clock: Callable[[], float] = time.time) -> FinishHook:
    def hook(read: Reader, game: str, status: str, result: bytes) -> list[Statement]:
        tid = rows.lock_of_game(read, game)
        if tid is None:
            return []
        return finish_statements(read, tid, game, status, result, clock())

    return hook


def match_points(rules: RuleConfig, scores: list[int]) -> tuple[list[float], list[int]]:
    """(points, placements) by seat: the preset's end-of-match result, as GameEnded has it."""
    final = tuple(scores)
    return list(placement_points(final, rules)), list(placement_ranks(final))


def finish_statements(
    read: Reader, tid: str, game: str, status: str, result: bytes, now: float
) -> list[Statement]:
    found = read("SELECT round, tab, status, seats FROM tournament_tables WHERE game = ?", (game,))
    if not found or found[0][2] in DONE:
        return []
    round_, tab, _, seats_json = found[0]
    scores = msgspec.json.decode(result, type=_Result).scores
    out: list[Statement] = []
    if status == "finished" and scores is not None:
        rules_json = read("SELECT rules FROM games WHERE id = ?", (game,))[0][0]
        rules = msgspec.json.decode(rules_json, type=RuleConfig)
        points, places = match_points(rules, scores)
        out.append(
            (
                "UPDATE tournament_tables SET status = 'finished', points = ?, scores = ?, "
                "ended = ? WHERE game = ?",
                (_json(points), _json(scores), now, game),
            )
        )
        this = GameResult(tuple(msgspec.json.decode(seats_json)), tuple(points), tuple(places))
        this = msgspec.structs.replace(this, round=int(round_))
    else:
        out.append(
            (
                "UPDATE tournament_tables SET status = 'aborted', ended = ? WHERE game = ?",
                (now, game),
            )
        )
        this = None
    out.append(  # the seat tokens served their purpose: a stolen database opens no seat
        (
            "UPDATE tournament_seats SET token = NULL WHERE tournament = ? AND round = ? "
            "AND tab = ?",
            (tid, round_, tab),
        )
    )
    out += standings_statements(read, tid, this)
    others = read(
        "SELECT count(*) FROM tournament_tables WHERE tournament = ? AND round = ? "
        "AND tab <> ? AND status NOT IN ('finished', 'aborted')",
        (tid, round_, tab),
    )
    if int(others[0][0]) == 0:  # the round's last table: its walls may be told now
        out.append(
            (
                "UPDATE tournament_rounds SET revealed = 1 WHERE tournament = ? AND round = ?",
                (tid, round_),
            )
        )
        out.append(
            (
                "UPDATE tournaments SET state = 'finished' WHERE id = ? AND rounds = ?",
                (tid, round_),
            )
        )
    return out


def results(read: Reader, tid: str) -> list[GameResult]:
    """Every counted game of the tournament, in round and table order."""
    found = read(
        "SELECT round, seats, points, scores FROM tournament_tables WHERE tournament = ? "
        "AND status = 'finished' ORDER BY round, tab",
        (tid,),
    )
    out = []
    for round_, seats, points, scores in found:
        places = placement_ranks(tuple(msgspec.json.decode(scores, type=list[int])))
        out.append(
            GameResult(
                tuple(msgspec.json.decode(seats, type=list[str])),
                tuple(msgspec.json.decode(points, type=list[float])),
                tuple(places),
                int(round_),
            )
        )
    return out


def penalties(read: Reader, tid: str) -> list[Penalty]:
    found = read(
        "SELECT name, points, reason, n FROM tournament_penalties WHERE tournament = ? ORDER BY n",
        (tid,),
    )
    rounds = read("SELECT round FROM tournaments WHERE id = ?", (tid,))
    now = int(rounds[0][0]) if rounds else 0
    return [Penalty(str(r[0]), float(r[1]), str(r[2]), now) for r in found]


def standings(read: Reader, tid: str, extra: GameResult | None = None) -> list[Standing]:
    """The standings from the stored games (and ``extra``, one not stored yet)."""
    games = results(read, tid) + ([] if extra is None else [extra])
    entries = read(
        "SELECT name, bot FROM tournament_entries WHERE tournament = ? ORDER BY n, name", (tid,)
    )
    bots = {str(r[0]) for r in entries if r[1]}
    players = read("SELECT preset FROM tournaments WHERE id = ?", (tid,))
    seats = PRESETS[players[0][0]].players if players and players[0][0] in PRESETS else None
    entrants = [str(r[0]) for r in entries]
    return compute(games, penalties(read, tid), bots, entrants=entrants, seats=seats)


def standings_statements(read: Reader, tid: str, extra: GameResult | None) -> list[Statement]:
    """The stored standings rewritten whole."""
    out: list[Statement] = [("DELETE FROM tournament_standings WHERE tournament = ?", (tid,))]
    for s in standings(read, tid, extra):
        out.append(
            (
                "INSERT INTO tournament_standings (tournament, name, rank, total, games, "
                "placements, average, best, bot) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                (
                    tid,
                    s.name,
                    s.rank,
                    s.total,
                    s.games,
                    _json(s.placements),
                    s.average_placement,
                    int(s.bot),
                ),
            )
        )
    return out


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()
