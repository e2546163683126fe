"""Session tokens: random, shown to the client once, stored only as their SHA-256.

A stolen database then holds no usable session. The token is 32 random bytes (``secrets``),
so a plain SHA-256 suffices (no salt or slow hash: nothing to guess). A new token is issued at
every login (no session fixation); the CSRF token for cookie-authenticated writes is a second,
independent random value stored beside the session.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import msgspec

#: random bytes in a token
TOKEN_BYTES = 32


class Session(msgspec.Struct, frozen=True):
    """What the store keeps: the token's digest, never the token."""

    digest: str
    account: int
    created: float
    expires: float
    csrf: str


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """The stored form of a token (hex SHA-256).

    >>> digest("abc")
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    """
    return hashlib.sha256(token.encode()).hexdigest()


def issue(account: int, now: float, ttl: float) -> tuple[str, Session]:
    """A fresh token for the client and the session to store for it."""
    token = new_token()
    return token, Session(digest(token), account, now, now + ttl, new_token())


def valid(session: Session | None, token: str, now: float) -> bool:
    """The token matches the stored session (constant time) and it has not expired."""
    if session is None:
        return False
    return hmac.compare_digest(session.digest, digest(token)) and now < session.expires


def csrf_ok(session: Session, sent: str) -> bool:
    """The CSRF token a cookie-authenticated write sent is the session's (constant time)."""
    return hmac.compare_digest(session.csrf.encode(), sent.encode())
