"""``python -m server [--host H] [--port P] [--data-dir D]``: the server with embedded defaults.

``python -m server --version`` prints the release (server/version.py);
``python -m server backup FILE``, ``restore FILE`` and ``doctor`` look after the records
(server/upkeep/, docs/operating.md).
``python -m server --healthcheck`` (same settings) asks a running server's ``/healthz`` on the
configured port and exits 0 when it answers: the container's health check, which so follows
``RIICHI_PORT`` instead of hard-coding one.
Settings out of range stop it before it listens: the message names them, the exit code is 2.
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import sqlite3
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import NoReturn

import msgspec

from server.runtime import datadir
from server.runtime.process import refuse_in_worker
from server.settings import Settings, SettingsError, from_args

#: frames above this close the socket at the protocol level; smaller ones over
#: ``max_frame`` get an error message (docs/protocol.md)
WS_MAX_SIZE = 65536
#: the exit code of a server whose data dir another server holds (EX_TEMPFAIL: try again
#: once that one has stopped)
EX_HELD = os.EX_TEMPFAIL


def data_dir_problem(settings: Settings) -> str | None:
    """Why the records cannot be written to the data dir, or None when they can.

    Checked before the server starts, so a read-only or root-owned ``/data`` is one line that
    says what to do, not an SQLite traceback ("unable to open database file") at the first game.
    """
    data_dir = Path(settings.data_dir)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=data_dir, prefix=".write-check-"):
            pass
        db = settings.db_path
        for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            if path.exists():
                with path.open("ab"):
                    pass
    except OSError as error:
        return f"{error.filename or data_dir}: {error.strerror or error}"
    return None


def records_problem(settings: Settings) -> str | None:
    """Why the records database cannot be used (damaged, not a database), or None.

    ``PRAGMA quick_check`` reads every page: a truncated file, garbage or a bad page is one
    line at start naming the file, not a traceback now or a 500 in the middle of a game."""
    db = settings.db_path
    if settings.database_url or not db.exists():
        return None
    try:
        with contextlib.closing(sqlite3.connect(str(db))) as conn:
            rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return f"{db}: {exc}"
    if rows != [("ok",)]:
        first = " ".join(str(rows[0][0]).split())  # SQLite's text may span lines: one line
        return f"{db}: {first}" + (f" (and {len(rows) - 1} more problems)" if rows[1:] else "")
    return None


def schema_problem(settings: Settings) -> str | None:
    """Why this code may not open the SQLite records (written by a newer server), or None.
    Read through a read-only connection: a refused file is left byte for byte as it was."""
    if settings.database_url:
        return None  # PgStore refuses it when opened
    from server.storage import migrate

    try:
        migrate.check(str(settings.db_path), migrate.sqlite_file_applied(settings.db_path))
    except migrate.SchemaTooNew as exc:
        return str(exc)
    except sqlite3.DatabaseError:
        return None  # not a database: records_problem names it
    return None


def healthcheck(settings: Settings) -> int:
    """0 when the server on the configured port answers ``/healthz``, else 1."""
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]"}.get(settings.host)
    host = host or (f"[{settings.host}]" if ":" in settings.host else settings.host)
    try:
        with urllib.request.urlopen(f"http://{host}:{settings.port}/healthz", timeout=2) as r:
            return 0 if r.status == 200 else 1
    except OSError:
        return 1


def raise_file_limit() -> None:
    """Use every file descriptor the hard limit allows: connections are file descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


#: file descriptors kept for everything but connections (the database, logs, pipes)
FD_RESERVE = 64


def fit_file_limit(settings: Settings) -> tuple[Settings, str | None]:
    """``settings`` whose connection and socket caps together fit the file limit (an
    upgraded WebSocket leaves the HTTP count, so both are file descriptors at once), and
    what was lowered, if anything: a cap above the limit would let a flood take the last
    descriptor, and the server would fail to open its database or accept anyone."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = max(soft - FD_RESERVE, 32)
    wanted = settings.max_connections + settings.max_sockets
    if soft == resource.RLIM_INFINITY or wanted <= room:
        return settings, None
    conns = max(16, settings.max_connections * room // wanted)
    sockets = max(1, room - conns)
    lowered = msgspec.structs.replace(settings, max_connections=conns, max_sockets=sockets)
    note = (
        f"the file limit is {soft}: max_connections {settings.max_connections} -> {conns}, "
        f"max_sockets {settings.max_sockets} -> {sockets}"
    )
    return lowered, note


def unwritable(settings: Settings, problem: str) -> NoReturn:
    print(
        f"riichi: cannot write the records to the data dir ({problem}).\n"
        f"The server runs as uid {os.getuid()}: make {settings.data_dir} writable for it"
        f" (chown {os.getuid()} DIR), or use a named volume, or set RIICHI_DATA_DIR.",
        file=sys.stderr,
    )
    sys.exit(os.EX_CANTCREAT)


def hold_data_dir(settings: Settings) -> datadir.DataDirLock | None:
    """This process's lock on the SQLite data dir (server/runtime/datadir.py); a server
    already there stops this one here, with its PID, before this one writes a byte. With
    PostgreSQL the records are not in the data dir: the tables' leases fence the writes."""
    if settings.database_url:
        return None
    try:
        return datadir.acquire(settings.data_dir)
    except datadir.DataDirHeld as held:
        print(
            f"riichi: another server runs on this data dir: {held}.\n"
            f"Stop it first (kill {held.pid if held.pid is not None else 'PID'}), or give this"
            f" one a data dir of its own (--data-dir, RIICHI_DATA_DIR). Nothing was written.",
            file=sys.stderr,
        )
        sys.exit(EX_HELD)
    except OSError as error:
        unwritable(settings, f"{error.filename or settings.data_dir}: {error.strerror or error}")


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["accounts"]:
        sys.exit(accounts_command(argv[1:]))
    if argv[:1] and argv[0] in ("backup", "restore", "doctor"):
        from server.upkeep import cli  # the operator's upkeep (server/upkeep/)

        sys.exit(cli.main(argv[0], argv[1:]))
    if "--version" in argv:
        from server.version import VERSION

        print(f"riichi-server {VERSION}")
        sys.exit(0)
    probe = "--healthcheck" in argv
    try:
        settings = from_args([arg for arg in argv if arg != "--healthcheck"])
        settings.validate()
    except SettingsError as exc:
        print(f"python -m server: {exc}", file=sys.stderr)
        sys.exit(2)
    if probe:
        sys.exit(healthcheck(settings))
    refuse_in_worker("the server's start")
    too_new = schema_problem(settings)  # read-only, before anything opens the file to write
    if too_new is not None:
        print(f"riichi: {too_new}", file=sys.stderr)
        sys.exit(os.EX_DATAERR)
    held = hold_data_dir(settings)  # before anything is written or restored
    problem = data_dir_problem(settings)
    if problem is not None:
        unwritable(settings, problem)
    damaged = records_problem(settings)
    if damaged is not None:
        print(
            f"riichi: the records database is damaged ({damaged}). Restore it from a backup,"
            f" or move it away to start with no records.",
            file=sys.stderr,
        )
        sys.exit(os.EX_DATAERR)
    # imported after the checks: a typo is reported at once, not after the engine loads
    import uvicorn

    from engine import native
    from server.app import create_app
    from server.edge.security import uvicorn_options
    from server.native import SERVER
    from server.runtime import heap, logs
    from server.runtime.shutdown import GRACEFUL_S, StoppingServer
    from server.session.engine_port import RealEngine
    from server.session.hub import Hub
    from server.storage.migrate import SchemaTooNew
    from server.storage.stores import open_store

    logs.configure(settings.log_format)
    # the operator sees whether the engine's and the server's hot modules run compiled
    logging.getLogger("server").info("engine: %s", native.describe())
    logging.getLogger("server").info("server: %s", SERVER.describe())
    raise_file_limit()
    settings, lowered = fit_file_limit(settings)
    if lowered is not None:
        logging.getLogger("server").warning("%s", lowered)
    try:
        store = open_store(settings)
    except SchemaTooNew as exc:  # PostgreSQL's (SQLite's was refused above)
        print(f"riichi: {exc}", file=sys.stderr)
        sys.exit(os.EX_DATAERR)
    hub = Hub(settings, store, RealEngine())
    config = uvicorn.Config(
        create_app(settings, hub),
        host=settings.host,
        port=settings.port,
        log_level="info",
        **uvicorn_options(settings),
        timeout_graceful_shutdown=GRACEFUL_S,
    )
    heap.settle()  # the modules and the rules' tables, loaded by now, are out of the GC's walks
    try:
        StoppingServer(config, hub).run()
    finally:
        hub.storage.close()
        if held is not None:
            held.release()


def accounts_command(argv: list[str]) -> int:
    """``python -m server accounts ...`` (server/accounts/admin.py) on the store the server's
    settings name: ``--data-dir`` and ``--database-url`` may come first."""
    known = ("--data-dir", "--database-url")
    flags = [a for i, a in enumerate(argv) if a in known or (i and argv[i - 1] in known)]
    rest = [a for a in argv if a not in flags]
    try:
        settings = from_args(flags)
    except SettingsError as exc:
        print(f"python -m server: {exc}", file=sys.stderr)
        return 2
    from server.accounts import admin

    return admin.main(rest, settings)


if __name__ == "__main__":
    main()
