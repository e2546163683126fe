"""The login budget: token buckets per account and per address, the clock passed in, and
a budget of its own for each place the owner already logged in from.

A login attempt spends one token from the account's bucket and one from the address's (the
client as the edge's ``Guard.client`` names it: an IPv6 client is its /``ipv6_prefix``
network); it is refused when either is empty, so guessing one account's password from many
addresses, or many accounts' from one address, runs dry at the same rate. Buckets refill
continuously. A refused attempt spends nothing (a refused flood does not lock the real owner
out longer), and full buckets are forgotten so the tables stay bounded by the attackers'
recent activity.

>>> b = LoginBudget(account=Bucket(2, 1 / 60), address=Bucket(10, 1 / 6))
>>> [b.attempt("taro", "10.0.0.1", now=0.0) for _ in range(3)]
[True, True, False]
>>> b.attempt("taro", "10.0.0.1", now=60.0)
True

The account's bucket is spent by every client nobody knows, so guesses from anywhere would
lock the owner out too. A client the server knows for that name (OWASP's "device cookie":
a signed cookie from an earlier successful login, or the address of one; an authenticated
session) spends a bucket of its own instead (``Trusted``), so the owner keeps logging in
while strangers' guesses run dry.
"""

from __future__ import annotations

from collections import OrderedDict

import msgspec


class Bucket(msgspec.Struct, frozen=True):
    """``capacity`` tokens, refilled at ``rate`` tokens a second."""

    capacity: float
    rate: float


class _Level(msgspec.Struct):
    tokens: float
    at: float


class _Buckets:
    def __init__(self, shape: Bucket, limit: int) -> None:
        self.shape = shape
        self.limit = limit
        self.levels: dict[str, _Level] = {}

    def tokens(self, key: str, now: float) -> float:
        level = self.levels.get(key)
        if level is None:
            return self.shape.capacity
        elapsed = max(0.0, now - level.at)
        return min(self.shape.capacity, level.tokens + elapsed * self.shape.rate)

    def spend(self, key: str, now: float) -> None:
        self.levels[key] = _Level(self.tokens(key, now) - 1, now)
        if len(self.levels) > self.limit:
            self.forget_full(now)

    def forget_full(self, now: float) -> None:
        """Drop the full buckets; if still over, the oldest, down to nine tenths of the
        limit, so a flood of new keys costs one sweep per tenth of the limit, not per key."""
        full = [k for k in self.levels if self.tokens(k, now) >= self.shape.capacity]
        for key in full:
            del self.levels[key]
        keep = self.limit * 9 // 10
        if len(self.levels) > keep:
            oldest = sorted(self.levels, key=lambda k: self.levels[k].at)
            for key in oldest[: len(self.levels) - keep]:
                del self.levels[key]

    def wait(self, key: str, now: float) -> float:
        missing = 1 - self.tokens(key, now)
        return max(0.0, missing / self.shape.rate)


class LoginBudget:
    """``account`` and ``address`` bucket shapes; ``limit`` keys kept per table at most."""

    def __init__(self, account: Bucket, address: Bucket, limit: int = 100_000) -> None:
        self.accounts = _Buckets(account, limit)
        self.addresses = _Buckets(address, limit)

    def attempt(self, account_key: str, address: str, now: float) -> bool:
        """Spend one attempt for both, or refuse (spending nothing). ``account_key`` is the
        name's key whether or not the account exists, so refusals do not reveal names."""
        if self.accounts.tokens(account_key, now) < 1:
            return False
        if self.addresses.tokens(address, now) < 1:
            return False
        self.accounts.spend(account_key, now)
        self.addresses.spend(address, now)
        return True

    def retry_after(self, account_key: str, address: str, now: float) -> float:
        """Seconds until an attempt would be allowed (0 when it would be now)."""
        return max(self.accounts.wait(account_key, now), self.addresses.wait(address, now))


class Trusted:
    """One bucket per (name, known place): ``shape`` each, ``limit`` keys kept at most."""

    def __init__(self, shape: Bucket, limit: int = 100_000) -> None:
        self.buckets = _Buckets(shape, limit)

    def attempt(self, key: str, now: float) -> bool:
        if self.buckets.tokens(key, now) < 1:
            return False
        self.buckets.spend(key, now)
        return True

    def retry_after(self, key: str, now: float) -> float:
        return self.buckets.wait(key, now)


class Places:
    """The addresses of each name's last ``per_name`` successful logins (``limit`` names,
    the least recently used forgotten first).

    >>> p = Places(per_name=2)
    >>> for address in ("a", "b", "c"):
    ...     p.add("taro", address)
    >>> p.known("taro", "a"), p.known("taro", "c"), p.known("jiro", "c")
    (False, True, False)
    """

    def __init__(self, per_name: int = 4, limit: int = 100_000) -> None:
        self.per_name = per_name
        self.limit = limit
        self.places: OrderedDict[str, list[str]] = OrderedDict()

    def add(self, key: str, address: str) -> None:
        known = [a for a in self.places.pop(key, []) if a != address] + [address]
        self.places[key] = known[-self.per_name :]
        while len(self.places) > self.limit:
            self.places.popitem(last=False)

    def known(self, key: str, address: str) -> bool:
        return address in self.places.get(key, ())
