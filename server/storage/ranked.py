"""Ranked games, standings, rating history and summed stats as rows (SQLite and PostgreSQL).

- ``ranked_games``: a game played in a ranked lobby; ``counted`` once its final scores moved
  the ratings (set in the transaction that marks the game finished), ``stats_done`` once its
  seats' stats were added (a worker thread replays the record after the end).
- ``ranked_seats``: who sat where (the membership), and once counted each seat's placement,
  final score and the standing after the game: the rating history is these rows in order.
- ``standings``: an account's dan, points, R, games and placements in one lobby.
- ``player_stats``: the sums of an account's per-game stats in one lobby (server/ladder/
  stats.py ``SeatStats``); rates are derived when served, never stored.

Every read a request makes is by key or by index (account, lobby, or the leaderboard's
order): nothing scans the records.
"""

from __future__ import annotations

from typing import Any

from server.storage.sqlite import Reader, Statement, Store

#: the summed stats' counters, in ``SeatStats`` order (server/ladder/stats.py)
STAT_FIELDS = (
    "games",
    "rounds",
    "wins",
    "tsumo",
    "deal_ins",
    "riichi",
    "calls",
    "draws",
    "draw_tenpai",
    "win_points",
    "deal_in_points",
    "first",
    "second",
    "third",
    "fourth",
)


def add_game(store: Store, game: str, lobby: str, accounts: list[int], now: float) -> None:
    """A ranked game and who sits where, before its first decision is stored."""
    statements: list[Statement] = [
        ("INSERT INTO ranked_games (game, lobby, created) VALUES (?, ?, ?)", (game, lobby, now))
    ]
    statements += [
        (
            "INSERT INTO ranked_seats (game, seat, account, lobby) VALUES (?, ?, ?, ?)",
            (game, seat, account, lobby),
        )
        for seat, account in enumerate(accounts)
    ]
    store.transaction(statements)


def seated(store: Store, account: int) -> str | None:
    """The game of ``account``'s ranked seat that is not over yet, or None."""
    rows = store.query(
        "SELECT s.game FROM ranked_seats s JOIN ranked_games r ON r.game = s.game "
        "JOIN games g ON g.id = s.game WHERE s.account = ? AND r.counted = 0 "
        "AND g.status IN ('waiting', 'playing', 'suspended')",
        (account,),
    )
    return str(rows[0][0]) if rows else None


def banned_among(store: Store, accounts: list[int]) -> list[int]:
    """The banned (or deleted) accounts of ``accounts``."""
    marks = ", ".join("?" for _ in accounts)
    rows = store.query(
        f"SELECT id FROM accounts WHERE banned = 0 AND id IN ({marks})", tuple(accounts)
    )
    allowed = {int(r[0]) for r in rows}
    return [a for a in accounts if a not in allowed]


# -- the finishing transaction (server/ladder/finish.py) --


def to_count(read: Reader, game: str) -> tuple[str, list[int | None]] | None:
    """(lobby, each seat's account) of a ranked game not counted yet, else None."""
    rows = read("SELECT lobby FROM ranked_games WHERE game = ? AND counted = 0", (game,))
    if not rows:
        return None
    seats = read("SELECT account FROM ranked_seats WHERE game = ? ORDER BY seat", (game,))
    return str(rows[0][0]), [None if r[0] is None else int(r[0]) for r in seats]


#: dan, points, rating, games, first..fourth
StandingRow = tuple[int, int, float, int, int, int, int, int]


def standing_in(read: Reader, account: int, lobby: str) -> StandingRow | None:
    rows = read(
        "SELECT dan, points, rating, games, first, second, third, fourth FROM standings "
        "WHERE account = ? AND lobby = ?",
        (account, lobby),
    )
    if not rows:
        return None
    r = rows[0]
    return (int(r[0]), int(r[1]), float(r[2]), int(r[3]), *(int(x) for x in r[4:8]))  # type: ignore[return-value]


def put_standing(account: int, lobby: str, row: StandingRow) -> Statement:
    return (
        "INSERT INTO standings (account, lobby, dan, points, rating, games, first, second, "
        "third, fourth) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account, lobby) "
        "DO UPDATE SET dan = excluded.dan, points = excluded.points, rating = excluded.rating,"
        " games = excluded.games, first = excluded.first, second = excluded.second,"
        " third = excluded.third, fourth = excluded.fourth",
        (account, lobby, *row),
    )


def put_seat_result(
    game: str, seat: int, place: int, score: int, after: StandingRow, delta: float, at: float
) -> Statement:
    return (
        "UPDATE ranked_seats SET place = ?, score = ?, dan = ?, points = ?, rating = ?, "
        "rating_delta = ?, ended = ? WHERE game = ? AND seat = ?",
        (place, score, after[0], after[1], after[2], delta, at, game, seat),
    )


def counted(game: str, at: float) -> Statement:
    return ("UPDATE ranked_games SET counted = 1, ended = ? WHERE game = ?", (at, game))


# -- stats, added after the end --


def stats_pending(store: Store, node: str) -> list[str]:
    """Counted games of this node whose stats are not added yet (after a restart)."""
    rows = store.query(
        "SELECT r.game FROM ranked_games r JOIN rooms m ON m.game = r.game "
        "WHERE r.counted = 1 AND r.stats_done = 0 AND m.node = ?",
        (node,),
    )
    return [str(r[0]) for r in rows]


def stats_done(read: Reader, game: str) -> bool:
    rows = read("SELECT stats_done FROM ranked_games WHERE game = ?", (game,))
    return not rows or bool(rows[0][0])


def add_stats(lobby: str, account: int, values: tuple[int, ...]) -> Statement:
    """``values`` (STAT_FIELDS order) added to the account's sums in ``lobby``."""
    names = ", ".join(STAT_FIELDS)
    marks = ", ".join("?" for _ in STAT_FIELDS)
    sums = ", ".join(f"{f} = player_stats.{f} + excluded.{f}" for f in STAT_FIELDS)
    return (
        f"INSERT INTO player_stats (account, lobby, {names}) VALUES (?, ?, {marks}) "
        f"ON CONFLICT (account, lobby) DO UPDATE SET {sums}",
        (account, lobby, *values),
    )


def mark_stats(game: str) -> Statement:
    return ("UPDATE ranked_games SET stats_done = 1 WHERE game = ?", (game,))


# -- what the profile, games list and leaderboard read --


def standings_of(store: Store, account: int) -> list[tuple[Any, ...]]:
    """(lobby, dan, points, rating, games, first, second, third, fourth) per lobby."""
    return store.query(
        "SELECT lobby, dan, points, rating, games, first, second, third, fourth "
        "FROM standings WHERE account = ? ORDER BY lobby",
        (account,),
    )


def stats_of(store: Store, account: int) -> list[tuple[Any, ...]]:
    """(lobby, *STAT_FIELDS) per lobby."""
    return store.query(
        f"SELECT lobby, {', '.join(STAT_FIELDS)} FROM player_stats WHERE account = ? "
        "ORDER BY lobby",
        (account,),
    )


def history_of(store: Store, account: int, limit: int) -> list[tuple[Any, ...]]:
    """The latest ``limit`` counted games, newest first: (game, lobby, ended, place, score,
    dan, points, rating, rating_delta)."""
    return store.query(
        "SELECT game, lobby, ended, place, score, dan, points, rating, rating_delta "
        "FROM ranked_seats WHERE account = ? AND ended IS NOT NULL "
        "ORDER BY ended DESC LIMIT ?",
        (account, limit),
    )


def reviews_of(store: Store, account: int, limit: int) -> list[tuple[Any, ...]]:
    """The finished reviews of the seats ``account`` sat in, for its latest ``limit``
    reviewed counted games, newest first: (game, ended, engine, match_rate, rating). One
    read: the account's seats by their index, each seat's reviews by the reviews' key."""
    return store.query(
        "SELECT s.game, s.ended, v.engine, v.match_rate, v.rating FROM ranked_seats s "
        "JOIN reviews v ON v.game = s.game AND v.seat = s.seat "
        "WHERE s.account = ? AND s.ended IS NOT NULL AND v.status = 'done' "
        "AND v.match_rate IS NOT NULL ORDER BY s.ended DESC, s.game, v.engine LIMIT ?",
        (account, limit),
    )


def games_of(store: Store, account: int, before: float, limit: int) -> list[tuple[Any, ...]]:
    """A page of counted games ended before ``before`` (unix s), newest first: (game, lobby,
    ended, seat, place, score, rating_delta, the game's seats as JSON)."""
    return store.query(
        "SELECT s.game, s.lobby, s.ended, s.seat, s.place, s.score, s.rating_delta, g.seats "
        "FROM ranked_seats s JOIN games g ON g.id = s.game "
        "WHERE s.account = ? AND s.ended IS NOT NULL AND s.ended < ? "
        "ORDER BY s.ended DESC LIMIT ?",
        (account, before, limit),
    )


def board(store: Store, lobby: str, offset: int, limit: int) -> list[tuple[Any, ...]]:
    """The lobby's leaderboard page: (name, dan, points, rating, games), best first (ties
    in a fixed order); the order is the index's, read backwards, so a page costs its rows."""
    return store.query(
        "SELECT a.name, s.dan, s.points, s.rating, s.games FROM standings s "
        "JOIN accounts a ON a.id = s.account WHERE s.lobby = ? "
        "ORDER BY s.dan DESC, s.points DESC, s.rating DESC, s.account DESC LIMIT ? OFFSET ?",
        (lobby, limit, offset),
    )


def seats_json_of(store: Store, account: int) -> list[tuple[str, int, str]]:
    """(game, seat, the game's seats as JSON) for every ranked seat of ``account``."""
    rows = store.query(
        "SELECT s.game, s.seat, g.seats FROM ranked_seats s JOIN games g ON g.id = s.game "
        "WHERE s.account = ?",
        (account,),
    )
    return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]
