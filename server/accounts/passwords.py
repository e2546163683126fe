"""Password hashing with argon2id (argon2-cffi), the same work for a name that does not exist.

A login for an unknown name verifies the password against a dummy hash made with the same
parameters, so its answer and its time are those of a wrong password: the login route cannot
tell anyone which names are registered. Hashing is CPU- and memory-bound by design (64 MiB
each); the server runs it in the hashing pool's threads (server/accounts/hashing.py), never
on the event loop and never in the threads database reads use.
"""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: bounds on a password: long enough to matter, short enough not to be a hashing DoS
MIN_LENGTH = 8
MAX_LENGTH = 256


class PasswordRefused(ValueError):
    """A password outside the bounds."""


def check_password(password: str) -> str:
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise PasswordRefused(f"a password has {MIN_LENGTH} to {MAX_LENGTH} characters")
    return password


class Passwords:
    """Hashes and checks passwords; ``hasher`` defaults to argon2-cffi's argon2id defaults
    (RFC 9106's second recommendation); tests pass cheaper parameters."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        #: verified instead when the name is unknown: same parameters, a password nobody has
        self.dummy = self.hasher.hash(secrets.token_urlsafe(32))

    def hash(self, password: str) -> str:
        return self.hasher.hash(check_password(password))

    def verify(self, stored: str | None, password: str) -> bool:
        """True when ``password`` matches ``stored``; ``stored`` None (no such account) does
        the same work against the dummy hash and is False. An overlong password is cut to
        the bound first (the work stays bounded) and never matches."""
        target = self.dummy if stored is None else stored
        too_long = len(password) > MAX_LENGTH
        try:
            ok = self.hasher.verify(target, password[:MAX_LENGTH])
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None and not too_long

    def needs_rehash(self, stored: str) -> bool:
        """The stored hash was made with other parameters: rehash it at the next login."""
        return self.hasher.check_needs_rehash(stored)
