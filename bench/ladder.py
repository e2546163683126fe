"""The ladder's reads with 100,000 finished ranked games in the store, and the queue's seating.

    python -m bench.ladder [--games 100000] [--accounts 4000] [--requests 400] [--no-pg]

For SQLite and for PostgreSQL (a real one started here, tests/services.py), the store is
seeded directly (bulk inserts of what 100,000 counted games leave: games, ranked seats with
their results, standings, summed stats), then each read the API makes for a profile
(``GET /api/players/{name}``), a page of games (``/games``) and a leaderboard page is timed
over ``--requests`` random players: p50 and p99 in ms. Beside them, measured in the same run:
the floor (one primary-key read on the same store) and the peer, the same profile's rows
found by scanning the seats table (what an unindexed "sum it from the records" read costs).

The queue: 1,000 accounts queued one after another into a real hub's ranked lobby, so 250
tables form and start (the hub's rooms, seats and stored games), against the queue's own
bookkeeping with a seater that does nothing. Exits non-zero when it measured nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.app import HubSeater
from server.ladder import lobbies
from server.ladder.queue import Queue
from server.routes.accounts import AccountsApi
from server.routes.ranked import RankedApi
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.settings import Settings
from server.storage import ranked
from server.storage.sqlite import Storage, Store

LOBBY = "hanchan"
CONFIG = lobbies.parse("")


def _rows(games: int, players: int, seed: int = 1) -> dict[str, list[tuple[Any, ...]]]:
    """What ``games`` counted games among ``players`` accounts leave in the tables."""
    rng = random.Random(seed)
    out: dict[str, list[tuple[Any, ...]]] = {
        "accounts": [(a, f"p{a}", f"p{a}", "x", 0.0) for a in range(1, players + 1)],
        "games": [],
        "endings": [],
        "ranked_games": [],
        "ranked_seats": [],
    }
    played = dict.fromkeys(range(1, players + 1), 0)
    for g in range(games):
        seats = rng.sample(range(1, players + 1), 4)
        game = f"g{g:06d}"
        ended = 1.7e9 + g
        names = "[" + ",".join(f'"p{a}"' for a in seats) + "]"
        out["games"].append((game, "R", "tenhou-hanchan", g, "{}", names, "finished", "{}"))
        out["endings"].append((game, ended))
        out["ranked_games"].append((game, LOBBY, ended, 1, 1, ended))
        for seat, a in enumerate(seats):
            played[a] += 1
            row = (game, seat, a, LOBBY, seat + 1, 25000, 10, 100, 1500.0 + seat, 1.0, ended)
            out["ranked_seats"].append(row)
    out["standings"] = [
        (a, LOBBY, 10, 100, 1500.0 + a % 97, n, n // 4, n // 4, n // 4, n - 3 * (n // 4))
        for a, n in played.items()
    ]
    out["player_stats"] = [(a, LOBBY, n, *([n * 7] * 14)) for a, n in played.items()]
    return out


def _insert(table: str, columns: str) -> str:
    marks = ", ".join("?" for _ in columns.split(","))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks})"


INSERTS = {
    "accounts": _insert("accounts", "id, name, name_key, hash, created"),
    "games": _insert("games", "id, room, preset, seed, rules, seats, status, result"),
    "endings": _insert("endings", "game, at"),
    "ranked_games": _insert("ranked_games", "game, lobby, created, counted, stats_done, ended"),
    "ranked_seats": _insert(
        "ranked_seats",
        "game, seat, account, lobby, place, score, dan, points, rating, rating_delta, ended",
    ),
    "standings": _insert(
        "standings", "account, lobby, dan, points, rating, games, first, second, third, fourth"
    ),
    "player_stats": _insert("player_stats", "account, lobby, " + ", ".join(ranked.STAT_FIELDS)),
}


def seed_sqlite(path: Path, rows: dict[str, list[tuple[Any, ...]]]) -> Store:
    Storage(path).close()
    with sqlite3.connect(path) as db:
        for table, sql in INSERTS.items():
            db.executemany(sql, rows[table])
    db.close()
    return Storage(path)


def seed_pg(url: str, rows: dict[str, list[tuple[Any, ...]]]) -> Store:
    import psycopg

    from server.storage.postgres import PgStore

    PgStore(url, node="bench").close()
    with psycopg.connect(url) as db, db.cursor() as cur:
        for table, sql in INSERTS.items():
            cur.executemany(sql.replace("?", "%s"), rows[table])
        cur.execute("ANALYZE")
    return PgStore(url, node="bench")


def _timed(n: int, call: Callable[[int], object]) -> list[float]:
    out = []
    for i in range(n):
        started = time.perf_counter()
        call(i)
        out.append((time.perf_counter() - started) * 1000)
    return out


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def reads(store: Store, players: int, requests: int, pg: bool) -> dict[str, list[float]]:
    queue = Queue(store, CONFIG, NoSeater())
    api = RankedApi(store, queue, AccountsApi(store, Settings(), guard=None), CONFIG)  # type: ignore[arg-type]
    rng = random.Random(7)
    names = [f"p{rng.randrange(1, players + 1)}" for _ in range(requests)]
    scan = "account + 0 = ?" if pg else "+account = ?"
    results = {
        "floor (key read)": _timed(
            requests,
            lambda i: store.query("SELECT name FROM accounts WHERE id = ?", (int(names[i][1:]),)),
        ),
        "profile": _timed(requests, lambda i: api._profile(names[i])),
        "games page": _timed(requests, lambda i: api._games(names[i], float("inf"), 20)),
        "leaderboard page": _timed(
            requests, lambda i: ranked.board(store, LOBBY, rng.randrange(0, players - 50), 50)
        ),
        "peer: profile by scan": _timed(
            min(requests, 40),
            lambda i: store.query(
                f"SELECT place, rating_delta FROM ranked_seats WHERE {scan} ORDER BY ended",
                (int(names[i][1:]),),
            ),
        ),
    }
    assert api._profile(names[0]) is not None, "the seeded player has no profile"
    return results


class NoSeater:
    """The floor of the queue: seating that does nothing."""

    def __init__(self) -> None:
        self.n = 0

    def seat(self, lobby: Any, names: list[str]) -> tuple[str, str, list[tuple[int, str]], str]:
        self.n += 1
        return f"R{self.n}", f"q{self.n}", [(i, "t") for i in range(len(names))], ""


async def seat_1000(data_dir: Path, n: int) -> tuple[float, float, int]:
    """(seconds to seat ``n`` queued accounts through a real hub, the same with NoSeater,
    tables formed)."""
    data_dir.mkdir()
    settings = Settings(data_dir=str(data_dir), start_grace_s=3600, max_rooms=100_000)
    store = Storage(settings.db_path)
    for a in range(1, n + 1):
        store.execute(INSERTS["accounts"], (a, f"q{a}", f"q{a}", "x", 0.0))
    hub = Hub(settings, store, RealEngine())
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        queue = Queue(store, CONFIG, HubSeater(hub, settings))
        started = time.perf_counter()
        for a in range(1, n + 1):
            await queue.join(a, f"q{a}", LOBBY)
        real = time.perf_counter() - started
        formed = queue.formed
        tg.cancel_scope.cancel()
    store2 = Storage(data_dir / "floor.sqlite3")
    for a in range(1, n + 1):
        store2.execute(INSERTS["accounts"], (a, f"q{a}", f"q{a}", "x", 0.0))
    bare = Queue(store2, CONFIG, NoSeater())
    started = time.perf_counter()
    for a in range(1, n + 1):
        await bare.join(a, f"q{a}", LOBBY)
    floor = time.perf_counter() - started
    store.close()
    store2.close()
    return real, floor, formed


def _report(kind: str, results: dict[str, list[float]]) -> None:
    for what, values in results.items():
        p50, p99 = _p(values, 50), _p(values, 99)
        print(f"{kind} {what}: p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(values)} reads)")


@contextlib.contextmanager
def _pg_url() -> Iterator[str]:
    from tests.services import fresh_database, postgres_server

    with postgres_server() as url:
        yield fresh_database(url, "ladder")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--accounts", type=int, default=4000)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--queued", type=int, default=1000)
    parser.add_argument("--no-pg", action="store_true")
    args = parser.parse_args()
    measured = 0
    rows = _rows(args.games, args.accounts)
    tmp = Path(tempfile.mkdtemp(prefix="riichi-ladder-"))
    started = time.perf_counter()
    store = seed_sqlite(tmp / "records.sqlite3", rows)
    print(f"sqlite: seeded {args.games} games in {time.perf_counter() - started:.1f} s")
    results = reads(store, args.accounts, args.requests, pg=False)
    _report("sqlite", results)
    measured += sum(len(v) for v in results.values())
    store.close()
    if not args.no_pg:
        with _pg_url() as url:
            started = time.perf_counter()
            store = seed_pg(url, rows)
            print(f"postgresql: seeded {args.games} games in {time.perf_counter() - started:.1f} s")
            results = reads(store, args.accounts, args.requests, pg=True)
            _report("postgresql", results)
            measured += sum(len(v) for v in results.values())
            store.close()
    real, floor, formed = anyio.run(seat_1000, tmp / "queue", args.queued)
    print(
        f"queue: {args.queued} queued accounts seated at {formed} tables in {real * 1000:.0f} ms "
        f"({real / max(formed, 1) * 1000:.2f} ms a table); floor (no hub) {floor * 1000:.0f} ms"
    )
    measured += formed
    if not measured or formed * 4 != args.queued:
        print("ladder: measured nothing", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
