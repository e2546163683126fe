"""``python -m server accounts ...``: the operator's account commands, run beside (or
without) a running server on the same store.

    python -m server accounts list
    python -m server accounts admin NAME     (and unadmin NAME)
    python -m server accounts ban NAME       (and unban NAME)
    python -m server accounts ban --id ID    (any command: the account with that id)

A ban takes effect at once: the running server reads the flag at every login, queue entry
and table formed, and the banned account's sessions are deleted here.

A NAME stands for every account whose name looks like it (server/accounts/lookalike.py):
when that is more than one (look-alikes registered before they were refused), the command
does nothing and lists them with their ids, so a ban never lands on the wrong one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from server.accounts.names import alike
from server.settings import Settings
from server.storage import accounts as rows
from server.storage.migrate import SchemaTooNew
from server.storage.sqlite import Store
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
    parser.add_argument("--id", type=int, help="the account's id (from list), not its name")
    args = parser.parse_args(argv)
    try:
        store = open_store(settings)
    except SchemaTooNew as exc:  # a newer release's database: left as it is
        print(f"python -m server accounts: {exc}", file=sys.stderr)
        return 65  # os.EX_DATAERR, as python -m server
    try:
        if args.command == "list":
            query = "SELECT name, admin, banned, id FROM accounts ORDER BY name"
            for row in store.query(query, ()):
                marks = [m for m, on in (("admin", row[1]), ("banned", row[2])) if on]
                print(row[0], *marks, f"id={row[3]}")
            return 0
        if (args.id is None) == (not args.name):
            parser.error(f"{args.command} needs an account name or --id, not both")
        account = _find(store, args.name, args.id)
        if account is None:
            return 1
        flag, on = FLAGS[args.command]
        rows.set_flag(store, account.id, flag, on)
        if flag == "banned" and on:
            rows.drop_logins(store, account.id)
        print(f"{account.name}: {args.command}")
        return 0
    finally:
        store.close()


def _find(store: Store, name: str | None, account: int | None) -> rows.AccountRow | None:
    """The one account meant, or None after saying why on stderr."""
    if account is not None:
        found = rows.by_id(store, account)
        if found is None:
            print(f"no account with id {account}", file=sys.stderr)
        return found
    assert name is not None
    matches = alike(store, name)
    if not matches:
        print(f"no account {name!r}", file=sys.stderr)
        return None
    if len(matches) > 1:
        listed = ", ".join(f"{n!r} (id={i})" for i, n in matches)
        print(f"{name!r} looks like {len(matches)} accounts: {listed}; use --id", file=sys.stderr)
        return None
    return rows.by_id(store, matches[0][0])
