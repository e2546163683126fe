"""Reviews kept with the records: one row per (game, seat, engine), its job and its result.

The row is the job's claim as well as its result, so a cluster of nodes sharing PostgreSQL
reviews a game once: a node inserts the row with a job id of its own (``claim``), and only
the node whose id the row holds runs the review and writes its progress and result (every
write names the job, so a node that lost its claim writes nothing). A job whose node went
away (no heartbeat for ``stale_s``, or this very node before a restart) is taken over by
compare-and-set on the job id. Any node serves a row. The SQL runs on SQLite and PostgreSQL
alike (``?`` placeholders, ``ON CONFLICT``), as server/storage/persist.py's does.
"""

from __future__ import annotations

from typing import Any

import msgspec

from server.storage.sqlite import Store

#: a job's states: waiting for a worker, being reviewed, stored, or given up with a reason
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
#: states of a job some node still owes a result for
PENDING = (QUEUED, RUNNING)

_COLUMNS = "game, seat, engine, status, job, node, done, total, at, error"


class ReviewRow(msgspec.Struct, frozen=True):
    """A stored review without its result (the result is read only when served)."""

    game: str
    seat: int
    engine: str
    status: str
    job: str
    node: str
    done: int
    total: int
    #: unix seconds of the last word of its node (claim, progress, end): the heartbeat
    at: float
    error: str = ""


class Figures(msgspec.Struct):
    """What a profile shows of a report (engine/review/report.py ``Review``)."""

    match_rate: float | None = None
    rating: float | None = None


def row(storage: Store, game: str, seat: int, engine: str) -> ReviewRow | None:
    rows = storage.query(
        f"SELECT {_COLUMNS} FROM reviews WHERE game = ? AND seat = ? AND engine = ?",
        (game, seat, engine),
    )
    return _row(rows[0]) if rows else None


def result(storage: Store, game: str, seat: int, engine: str) -> bytes | None:
    """The stored review's JSON (engine.review's report), None until it is done."""
    rows = storage.query(
        "SELECT result FROM reviews WHERE game = ? AND seat = ? AND engine = ? AND status = ?",
        (game, seat, engine, DONE),
    )
    return rows[0][0].encode() if rows and rows[0][0] is not None else None


def claim(
    storage: Store,
    key: tuple[str, int, str],
    job: str,
    node: str,
    total: int,
    now: float,
    takeover: str | None = None,
) -> ReviewRow:
    """Insert the job as ``job`` of ``node`` unless a row exists; with ``takeover`` (the job
    id of a pending row whose node went away) replace that job only if it is still the one.
    The row as it stands after: the caller runs the review iff ``row.job == job``."""
    game, seat, engine = key
    if takeover is None:
        storage.execute(
            f"INSERT INTO reviews ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, '') "
            "ON CONFLICT (game, seat, engine) DO NOTHING",
            (game, seat, engine, QUEUED, job, node, total, now),
        )
    else:
        storage.execute(
            "UPDATE reviews SET job = ?, node = ?, status = ?, done = 0, at = ? "
            "WHERE game = ? AND seat = ? AND engine = ? AND job = ? AND status IN (?, ?)",
            (job, node, QUEUED, now, game, seat, engine, takeover, *PENDING),
        )
    found = row(storage, game, seat, engine)
    assert found is not None, "a claimed review row is never deleted"
    return found


def progress(storage: Store, job: str, done: int, now: float) -> None:
    """``done`` hands reviewed so far: the job runs (and its node is alive)."""
    storage.execute(
        "UPDATE reviews SET status = ?, done = ?, at = ? WHERE job = ? AND status IN (?, ?)",
        (RUNNING, done, now, job, *PENDING),
    )


def finish(storage: Store, job: str, report: bytes, now: float) -> None:
    """The review's report stored (its figures beside it); from now on every request is
    served from it."""
    f = msgspec.json.decode(report, type=Figures)
    storage.execute(
        "UPDATE reviews SET status = ?, done = total, at = ?, result = ?, match_rate = ?, "
        "rating = ? WHERE job = ? AND status IN (?, ?)",
        (DONE, now, report.decode(), f.match_rate, f.rating, job, *PENDING),
    )


def fail(storage: Store, job: str, reason: str, now: float) -> None:
    """A review that cannot be made (the reviewer refused the game, or its AI died)."""
    storage.execute(
        "UPDATE reviews SET status = ?, at = ?, error = ? WHERE job = ? AND status IN (?, ?)",
        (FAILED, now, reason[:500], job, *PENDING),
    )


def _row(r: tuple[Any, ...]) -> ReviewRow:
    return ReviewRow(r[0], int(r[1]), r[2], r[3], r[4], r[5], int(r[6]), int(r[7]), r[8], r[9])


def game_facts(storage: Store, game: str) -> tuple[str, int] | None:
    """The stored game's status and number of players (None: no such game), without
    reading its decisions."""
    rows = storage.query("SELECT status, rules FROM games WHERE id = ?", (game,))
    if not rows:
        return None
    players = msgspec.json.decode(rows[0][1]).get("players", 4)
    return str(rows[0][0]), int(players)
