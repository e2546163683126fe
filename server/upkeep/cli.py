"""``python -m server backup FILE``, ``restore FILE`` and ``doctor``, on the store the
server's settings name (``--data-dir``, ``--database-url``, their RIICHI_* variables).

Exit codes: 0 done (doctor: no problem), 1 doctor found a problem, 64 the store is
PostgreSQL (backup, restore: the commands to use instead are printed, nothing was done),
65 the backup file is not whole records, 66 no records to back up, 75 a server holds the
data dir (restore).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from server.runtime.datadir import DataDirHeld
from server.settings import Settings, SettingsError, from_args
from server.upkeep import backup, doctor

COMMANDS = ("backup", "restore", "doctor")


def main(command: str, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m server {command}")
    if command != "doctor":
        what = "the copy to write" if command == "backup" else "the backup to restore"
        parser.add_argument("file", metavar="FILE", help=what)
    parser.add_argument("--data-dir", help="the SQLite records folder (RIICHI_DATA_DIR)")
    parser.add_argument("--database-url", help="records in PostgreSQL (RIICHI_DATABASE_URL)")
    args = parser.parse_args(argv)
    flags = [f"--{k}={v}" for k, v in (("data-dir", args.data_dir),) if v is not None]
    if args.database_url is not None:
        flags.append(f"--database-url={args.database_url}")
    try:
        settings = from_args(flags)
    except SettingsError as exc:
        print(f"python -m server {command}: {exc}", file=sys.stderr)
        return 2
    if command == "doctor":
        return _doctor(settings)
    return _copy(command, settings, Path(args.file))


def _doctor(settings: Settings) -> int:
    if settings.database_url:
        report = doctor.examine_postgres(settings)
    else:
        report = doctor.examine(settings)
    return 1 if report.problems else 0


def _copy(command: str, settings: Settings, file: Path) -> int:
    if settings.database_url:
        line = (
            backup.pg_dump_line(settings.database_url, str(file))
            if command == "backup"
            else backup.pg_restore_line(settings.database_url, str(file))
        )
        print(
            f"riichi: the records are in PostgreSQL; {command} them with PostgreSQL's own "
            f"tool (nothing was done here):\n  {line}",
            file=sys.stderr,
        )
        if command == "restore":
            print("  (stop every node first; start them again after)", file=sys.stderr)
        return os.EX_USAGE
    try:
        if command == "backup":
            copied = backup.backup(settings, file)
            print(
                f"backed up {copied.games} games ({copied.finished} finished, "
                f"{copied.unfinished} in play) to {copied.path}: {copied.pages} pages "
                f"in {copied.seconds:.2f} s"
            )
            return 0
        copied, moved = backup.restore(settings, file)
    except DataDirHeld as held:
        print(
            f"riichi: a server runs on this data dir: {held}. Stop it first; nothing was restored.",
            file=sys.stderr,
        )
        return os.EX_TEMPFAIL
    except backup.UpkeepError as exc:
        print(f"riichi: {exc}", file=sys.stderr)
        missing = command == "backup" and not settings.db_path.exists()
        return os.EX_NOINPUT if missing else os.EX_DATAERR
    for path in moved:
        print(f"the records it replaced are kept as {path}")
    print(
        f"restored {copied.games} games ({copied.finished} finished, {copied.unfinished} in"
        f" play) into {copied.path}; start the server: the games in play go on from their"
        " last stored decision"
    )
    return 0
