"""Accounts and their login sessions as rows, with SQL that runs on SQLite and PostgreSQL.

An account row holds the name as registered, its ``name_key`` (the form two names collide on,
unique), the argon2id hash and the operator's flags (admin, banned). A login row holds the
SHA-256 of the session token (never the token) and the CSRF token sent with cookie writes.
Ids are random 62-bit integers, so no dialect's autoincrement is needed and an id says
nothing about how many accounts there are.
"""

from __future__ import annotations

import secrets

import msgspec

from server.storage.sqlite import Statement, Store

#: the name a deleted account's seats show in the games it played
ANONYMOUS = "anonymous"


class AccountRow(msgspec.Struct, frozen=True):
    id: int
    name: str
    hash: str
    admin: bool
    banned: bool


class LoginRow(msgspec.Struct, frozen=True):
    digest: str
    account: int
    created: float
    expires: float
    csrf: str


class NameTaken(ValueError):
    """Another account has this name (or one that looks the same)."""


_ACCOUNT = "SELECT id, name, hash, admin, banned FROM accounts"


def _account(rows: list[tuple[object, ...]]) -> AccountRow | None:
    if not rows:
        return None
    r = rows[0]
    return AccountRow(int(str(r[0])), str(r[1]), str(r[2]), bool(r[3]), bool(r[4]))


def by_key(store: Store, key: str) -> AccountRow | None:
    return _account(store.query(f"{_ACCOUNT} WHERE name_key = ?", (key,)))


def by_id(store: Store, account: int) -> AccountRow | None:
    return _account(store.query(f"{_ACCOUNT} WHERE id = ?", (account,)))


def create(store: Store, name: str, key: str, hashed: str, now: float) -> int:
    """A new account's id; NameTaken when the key is in use (checked by the unique index,
    so two registrations racing for one name cannot both win)."""
    account = secrets.randbits(62)
    try:
        store.execute(
            "INSERT INTO accounts (id, name, name_key, hash, created) VALUES (?, ?, ?, ?, ?)",
            (account, name, key, hashed, now),
        )
    except Exception as exc:  # sqlite3.IntegrityError or psycopg's UniqueViolation
        if by_key(store, key) is not None:
            raise NameTaken(name) from exc
        raise
    return account


def set_hash(store: Store, account: int, hashed: str) -> None:
    store.execute("UPDATE accounts SET hash = ? WHERE id = ?", (hashed, account))


def set_flag(store: Store, account: int, flag: str, on: bool) -> None:
    """The operator's ``admin`` or ``banned`` flag."""
    if flag not in ("admin", "banned"):
        raise ValueError(flag)
    store.execute(f"UPDATE accounts SET {flag} = ? WHERE id = ?", (int(on), account))


def add_login(store: Store, login: LoginRow) -> None:
    store.execute(
        "INSERT INTO logins (digest, account, created, expires, csrf) VALUES (?, ?, ?, ?, ?)",
        (login.digest, login.account, login.created, login.expires, login.csrf),
    )


def login(store: Store, digest: str) -> LoginRow | None:
    rows = store.query(
        "SELECT digest, account, created, expires, csrf FROM logins WHERE digest = ?", (digest,)
    )
    if not rows:
        return None
    r = rows[0]
    return LoginRow(str(r[0]), int(r[1]), float(r[2]), float(r[3]), str(r[4]))


def drop_login(store: Store, digest: str) -> None:
    store.execute("DELETE FROM logins WHERE digest = ?", (digest,))


def drop_logins(store: Store, account: int, keep: str = "") -> None:
    """Every session of ``account`` but ``keep`` (a password change logs the others out)."""
    store.execute("DELETE FROM logins WHERE account = ? AND digest <> ?", (account, keep))


def drop_expired(store: Store, now: float) -> None:
    store.execute("DELETE FROM logins WHERE expires <= ?", (now,))


def delete(store: Store, account: int, seats: list[tuple[str, int, str]]) -> None:
    """Delete ``account``: its row, sessions, standings and stats go; in every game it sat
    (``seats``: game, seat index, that game's seats as JSON) its name becomes ANONYMOUS."""
    statements: list[Statement] = []
    for game, seat, seats_json in seats:
        names = msgspec.json.decode(seats_json, type=list[str])
        names[seat] = ANONYMOUS
        statements.append(
            ("UPDATE games SET seats = ? WHERE id = ?", (msgspec.json.encode(names).decode(), game))
        )
        statements.append(
            ("UPDATE seats SET name = ? WHERE game = ? AND seat = ?", (ANONYMOUS, game, seat))
        )
    statements += [
        ("UPDATE ranked_seats SET account = NULL WHERE account = ?", (account,)),
        ("DELETE FROM standings WHERE account = ?", (account,)),
        ("DELETE FROM player_stats WHERE account = ?", (account,)),
        ("DELETE FROM logins WHERE account = ?", (account,)),
        ("DELETE FROM accounts WHERE id = ?", (account,)),
    ]
    store.transaction(statements)
