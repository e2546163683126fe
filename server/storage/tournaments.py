"""Tournaments as rows (SQLite and PostgreSQL): the event, its organisers, entries, rounds,
tables and seats, penalties, and the standings kept in step with the finished games. The
tables are made by the schema's step 0004 (server/storage/migrations/m0004_tournaments.py).

- ``tournaments``: the event's options and state; ``version`` grows with every change (the
  SSE stream polls it), and the finishing transaction updates this row first, so two tables
  that end at once on two nodes take turns (a row lock in PostgreSQL, the write lock in
  SQLite) and each sees the other's result.
- ``tournament_rounds``: one row per round started; with duplicate walls its seed, salt and
  commitment, and ``revealed`` once every table of the round has finished (the secrecy rule,
  docs/security.md: until then no table's seed or concealed tile leaves the server).
- ``tournament_tables``: every table of a started round: ``pending`` until a node seats it,
  ``playing`` with its game, ``finished`` with the match points of each seat, set in the
  transaction that marks the game finished (server/tournament/finish.py).
- ``tournament_seats``: who sits where in each round, with the seat token an entrant fetches
  (``GET /api/tournaments/{id}/seat``); kept so a restart can hand it out again.
- ``tournament_standings``: the standings as of the last finished game, rewritten whole in
  that game's finishing transaction.
"""

from __future__ import annotations

from typing import Any

from server.storage.sqlite import Reader, Statement, Store

TOURNAMENT_COLUMNS = (
    "id, name, preset, rounds, seating, duplicate, fill, base_s, bank_s, state, round, "
    "created, creator, plan, version"
)
TABLE_COLUMNS = "round, tab, entrants, seats, status, node, game, code, commitment, points, scores"


# -- reads --


def tournament(store: Store, tid: str) -> tuple[Any, ...] | None:
    rows = store.query(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tid,))
    return rows[0] if rows else None


def listing(store: Store) -> list[tuple[Any, ...]]:
    """Every tournament, newest first, with its number of entrants."""
    return store.query(
        f"SELECT {TOURNAMENT_COLUMNS}, (SELECT count(*) FROM tournament_entries e "
        "WHERE e.tournament = t.id) FROM tournaments t ORDER BY created DESC",
    )


def version(store: Store, tid: str) -> int | None:
    rows = store.query("SELECT version FROM tournaments WHERE id = ?", (tid,))
    return int(rows[0][0]) if rows else None


def entries(store: Store, tid: str) -> list[tuple[str, int | None, bool, bool]]:
    """(name, account, bot, substitute) in entry order."""
    rows = store.query(
        "SELECT name, account, bot, substitute FROM tournament_entries WHERE tournament = ? "
        "ORDER BY n, name",
        (tid,),
    )
    return [(str(r[0]), None if r[1] is None else int(r[1]), bool(r[2]), bool(r[3])) for r in rows]


def tables(store: Store, tid: str, round_: int | None = None) -> list[tuple[Any, ...]]:
    """``TABLE_COLUMNS`` of every table (of one round), in order."""
    where, args = ("", (tid,)) if round_ is None else (" AND round = ?", (tid, round_))
    return store.query(
        f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament = ?{where} "
        "ORDER BY round, tab",
        args,
    )


def standings(store: Store, tid: str) -> list[tuple[Any, ...]]:
    """(name, rank, total, games, placements JSON, average, best, bot), best first."""
    return store.query(
        "SELECT name, rank, total, games, placements, average, best, bot "
        "FROM tournament_standings WHERE tournament = ? "
        "ORDER BY bot, rank, name",
        (tid,),
    )


def penalties(store: Store, tid: str) -> list[tuple[Any, ...]]:
    """(n, name, points, reason, at, by) in order."""
    return store.query(
        "SELECT n, name, points, reason, at, by_name FROM tournament_penalties "
        "WHERE tournament = ? ORDER BY n",
        (tid,),
    )


def is_organizer(store: Store, tid: str, account: int) -> bool:
    rows = store.query(
        "SELECT 1 FROM tournament_organizers WHERE tournament = ? AND account = ?",
        (tid, account),
    )
    return bool(rows)


def organizes_any(store: Store, account: int) -> bool:
    rows = store.query("SELECT 1 FROM tournament_organizers WHERE account = ?", (account,))
    return bool(rows)


def organizers(store: Store, tid: str) -> list[str]:
    rows = store.query(
        "SELECT a.name FROM tournament_organizers o JOIN accounts a ON a.id = o.account "
        "WHERE o.tournament = ? ORDER BY a.name",
        (tid,),
    )
    return [str(r[0]) for r in rows]


def round_row(store: Store, tid: str, round_: int) -> tuple[Any, ...] | None:
    """(seed_text, salt, commitment, revealed) of a started round."""
    rows = store.query(
        "SELECT seed_text, salt, commitment, revealed FROM tournament_rounds "
        "WHERE tournament = ? AND round = ?",
        (tid, round_),
    )
    return rows[0] if rows else None


def seat_of(store: Store, tid: str, round_: int, name: str) -> tuple[Any, ...] | None:
    """(table, seat, token, table status, game, code, node URL) of ``name`` in a round."""
    rows = store.query(
        "SELECT s.tab, s.seat, s.token, t.status, t.game, t.code, t.url "
        "FROM tournament_seats s JOIN tournament_tables t ON t.tournament = s.tournament "
        "AND t.round = s.round AND t.tab = s.tab "
        "WHERE s.tournament = ? AND s.round = ? AND s.name = ?",
        (tid, round_, name),
    )
    return rows[0] if rows else None


def round_running(store: Store, game: str) -> bool:
    """Whether ``game`` is a table of a duplicate round not every table of which has
    finished: its walls are another table's too, so nothing of them may leave yet."""
    rows = store.query(
        "SELECT 1 FROM tournament_tables t JOIN tournament_rounds r "
        "ON r.tournament = t.tournament AND r.round = t.round "
        "WHERE t.game = ? AND r.seed_text IS NOT NULL AND r.revealed = 0",
        (game,),
    )
    return bool(rows)


def pending(store: Store) -> list[tuple[Any, ...]]:
    """(tournament, round, table) of every table no node has seated yet."""
    return store.query(
        "SELECT tournament, round, tab FROM tournament_tables WHERE status = 'pending' "
        "ORDER BY tournament, round, tab",
    )


def shares(store: Store, tid: str, round_: int, node: str) -> tuple[int, int]:
    """(tables of the round, those ``node`` has claimed)."""
    rows = store.query(
        "SELECT count(*), sum(CASE WHEN node = ? THEN 1 ELSE 0 END) FROM tournament_tables "
        "WHERE tournament = ? AND round = ?",
        (node, tid, round_),
    )
    return int(rows[0][0]), int(rows[0][1] or 0)


def unstarted(store: Store, node: str) -> list[tuple[Any, ...]]:
    """(tournament, round, table, game) this node claimed whose game never began (a crash
    between the claim and the start): they are seated again."""
    return store.query(
        "SELECT t.tournament, t.round, t.tab, t.game FROM tournament_tables t "
        "WHERE t.node = ? AND t.status IN ('claimed', 'playing') AND NOT EXISTS "
        "(SELECT 1 FROM games g WHERE g.id = t.game)",
        (node,),
    )


def lost(store: Store, node: str) -> list[tuple[Any, ...]]:
    """(tournament, game) of this node's tables whose game a restart aborted (the engine no
    longer replays it): it never finishes, so the finishing transaction never counts it."""
    return store.query(
        "SELECT t.tournament, t.game FROM tournament_tables t JOIN games g ON g.id = t.game "
        "WHERE t.node = ? AND t.status = 'playing' AND g.status = 'aborted'",
        (node,),
    )


def create(store: Store, values: tuple[object, ...], organizer: int, now: float) -> None:
    """A new tournament (``values``: id, name, preset, rounds, seating, duplicate, fill,
    base_s, bank_s) and its creator as its organiser."""
    store.transaction(
        [
            (
                "INSERT INTO tournaments (id, name, preset, rounds, seating, duplicate, fill, "
                "base_s, bank_s, state, round, created, creator, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'registering', 0, ?, ?, 0)",
                (*values, now, organizer),
            ),
            (
                "INSERT INTO tournament_organizers (tournament, account) VALUES (?, ?)",
                (values[0], organizer),
            ),
        ]
    )


def bump(tid: str) -> Statement:
    return ("UPDATE tournaments SET version = version + 1 WHERE id = ?", (tid,))


def add_organizer(store: Store, tid: str, account: int) -> None:
    store.transaction(
        [
            (
                "INSERT INTO tournament_organizers (tournament, account) VALUES (?, ?) "
                "ON CONFLICT (tournament, account) DO NOTHING",
                (tid, account),
            ),
            bump(tid),
        ]
    )


def enter(store: Store, tid: str, name: str, account: int, now: float) -> bool:
    """The account's entry, only while the tournament registers (False when it was in
    already, or the first round started meanwhile)."""
    rows = store.query(
        "INSERT INTO tournament_entries (tournament, name, account, bot, n) "
        "SELECT ?, ?, ?, 0, ? WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? "
        "AND state = 'registering') ON CONFLICT (tournament, name) DO NOTHING RETURNING name",
        (tid, name, account, now, tid),
    )
    if rows:
        store.execute(*bump(tid))
    return bool(rows)


def withdraw(store: Store, tid: str, name: str) -> bool:
    """The account's entry withdrawn, only while the tournament registers."""
    rows = store.query(
        "DELETE FROM tournament_entries WHERE tournament = ? AND name = ? AND EXISTS "
        "(SELECT 1 FROM tournaments WHERE id = ? AND state = 'registering') RETURNING name",
        (tid, name, tid),
    )
    if rows:
        store.execute(*bump(tid))
    return bool(rows)


def close_entries(tid: str, seated: list[str]) -> Statement:
    """Entries close with round 1: one that came in while its seating was made (not in
    ``seated``) is dropped with the start, never left without a seat."""
    marks = ", ".join("?" for _ in seated)
    return (
        f"DELETE FROM tournament_entries WHERE tournament = ? AND name NOT IN ({marks})",
        (tid, *seated),
    )


def add_bots(tid: str, bots: list[str], now: float) -> list[Statement]:
    """Bot entrants (``fill: bots``), after the people in entry order."""
    return [
        (
            "INSERT INTO tournament_entries (tournament, name, account, bot, n) "
            "VALUES (?, ?, NULL, 1, ?)",
            (tid, bot, now + i),
        )
        for i, bot in enumerate(bots)
    ]


def set_plan(tid: str, plan_json: str) -> Statement:
    """The balanced seating of every round, made before round 1."""
    return ("UPDATE tournaments SET plan = ? WHERE id = ?", (plan_json, tid))


def new_round(
    tid: str,
    round_: int,
    walls: tuple[str | None, str | None, str | None],
    tables_json: list[str],
    now: float,
) -> list[Statement]:
    """A round's row (``walls``: its seed as text, salt and commitment with duplicate walls,
    else None), its tables pending (entrants in place order), and the tournament's round."""
    out: list[Statement] = [
        (
            "INSERT INTO tournament_rounds (tournament, round, seed_text, salt, commitment, "
            "revealed, started) VALUES (?, ?, ?, ?, ?, 0, ?)",
            (tid, round_, *walls, now),
        )
    ]
    out += [
        (
            "INSERT INTO tournament_tables (tournament, round, tab, entrants, status, "
            "commitment) VALUES (?, ?, ?, ?, 'pending', ?)",
            (tid, round_, i + 1, entrants, walls[2]),
        )
        for i, entrants in enumerate(tables_json)
    ]
    out += [
        ("UPDATE tournaments SET round = ?, state = 'running' WHERE id = ?", (round_, tid)),
        bump(tid),
    ]
    return out


def claim(store: Store, tid: str, round_: int, tab: int, node: str) -> bool:
    """Take a pending table for this node (one atomic statement: two nodes never both)."""
    rows = store.query(
        "UPDATE tournament_tables SET status = 'claimed', node = ? WHERE tournament = ? "
        "AND round = ? AND tab = ? AND status = 'pending' RETURNING tab",
        (node, tid, round_, tab),
    )
    return bool(rows)


def seated(
    tid: str,
    round_: int,
    tab: int,
    game: str,
    code: str,
    seats_json: str,
    commitment: str,
    seats: list[tuple[str, int, str | None]],
    url: str = "",
) -> list[Statement]:
    """A claimed table's room exists: its game, code, names by seat and each seat's token,
    stored before anyone joins (so a crash before the start is found: ``unstarted``)."""
    out: list[Statement] = [
        (
            "UPDATE tournament_tables SET status = 'playing', game = ?, code = ?, seats = ?, "
            "commitment = ?, url = ? WHERE tournament = ? AND round = ? AND tab = ?",
            (game, code, seats_json, commitment, url, tid, round_, tab),
        ),
        (
            "DELETE FROM tournament_seats WHERE tournament = ? AND round = ? AND tab = ?",
            (tid, round_, tab),
        ),
    ]
    out += [
        (
            "INSERT INTO tournament_seats (tournament, round, name, tab, seat, token) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (tid, round_, name, tab, seat, token),
        )
        for name, seat, token in seats
    ]
    out.append(bump(tid))
    return out


def unclaim(tid: str, round_: int, tab: int) -> list[Statement]:
    """A table whose game never began goes back to pending (a node seats it afresh)."""
    return [
        (
            "UPDATE tournament_tables SET status = 'pending', node = NULL, game = NULL, "
            "code = NULL, seats = NULL WHERE tournament = ? AND round = ? AND tab = ?",
            (tid, round_, tab),
        ),
        (
            "DELETE FROM tournament_seats WHERE tournament = ? AND round = ? AND tab = ?",
            (tid, round_, tab),
        ),
    ]


# -- inside the finishing transaction (server/tournament/finish.py) --


def lock_of_game(read: Reader, game: str) -> str | None:
    """Lock the tournament row of ``game``'s table (the first write of the transaction) and
    name it; None for a game of no tournament."""
    rows = read(
        "UPDATE tournaments SET version = version + 1 WHERE id = "
        "(SELECT tournament FROM tournament_tables WHERE game = ?) RETURNING id",
        (game,),
    )
    return str(rows[0][0]) if rows else None
