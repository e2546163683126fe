"""A finished ranked game's effects: its ratings in the transaction that marks it finished,
its seats' stats just after.

``ratings_hook`` is the store's ``finish_hook`` (server/storage/sqlite.py ``FinishHook``):
inside the transaction that writes the game's end it reads the seats' standings and writes
the new ones (``standing.after_game``), the rating history rows and ``counted``. One commit
holds all of it, so a kill -9 before it leaves the game unfinished (it resumes, ends again
and is counted then), and after it the game is finished and counted: never lost, never twice.

``add_stats`` replays the stored record with the engine (seconds of CPU for a long game:
run it in a worker thread) and adds each seat's ``SeatStats`` to its sums, with
``stats_done`` in the same transaction; a restart finds the games still pending
(``ranked.stats_pending``) and adds them then.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping

import msgspec

from engine.replay.export import record_game
from server.ladder.lobbies import RankedLobby
from server.ladder.placement import placements
from server.ladder.standing import LobbyRules, Standing, after_game
from server.ladder.stats import game_stats
from server.ladder.tenhou_dan import Dan
from server.storage import accounts as accounts_rows
from server.storage import ranked, records
from server.storage.sqlite import FinishHook, Reader, Statement, Store


class _Result(msgspec.Struct):
    scores: list[int] | None = None


#: why a game or a seat did not count (docs/ranking.md, "What counts")
ABSENT, BANNED, DELETED = "absent", "banned", "deleted"


def ratings_hook(
    lobbies: Mapping[str, RankedLobby], clock: Callable[[], float] = time.time
) -> FinishHook:
    def hook(read: Reader, game: str, status: str, result: bytes) -> list[Statement]:
        found = ranked.to_count(read, game)
        if found is None:
            return []
        lobby, accounts = found
        facts = ranked.seat_facts(read, game)
        scores = msgspec.json.decode(result, type=_Result).scores
        out: list[Statement] = []
        if status == "finished" and scores is not None:
            config = lobbies.get(lobby)
            rules = config.rules if config is not None else LobbyRules(players=len(accounts))
            reason = verdict(facts)
            reasons = [reason or seat_reason(f) for f in facts]
            now = clock()
            out = rating_statements(read, game, lobby, rules, accounts, scores, now, reasons)
            out.append(ranked.counted(game, now, reason))
            out.append(_marked(game, result, reason))
        # an account deleted during the game goes now, after the game counted for the others
        for account, (_, _, _, deleting) in zip(accounts, facts, strict=False):
            if account is not None and deleting:
                out += accounts_rows.delete_statements(account, ranked.seats_json_in(read, account))
        return out

    return hook


def verdict(facts: list[ranked.SeatFacts]) -> str | None:
    """Why the game counts for nobody, or None: a seat whose player never answered a
    decision itself (never connected, or every decision a time-out's default)."""
    return ABSENT if any(not played for played, *_ in facts) else None


def seat_reason(fact: ranked.SeatFacts) -> str | None:
    """Why a game that counts does not count for this seat: its account was banned or
    deleted during it (it played the default from then on)."""
    _, forfeit, banned, deleting = fact
    if forfeit is not None:
        return forfeit
    return BANNED if banned else DELETED if deleting else None


def _marked(game: str, result: bytes, reason: str | None) -> Statement:
    """The stored result says whether the game counted (and why not)."""
    body = msgspec.json.decode(result)
    body["counted"] = reason is None
    if reason is not None:
        body["reason"] = reason
    return ("UPDATE games SET result = ? WHERE id = ?", (msgspec.json.encode(body).decode(), game))


def rating_statements(
    read: Reader,
    game: str,
    lobby: str,
    rules: LobbyRules,
    accounts: list[int | None],
    scores: list[int],
    now: float,
    reasons: list[str | None] | None = None,
) -> list[Statement]:
    """The new standings and history rows for one game's final scores; a seat with a
    ``reasons`` entry keeps its standing (its row says why), the others move as computed
    against every seat's standing before the game."""
    reasons = reasons or [None] * len(accounts)
    rows = [None if a is None else ranked.standing_in(read, a, lobby) for a in accounts]
    old = [Standing() if r is None else Standing(Dan(r[0]), r[1], r[2], r[3]) for r in rows]
    order = list(range(len(scores)))  # seat 0 dealt first (engine: dealer = kyoku % n)
    new = after_game(old, scores, order, rules)
    places = placements(scores, order)
    out: list[Statement] = []
    for seat, account in enumerate(accounts):
        row = rows[seat]
        place, score = places[seat], scores[seat]
        if reasons[seat] is not None:
            kept = _row_of(old[seat], row)
            out.append(
                ranked.put_seat_result(game, seat, place, score, kept, 0.0, now, reasons[seat])
            )
            continue
        counts = [0, 0, 0, 0] if row is None else [row[4], row[5], row[6], row[7]]
        counts[places[seat] - 1] += 1
        s = new[seat]
        after = (
            int(s.dan),
            s.points,
            s.rating,
            s.games,
            counts[0],
            counts[1],
            counts[2],
            counts[3],
        )
        delta = s.rating - old[seat].rating
        out.append(ranked.put_seat_result(game, seat, place, score, after, delta, now))
        if account is not None:
            out.append(ranked.put_standing(account, lobby, after))
    return out


def _row_of(standing: Standing, row: ranked.StandingRow | None) -> ranked.StandingRow:
    counts = (0, 0, 0, 0) if row is None else (row[4], row[5], row[6], row[7])
    return (int(standing.dan), standing.points, standing.rating, standing.games, *counts)


#: one stats pass at a time per process: the check and the sums of a game go together
_STATS_LOCK = threading.Lock()


def add_stats(store: Store, game: str) -> bool:
    """Add the seats' stats of a counted ranked game (True when added now); a game not
    ranked, not counted or already added does nothing. Blocking: call in a worker thread."""
    with _STATS_LOCK:
        rows = store.query(
            "SELECT lobby FROM ranked_games WHERE game = ? AND counted = 1 AND stats_done = 0",
            (game,),
        )
        if not rows:
            return False
        stored = store.load(game)
        if stored is None or stored.status != "finished":
            return False
        record = record_game(records.replay(stored), stored.seats)
        per_seat = game_stats(record)
        seats = store.query("SELECT seat, account FROM ranked_seats WHERE game = ?", (game,))
        statements = [
            ranked.add_stats(str(rows[0][0]), int(account), _values(per_seat[seat]))
            for seat, account in seats
            if account is not None
        ]
        statements.append(ranked.mark_stats(game))
        store.transaction(statements)
        return True


def _values(stats: object) -> tuple[int, ...]:
    return tuple(int(getattr(stats, f)) for f in ranked.STAT_FIELDS)
