"""Per-client limits: who a client is, how fast it may create, join and look up rooms, how
many rooms and sockets it may hold.

A client is its remote address. Behind a reverse proxy every request comes from the proxy, so
``trusted_proxies`` names the proxies whose ``X-Forwarded-For`` is believed (off by default:
a header anyone can write must not choose whose budget a request spends).
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Protocol

from starlette.responses import Response

from server.edge.web import error
from server.settings import Settings

#: actions a client may take at once before the per-minute rate applies
CREATE_BURST = 5
JOIN_BURST = 10
LOOKUP_BURST = 20
REPLAY_BURST = 10
#: the four seats of one game reviewed at once
REVIEW_BURST = 4
#: buckets kept before full (idle) ones are pruned, so a scan of many addresses stays bounded
PRUNE_AT = 10_000


def parse_list(text: str) -> frozenset[str]:
    """A comma-separated setting as a set of its non-empty items."""
    return frozenset(item.strip() for item in text.split(",") if item.strip())


def client_id(
    peer: str, headers: Mapping[str, str], proxies: frozenset[str], ipv6_prefix: int = 64
) -> str:
    """The client: the peer, or when the peer is a trusted proxy the last
    ``X-Forwarded-For`` hop that is not itself a trusted proxy; an IPv6 address stands for
    its /``ipv6_prefix`` network (``network``)."""
    if peer not in proxies:
        return network(peer, ipv6_prefix)
    hops = [h.strip() for h in headers.get("x-forwarded-for", "").split(",") if h.strip()]
    for hop in reversed(hops):
        if hop not in proxies:
            return network(hop, ipv6_prefix)
    return peer


def network(address: str, ipv6_prefix: int) -> str:
    """An IPv6 address as its /``ipv6_prefix`` network: one host (a /64 is the smallest
    network a provider hands out) holds 2^64 addresses, which must share one budget."""
    if ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address.strip("[]").split("%")[0])
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))


class Limiter:
    """Token buckets by key: ``per_min`` actions a minute, bursts up to ``burst``."""

    def __init__(
        self, per_min: float, burst: float, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = per_min / 60.0
        self.burst = max(1.0, burst)
        self.now = now
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """0 when ``key`` may act now (and it is counted), else the seconds until it may."""
        now = self.now()
        tokens, at = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
        if len(self._buckets) >= PRUNE_AT:
            self._prune(now)
        self._buckets[key] = (tokens - 1, now)
        return 0.0

    async def acquire(self, key: str) -> float:
        """``take`` behind the interface a shared (Redis) bucket also has."""
        return self.take(key)

    def _prune(self, now: float) -> None:
        for key, (tokens, at) in list(self._buckets.items()):
            if tokens + (now - at) * self.rate >= self.burst:
                del self._buckets[key]


class Bucket(Protocol):
    """Token buckets by client: this process's ``Limiter`` or the cluster's shared one."""

    async def acquire(self, key: str) -> float: ...


#: makes the bucket set named ``name`` (per minute, burst): shared across nodes in a cluster
BucketFactory = Callable[[str, float, float], Bucket]


def too_many(code: str, message: str, retry_after: float) -> Response:
    """429 with ``Retry-After`` in whole seconds (at least 1)."""
    response = error(code, message, 429)
    response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response


class Guard:
    """The per-client budgets of one server."""

    def __init__(
        self,
        settings: Settings,
        now: Callable[[], float] = time.monotonic,
        buckets: BucketFactory | None = None,
    ) -> None:
        self.settings = settings
        self.proxies = parse_list(settings.trusted_proxies)

        def local(name: str, per_min: float, burst: float) -> Bucket:
            return Limiter(per_min, burst, now)

        make = buckets or local
        # bursts: a few rooms at once, a lobby's worth of joins and lookups
        self.creates = make("creates", settings.create_per_min, CREATE_BURST)
        self.joins = make("joins", settings.join_per_min, JOIN_BURST)
        self.lookups = make("lookups", settings.lookup_per_min, LOOKUP_BURST)
        self.replays = make("replays", settings.replay_per_min, REPLAY_BURST)
        self.reviews = make("reviews", settings.review_per_min, REVIEW_BURST)
        #: game ids of the rooms each client created
        self.rooms: dict[str, list[str]] = {}
        #: open WebSockets and event streams by client, and in all
        self.sockets: dict[str, int] = {}
        self.open_sockets = 0

    def client(self, scope_client: tuple[str, int] | None, headers: Mapping[str, str]) -> str:
        peer = scope_client[0] if scope_client else "unknown"
        return client_id(peer, headers, self.proxies, self.settings.ipv6_prefix)

    async def check_rate(self, limiter: Bucket, client: str, what: str) -> Response | None:
        wait = await limiter.acquire(client)
        if wait <= 0:
            return None
        return too_many("rate_limited", f"too many {what}; try again in {math.ceil(wait)} s", wait)

    def check_rooms(self, client: str, is_open: Callable[[str], bool]) -> Response | None:
        """429 when ``client`` already holds ``max_open_rooms`` rooms still waiting or
        playing (``is_open(game)``); finished and forgotten rooms free their slot."""
        if len(self.rooms) >= PRUNE_AT:  # addresses whose rooms are all gone
            for other, held in list(self.rooms.items()):
                if not any(is_open(g) for g in held):
                    del self.rooms[other]
        games = [g for g in self.rooms.get(client, []) if is_open(g)]
        if games:
            self.rooms[client] = games
        else:
            self.rooms.pop(client, None)
        if len(games) >= self.settings.max_open_rooms:
            limit = self.settings.max_open_rooms
            return too_many("too_many_rooms", f"at most {limit} open rooms per client", 60)
        return None

    def waiting_rooms(self, client: str, is_waiting: Callable[[str], bool]) -> int:
        """How many of ``client``'s rooms still wait for players."""
        return sum(1 for g in self.rooms.get(client, []) if is_waiting(g))

    def add_room(self, client: str, game: str) -> None:
        self.rooms.setdefault(client, []).append(game)

    def open_socket(self, client: str) -> bool:
        """Count one more open socket of ``client``; False (nothing counted) when it already
        holds ``max_sockets_per_client``."""
        held = self.sockets.get(client, 0)
        if held >= self.settings.max_sockets_per_client:
            return False
        if self.open_sockets >= self.settings.max_sockets:
            return False
        self.sockets[client] = held + 1
        self.open_sockets += 1
        return True

    def close_socket(self, client: str) -> None:
        if client in self.sockets:
            self.open_sockets -= 1
        left = self.sockets.get(client, 1) - 1
        if left > 0:
            self.sockets[client] = left
        else:
            self.sockets.pop(client, None)

    @contextlib.contextmanager
    def socket(self, client: str) -> Iterator[bool]:
        """``open_socket`` for the duration of the block."""
        if not self.open_socket(client):
            yield False
            return
        try:
            yield True
        finally:
            self.close_socket(client)
