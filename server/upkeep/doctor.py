"""``python -m server doctor``: is every record whole, and does it mean what it says?

Four checks, each over the whole store, read-only:

- the file: SQLite's ``PRAGMA integrity_check`` (every page, every index);
- every record reads: each game's row (rules, seats, seed, result), each decision (numbered
  0, 1, 2, ... with integer fields) and each round result decodes;
- every game replays: a finished game to its end with all its decisions, one in play up to
  its last decision, through the same check a restart runs (server/session/durable.py
  ``verify``, the stored replay hashes included); a game stored under another engine version
  that no longer replays is a warning (the engine-version rule), under this one a problem;
- every rating: the counted ranked games are counted again, in the order they ended, by the
  ladder's own code (server/ladder/finish.py ``rating_statements``, each seat's stored reason
  for not counting included) into a scratch database, and every account's dan, points, R,
  games and placements must equal its stored standing.

A problem is a line starting ``problem:``; the exit code is 1 when there is one.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from engine.actions.types import Decision
from engine.rules.config import RuleConfig
from engine.version import ENGINE_VERSION
from server.ladder import lobbies
from server.ladder.finish import rating_statements
from server.ladder.standing import LobbyRules
from server.session.durable import verify
from server.settings import Settings
from server.storage import migrate, ranked
from server.storage.sqlite import stored_seed

#: a read of the store: SQL with ``?`` placeholders, its arguments -> rows
Query = Callable[[str, tuple[object, ...]], list[tuple[Any, ...]]]
#: standings compare equal when their R differ by less than this (float sums in one order)
R_TOLERANCE = 1e-9


class Report:
    """What the doctor found: the lines it prints, and whether any is a problem."""

    def __init__(self, say: Callable[[str], None] = print) -> None:
        self.say = say
        self.problems: list[str] = []
        self.warnings: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(text)
        self.say(f"problem: {text}")

    def warning(self, text: str) -> None:
        self.warnings.append(text)
        self.say(f"warning: {text}")


class _GameRow(msgspec.Struct):
    id: str
    status: str
    seed: int | None
    rules: RuleConfig
    engine: str | None


#: a game that reads: its row, its decisions and their replay hashes
_Read = tuple[_GameRow, list[Decision], list[str | None]]


def examine(settings: Settings, say: Callable[[str], None] = print) -> Report:
    """Every check on the data dir's SQLite records (read-only)."""
    report = Report(say)
    db = settings.db_path
    if not db.exists():
        report.problem(f"{db} does not exist (check --data-dir)")
        return report
    try:
        with _read_only(str(db)) as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
            if rows != [("ok",)]:
                for (text,) in rows[:20]:
                    report.problem(f"integrity_check: {text}")
            else:
                say("integrity_check: ok")
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            run_checks(
                lambda sql, args: conn.execute(sql, args).fetchall(), settings, report, tables
            )
    except sqlite3.DatabaseError as exc:
        report.problem(f"{db} does not read: {exc}")
    return report


def examine_postgres(settings: Settings, say: Callable[[str], None] = print) -> Report:
    """The same checks on a PostgreSQL store, in one read-only repeatable-read transaction
    (one snapshot while the nodes play on); its pages are PostgreSQL's to check."""
    import psycopg  # the [cluster] extra: only a doctor of a PostgreSQL store needs it

    report = Report(say)
    with psycopg.connect(settings.database_url) as conn:
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        say("integrity: PostgreSQL keeps its own pages (pg_amcheck checks them)")
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).fetchall()

        def query(sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
            return conn.execute(sql.replace("?", "%s"), args).fetchall()

        run_checks(query, settings, report, {str(r[0]) for r in rows})
        conn.rollback()
    return report


@contextlib.contextmanager
def _read_only(path: str) -> Iterator[sqlite3.Connection]:
    """A connection that cannot write: ``query_only``, so not even a stray statement does.
    (Not ``mode=ro``: a WAL database without its ``-shm`` would not open that way.)"""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("BEGIN")  # one snapshot: a running server's games move on meanwhile
        yield conn
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("COMMIT")
        conn.close()


def run_checks(query: Query, settings: Settings, report: Report, tables: set[str]) -> None:
    """The records, the replays and the ratings (any store ``query`` reads; ``tables``: the
    tables it has, so a database from before the ladder has no ratings to check)."""
    games = records(query, report)
    replays(query, games, report)
    ratings(query, settings, report, tables)
    if report.problems:
        report.say(f"doctor: {len(report.problems)} problems found")
    else:
        report.say("doctor: no problem found")


def records(query: Query, report: Report) -> list[_Read]:
    """Every game's row, decisions and rounds decoded; the games that read, for the replay."""
    read: list[_Read] = []
    rows = query(
        "SELECT id, status, seed, seed_text, rules, seats, result, draw, engine FROM games "
        "ORDER BY id",
        (),
    )
    decisions = rounds = 0
    for row in rows:
        game = str(row[0])
        try:
            parsed = _game(row)
            moves, trails = _decisions(query, game)
            rounds += _rounds(query, game)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError) as exc:
            report.problem(f"game {game}: its record does not read: {exc}")
            continue
        decisions += len(moves)
        read.append((parsed, moves, trails))
    statuses: dict[str, int] = {}
    for game_row, _, _ in read:
        statuses[game_row.status] = statuses.get(game_row.status, 0) + 1
    counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    report.say(
        f"records: {len(read)} of {len(rows)} games read ({counts or 'none'}), "
        f"{decisions} decisions, {rounds} round results"
    )
    return read


def _game(row: tuple[Any, ...]) -> _GameRow:
    """One games row decoded (ValueError and msgspec's errors when it does not)."""
    rules = msgspec.json.decode(str(row[4]).encode(), type=RuleConfig)
    msgspec.json.decode(str(row[5]).encode(), type=list[str])
    if row[6] is not None:
        msgspec.json.decode(str(row[6]).encode())
    if row[7] is not None:
        msgspec.json.decode(str(row[7]).encode(), type=list[int])
    seed = stored_seed(row[2], row[3])
    if seed is not None and not isinstance(seed, int):
        raise TypeError(f"seed {seed!r} is not an integer")
    return _GameRow(str(row[0]), str(row[1]), seed, rules, row[8])


def _decisions(query: Query, game: str) -> tuple[list[Decision], list[str | None]]:
    rows = query(
        "SELECT n, inquiry, seat, action, option, timeout, hash FROM decisions "
        "WHERE game = ? ORDER BY n",
        (game,),
    )
    moves: list[Decision] = []
    trails: list[str | None] = []
    for i, (n, *fields, trail) in enumerate(rows):
        if n != i:
            raise ValueError(f"decision {i} is missing (the next stored is {n})")
        if not all(isinstance(f, int) and not isinstance(f, bool) for f in fields):
            raise TypeError(f"decision {i} holds {fields!r}, not integers")
        moves.append(Decision(fields[0], fields[1], fields[2], fields[3]))
        trails.append(trail if isinstance(trail, str) or trail is None else str(trail))
    return moves, trails


def _rounds(query: Query, game: str) -> int:
    rows = query("SELECT n, data FROM rounds WHERE game = ? ORDER BY n", (game,))
    for n, data in rows:
        try:
            msgspec.json.decode(str(data).encode())
        except msgspec.DecodeError as exc:
            raise ValueError(f"round result {n} does not read: {exc}") from None
    return len(rows)


def replays(query: Query, games: list[_Read], report: Report) -> None:
    """Each finished or unfinished game played again by this engine from its log."""
    replayed = skipped = 0
    for game, moves, trails in games:
        if game.status not in ("finished", "playing", "suspended") or game.seed is None:
            skipped += 1
            continue
        why = verify(game.rules, game.seed, moves, trails, whole=game.status == "finished")
        replayed += 1
        if why is None:
            continue
        text = f"game {game.id} ({game.status}) does not replay: {why}"
        if game.engine not in (None, ENGINE_VERSION):
            report.warning(f"{text} (stored under engine {game.engine}, this is {ENGINE_VERSION})")
        else:
            report.problem(text)
    report.say(f"replays: {replayed} games replayed, {skipped} not (aborted, waiting or error)")


def ratings(query: Query, settings: Settings, report: Report, tables: set[str]) -> None:
    """Every standing against the counted games played again by the ladder's own code."""
    if not {"standings", "ranked_games", "ranked_seats"} <= tables:
        report.say("ratings: no ranked tables")
        return
    config = lobbies.parse(settings.ranked_lobbies)
    counted = query(
        "SELECT r.game, r.lobby, g.result FROM ranked_games r JOIN games g ON g.id = r.game "
        "WHERE r.counted = 1 ORDER BY r.ended, r.game",
        (),
    )
    scratch = sqlite3.connect(":memory:", isolation_level=None)
    migrate.migrate_sqlite(scratch, "the doctor's scratch database")  # today's tables

    def read(sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        return scratch.execute(sql, args).fetchall()

    for game, lobby, result in counted:
        try:
            scores = msgspec.json.decode(str(result).encode(), type=_Scores).scores
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            report.problem(f"ranked game {game}: its result does not read: {exc}")
            continue
        seats = query(
            "SELECT seat, account, rating, rating_delta, reason FROM ranked_seats "
            "WHERE game = ? ORDER BY seat",
            (game,),
        )
        # a seat the game did not count for (banned or deleted during it) kept its standing:
        # the reason stored then is a fact of that moment, read back as it was
        reasons = [None if seat[4] is None else str(seat[4]) for seat in seats]
        accounts: list[int | None] = [_account(scratch, lobby, seat) for seat in seats]
        lobby_config = config.get(lobby)
        rules = (
            lobby_config.rules if lobby_config is not None else LobbyRules(players=len(accounts))
        )
        if scores is None or len(scores) != len(accounts):
            report.problem(f"ranked game {game}: counted without a score for every seat")
            continue
        moved = rating_statements(read, game, lobby, rules, accounts, scores, 0.0, reasons)
        for sql, args in moved:
            scratch.execute(sql, args)
    _compare(query, scratch, len(counted), report)


class _Scores(msgspec.Struct):
    scores: list[int] | None = None


def _account(scratch: sqlite3.Connection, lobby: str, seat: tuple[Any, ...]) -> int:
    """The seat's account; a deleted account's seat (its account is NULL now) gets a
    stand-in that enters the game at the R it had then (its row's R less its change), so the
    others' changes come out as they did."""
    _, account, after, delta, _ = seat
    if account is not None:
        return int(account)
    stand_in = -1 - int(scratch.execute("SELECT count(*) FROM standings").fetchone()[0])
    before = float(after or 0.0) - float(delta or 0.0)
    scratch.execute(*ranked.put_standing(stand_in, lobby, (0, 0, before, 0, 0, 0, 0, 0)))
    return stand_in


def _compare(query: Query, scratch: sqlite3.Connection, games: int, report: Report) -> None:
    columns = "account, lobby, dan, points, rating, games, first, second, third, fourth"
    stored = {(r[0], r[1]): r[2:] for r in query(f"SELECT {columns} FROM standings", ())}
    again = {
        (r[0], r[1]): r[2:]
        for r in scratch.execute(f"SELECT {columns} FROM standings WHERE account >= 0")
    }
    wrong = 0
    for key in sorted(set(stored) | set(again), key=repr):
        have, want = stored.get(key), again.get(key)
        if have is None or want is None or not _same(have, want):
            wrong += 1
            report.problem(
                f"standing of account {key[0]} in {key[1]}: stored {_show(have)}, "
                f"its games give {_show(want)}"
            )
    report.say(
        f"ratings: {len(stored) - wrong} of {len(stored)} standings equal their {games} "
        "counted games counted again"
    )


def _same(have: tuple[Any, ...], want: tuple[Any, ...]) -> bool:
    return (
        tuple(have[:2]) == tuple(want[:2])
        and abs(float(have[2]) - float(want[2])) < R_TOLERANCE
        and tuple(have[3:]) == tuple(want[3:])
    )


def _show(row: tuple[Any, ...] | None) -> str:
    if row is None:
        return "nothing"
    dan, points, rating, games, *places = row
    return f"dan {dan} points {points} R {float(rating):.2f} games {games} places {places}"
