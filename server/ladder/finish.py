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
from server.storage import ranked, records
from server.storage.sqlite import FinishHook, Reader, Statement, Store


class _Result(msgspec.Struct):
    scores: list[int] | None = None


def ratings_hook(
    lobbies: Mapping[str, RankedLobby], clock: Callable[[], float] = time.time
) -> FinishHook:
    def hook(read: Reader, game: str, status: str, result: bytes) -> list[Statement]:
        if status != "finished":
            return []
        found = ranked.to_count(read, game)
        scores = msgspec.json.decode(result, type=_Result).scores
        if found is None or scores is None:
            return []
        lobby, accounts = found
        config = lobbies.get(lobby)
        rules = config.rules if config is not None else LobbyRules(players=len(accounts))
        return rating_statements(read, game, lobby, rules, accounts, scores, clock())

    return hook


def rating_statements(
    read: Reader,
    game: str,
    lobby: str,
    rules: LobbyRules,
    accounts: list[int | None],
    scores: list[int],
    now: float,
) -> list[Statement]:
    """The new standings, history rows and ``counted`` for one game's final scores."""
    rows = [None if a is None else ranked.standing_in(read, a, lobby) for a in accounts]
    old = [Standing() if r is None else Standing(Dan(r[0]), r[1], r[2], r[3]) for r in rows]
    order = list(range(len(scores)))  # seat 0 dealt first (engine: dealer = kyoku % n)
    new = after_game(old, scores, order, rules)
    places = placements(scores, order)
    out: list[Statement] = []
    for seat, account in enumerate(accounts):
        row = rows[seat]
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
        place, score = places[seat], scores[seat]
        out.append(ranked.put_seat_result(game, seat, place, score, after, delta, now))
        if account is not None:
            out.append(ranked.put_standing(account, lobby, after))
    out.append(ranked.counted(game, now))
    return out


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
