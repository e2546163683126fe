"""Device cookies (OWASP's defence against lockout): a browser that logged in to a name
before says so, and spends a login budget of its own for that name.

The cookie is ``<nonce>.<mac>``: an HMAC-SHA256 of the name's lookup key and a random nonce,
keyed by the account's stored argon2id hash. So it needs no table and no server secret, reads
the same on every node of a cluster and after a restart, cannot be made without the
database, and ends with the password (a change writes a new hash).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: the cookie's name
COOKIE = "riichi_device"
#: a device cookie lasts this long (it only ever buys a budget of its own)
TTL_S = 365 * 86400


def _mac(key: str, nonce: str, secret: str) -> str:
    message = f"riichi-device-v1\0{key}\0{nonce}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:32]


def issue(key: str, secret: str) -> str:
    """A new cookie for the name ``key``, ``secret`` its account's stored hash."""
    nonce = secrets.token_urlsafe(12)
    return f"{nonce}.{_mac(key, nonce, secret)}"


def device(cookie: str, key: str, secret: str) -> str | None:
    """The cookie's nonce (the device's id) when it was issued for ``key`` with ``secret``.

    >>> made = issue("taro", "$argon2id$...")
    >>> device(made, "taro", "$argon2id$...") == made.split(".")[0]
    True
    >>> device(made, "jiro", "$argon2id$..."), device(made, "taro", "another hash")
    (None, None)
    """
    nonce, _, mac = cookie.partition(".")
    if not nonce or len(cookie) > 128:
        return None
    return nonce if hmac.compare_digest(mac.encode(), _mac(key, nonce, secret).encode()) else None
