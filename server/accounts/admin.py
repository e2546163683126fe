"""``python -m server accounts ...``: the operator's account commands, run beside (or
without) a running server on the same store.

    python -m server accounts list
    python -m server accounts admin NAME     (and unadmin NAME)
    python -m server accounts ban NAME       (and unban NAME)

A ban takes effect at once: the running server reads the flag at every login, queue entry
and table formed, and the banned account's sessions are deleted here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from server.accounts.names import name_key
from server.settings import Settings
from server.storage import accounts as rows
from server.storage.stores import open_store

#: command -> (flag, value)
FLAGS = {
    "admin": ("admin", True),
    "unadmin": ("admin", False),
    "ban": ("banned", True),
    "unban": ("banned", False),
}


def main(argv: Sequence[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="python -m server accounts")
    parser.add_argument("command", choices=["list", *FLAGS])
    parser.add_argument("name", nargs="?")
    args = parser.parse_args(argv)
    store = open_store(settings)
    try:
        if args.command == "list":
            for row in store.query("SELECT name, admin, banned FROM accounts ORDER BY name", ()):
                marks = [m for m, on in (("admin", row[1]), ("banned", row[2])) if on]
                print(row[0], *marks)
            return 0
        if not args.name:
            parser.error(f"{args.command} needs an account name")
        account = rows.by_key(store, name_key(args.name))
        if account is None:
            print(f"no account {args.name!r}", file=sys.stderr)
            return 1
        flag, on = FLAGS[args.command]
        rows.set_flag(store, account.id, flag, on)
        if flag == "banned" and on:
            rows.drop_logins(store, account.id)
        print(f"{account.name}: {args.command}")
        return 0
    finally:
        store.close()
