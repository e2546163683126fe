"""Server settings: one frozen record, filled from defaults, environment variables and flags.

The README's "Configuration" table lists every field; each has an env var ``RIICHI_<NAME>``
and, for the three that matter at start-up, a flag (``--host``, ``--port``, ``--data-dir``).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import re
import socket
import urllib.parse
from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything an operator may change; the defaults run a local server with bots."""

    host: str = "127.0.0.1"
    port: int = 8000
    #: records (SQLite) live here; created on start
    data_dir: str = "./data"
    #: default clock of a new room: base seconds per decision, and the bank per player
    base_s: float = 5.0
    bank_s: float = 20.0
    #: a full room waits this long for every human to connect before the first deal
    start_grace_s: float = 30.0
    #: time-out of the between-rounds acknowledgement
    next_round_s: float = 15.0
    #: spectators see each event this many seconds after it happened
    spectator_delay_s: float = 10.0
    #: how long a bot takes over each decision of its own turn at a table with humans (the
    #: same every time: its timing must not tell what it could do; claims are answered at once)
    bot_think_s: float = 0.3
    #: the same at all-bot tables: a pace people can watch, and one that never lets a
    #: bots' match run inside the event loop in one go
    bot_pace_s: float = 0.4
    #: bounds on client input: frame size, refused frames before closing, messages per second
    max_frame: int = 4096
    max_strikes: int = 20
    rate_per_s: float = 50.0
    #: unsent messages a client may fall behind by before it is dropped
    send_queue: int = 1024
    #: finished rooms are forgotten (their records stay) after this many seconds, and rooms
    #: still waiting for players after this long are dropped
    room_ttl_s: float = 600.0
    #: rooms held at once (waiting, playing or recently finished)
    max_rooms: int = 1000
    #: a waiting room where its creator still sits alone is dropped after this long
    lonely_ttl_s: float = 180.0
    #: waiting rooms take at most this share of ``max_rooms`` (the rest is kept for rooms
    #: that start); past ``crowded_share`` a client holding a waiting room may open no other
    waiting_share: float = 0.5
    crowded_share: float = 0.25
    #: SQLite durability: NORMAL (a commit survives a crash of the process) or FULL (fsync
    #: per commit: survives power loss too; README "Durability")
    synchronous: str = "NORMAL"
    #: seconds between the garbage collector's sweeps, its only passes (server/runtime/heap.py)
    gc_sweep_s: float = 3600.0
    #: seconds between SQLite WAL checkpoints, run in a thread of their own so that the
    #: disk's fsync never stops the event loop (server/storage/checkpointer.py)
    checkpoint_s: float = 1.0
    #: serve the browser client from this folder (empty: the packaged static/ if present)
    static_dir: str = ""
    #: largest request body, bytes; larger ones get 413 before the rest is read
    max_body: int = 4096
    #: largest uploaded game log (``POST /api/replay``: a Tenhou hanchan is 20-60 KB)
    max_log: int = 1 << 20
    #: a connection must finish its request headers (a request its body, a WebSocket its
    #: hello) within this
    header_timeout_s: float = 10.0
    #: an idle keep-alive HTTP connection is closed after this
    keep_alive_s: float = 5.0
    #: a WebSocket quiet this long is pinged, and dropped when the pong is this late: 20 s
    #: as in uvicorn and websockets (at 10 s, pings cost 16 % of the server's CPU at 1,000
    #: tables of thinking players: docs/perf-notes.md), well under proxies' 60 s idle limit
    ws_ping_s: float = 20.0
    #: TCP connections held at once: by one client address, and by everyone
    max_conns_per_client: int = 64
    max_connections: int = 4000
    #: WebSockets and event streams one client address holds open at once, and everyone
    #: together (an upgraded WebSocket leaves the HTTP connection count: both caps together
    #: stay below the file limit)
    max_sockets_per_client: int = 16
    max_sockets: int = 3000
    #: an IPv6 client is its /ipv6_prefix network (one host's /64 holds 2^64 addresses)
    ipv6_prefix: int = 64
    #: per client address, per minute: rooms created, joins, room-code lookups
    create_per_min: float = 10.0
    join_per_min: float = 30.0
    lookup_per_min: float = 60.0
    #: replays (stored games and uploaded logs: the engine plays each game again)
    replay_per_min: float = 30.0
    #: reviews (``POST /api/games/{id}/review``) a client address may start per minute; the
    #: worker processes reviews run in on this node, and the reviews it holds at once
    #: (queued or running; more are refused with 503 until one ends)
    review_per_min: float = 6.0
    review_workers: int = 1
    review_queue: int = 16
    #: rooms one client address may hold open (waiting or playing) at once
    max_open_rooms: int = 4
    #: comma-separated proxy addresses whose X-Forwarded-For names the client (none: off)
    trusted_proxies: str = ""
    #: comma-separated origins allowed besides the server's own (WebSocket and POST)
    allowed_origins: str = ""
    #: comma-separated ``Host`` names a request may carry (``*.example.com`` for subdomains,
    #: ``*`` for any); another gets 400, so a DNS-rebinding page cannot reach the server under
    #: its own name. ``*`` by default, but ``python -m server`` listening on a loopback address
    #: with this unset allows only the loopback names, the address it listens on and
    #: ``node_url``'s host (``LOOPBACK_HOSTS``, ``from_args``)
    allowed_hosts: str = "*"
    #: the public room list is computed at most once per this many seconds
    lobby_ttl_s: float = 1.0
    #: exported records of finished games kept in memory
    record_cache: int = 128
    #: the bot token an external mjai AI says hello with on /ws/mjai to take a room's
    #: ``mjai`` seat (empty: no mjai seats on this server); give it to bot authors you trust
    mjai_token: str = ""
    #: mjai AIs this server runs itself, one process per seat over stdio: a JSON object of
    #: name -> argv (``{"mortal": ["python3", "-m", "engine.bot.mjai"]}``); rooms seat one
    #: as bot ``mjai:NAME`` (server/seats/mjai_stdio.py). Only the administrator names commands.
    mjai_bots: str = ""
    #: an stdio mjai AI's time per decision; past it the seat plays the default
    mjai_timeout_s: float = 3.0
    #: scale-out (docs/scaling.md): a Redis URL shared by every node (empty: one process,
    #: no external service); this node's id in it (empty: host name and port) and the base
    #: URL clients reach it at (empty: http://host:port)
    redis_url: str = ""
    node_id: str = ""
    node_url: str = ""
    #: records and write-ahead decisions in PostgreSQL instead of SQLite (postgresql://...)
    database_url: str = ""
    #: 1: ``/metrics`` in Prometheus text format (counts and timings, nothing of a seat);
    #: 0: no such page. An operator's page: on a listener of its own (``metrics_port``, 0:
    #: none, on ``metrics_host``) and on the public port only for ``Authorization: Bearer
    #: <metrics_token>`` (empty: never there); anyone else gets 404
    metrics: int = 1
    metrics_port: int = 0
    metrics_host: str = "127.0.0.1"
    metrics_token: str = ""
    #: the log's lines: "text", or "json" (one object a line, for a log collector)
    log_format: str = "text"
    #: ranked lobbies, a JSON list of {"name", "preset", "room" (ippan, joukyuu, tokujou,
    #: houou), "base_s", "bank_s", "gated"} (empty: Tenhou tonpuu, hanchan and sanma
    #: hanchan, ippan; server/ladder/lobbies.py)
    ranked_lobbies: str = ""
    #: a login session lasts this long
    session_ttl_s: float = 30 * 86400.0
    #: login attempts: a burst and a refill per minute, per account name and per address
    login_burst: float = 5.0
    login_per_min: float = 1.0
    login_address_burst: float = 20.0
    login_address_per_min: float = 10.0
    #: password hashing (argon2id, 64 MiB each) in a pool of its own: this many at once (0:
    #: the cores this process may use), this many more waiting; past both a login or a
    #: registration is answered 503 ``busy`` (server/accounts/hashing.py)
    hash_workers: int = 0
    hash_queue: int = 8

    @property
    def mjai_commands(self) -> dict[str, list[str]]:
        """``mjai_bots`` read: bot name (without ``mjai:``) -> argv; validate() checked it."""
        return _mjai_commands(self.mjai_bots)

    @property
    def db_path(self) -> Path:
        return Path(self.data_dir) / "records.sqlite3"

    @property
    def node(self) -> str:
        """This node's id in the shared directory: stable across restarts, so a restarted
        node takes its own rooms back (docs/scaling.md)."""
        return self.node_id or f"{socket.gethostname()}:{self.port}"

    @property
    def public_url(self) -> str:
        """Where clients reach this node: the ``node`` of its rooms in API answers."""
        return self.node_url or f"http://{self.host}:{self.port}"

    def validate(self) -> None:
        """Raise SettingsError naming every setting outside its range: a typo in a variable
        should stop the server at start, not show up as a strange table hours later."""
        problems = [
            f"{name} = {getattr(self, name)!r} must be {low!r}..{high!r}"
            for name, (low, high) in RANGES.items()
            if not low <= getattr(self, name) <= high
        ]
        if not self.host:
            problems.append("host must not be empty")
        if self.log_format not in ("text", "json"):
            problems.append(f"log_format = {self.log_format!r} must be 'text' or 'json'")
        for pattern in (h.strip() for h in self.allowed_hosts.split(",")):
            if "*" in pattern[1:] or (pattern.startswith("*") and pattern[:2] not in ("*", "*.")):
                problems.append(f"allowed_hosts: {pattern!r} must be a name, *.domain or *")
        try:
            _mjai_commands(self.mjai_bots)
        except ValueError as exc:
            problems.append(f"mjai_bots: {exc}")
        if problems:
            raise SettingsError("bad settings: " + "; ".join(problems))


class SettingsError(ValueError):
    """A setting out of range or unreadable; the message names the variable."""


#: the range of every numeric setting (inclusive)
RANGES: dict[str, tuple[float, float]] = {
    "port": (0, 65535),
    "checkpoint_s": (0.01, 3600),
    "gc_sweep_s": (1, 86400),
    "base_s": (0, 300),
    "bank_s": (0, 3600),
    "start_grace_s": (0, 3600),
    "next_round_s": (0.1, 3600),
    "spectator_delay_s": (0, 600),
    "bot_think_s": (0, 10),
    "max_frame": (64, 65536),
    "max_strikes": (1, 1000),
    "rate_per_s": (1, 10000),
    "send_queue": (16, 1_000_000),
    "room_ttl_s": (1, 86400),
    "max_rooms": (1, 1_000_000),
    "lonely_ttl_s": (1, 86400),
    "waiting_share": (0.01, 1),
    "crowded_share": (0.01, 1),
    "max_sockets": (1, 1_000_000),
    "ipv6_prefix": (16, 128),
    "max_body": (256, 1 << 24),
    "max_log": (256, 1 << 26),
    "header_timeout_s": (0.1, 300),
    "keep_alive_s": (0.1, 300),
    "ws_ping_s": (1, 3600),
    "max_conns_per_client": (2, 100_000),
    "max_connections": (16, 1_000_000),
    "max_sockets_per_client": (1, 100_000),
    "create_per_min": (0.1, 1_000_000),
    "join_per_min": (0.1, 1_000_000),
    "lookup_per_min": (0.1, 1_000_000),
    "replay_per_min": (0.1, 1_000_000),
    "review_per_min": (0.1, 1_000_000),
    "review_workers": (1, 64),
    "review_queue": (1, 100_000),
    "max_open_rooms": (1, 1_000_000),
    "lobby_ttl_s": (0, 60),
    "record_cache": (0, 100_000),
    "mjai_timeout_s": (0.05, 300),
    "metrics": (0, 1),
    "session_ttl_s": (60, 366 * 86400),
    "login_burst": (1, 1_000_000),
    "login_per_min": (0.01, 1_000_000),
    "login_address_burst": (1, 1_000_000),
    "login_address_per_min": (0.01, 1_000_000),
    "hash_workers": (0, 256),
    "hash_queue": (0, 10_000),
    "metrics_port": (0, 65535),
}
#: the names of this machine's loopback addresses, the only ``Host`` a default start serves
LOOPBACK_HOSTS = "localhost,127.0.0.1,[::1]"
#: an stdio mjai bot's name: short, and safe in URLs, logs and the lobby's select
MJAI_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,31}")
#: registered stdio mjai bots at most (each seat of each table runs one process)
MAX_MJAI_BOTS = 32


def _mjai_commands(raw: str) -> dict[str, list[str]]:
    """``RIICHI_MJAI_BOTS`` as name -> argv; ValueError saying what is wrong with it."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise ValueError('not JSON; write {"name": ["command", "arg", ...]}') from None
    if not isinstance(data, dict):
        raise ValueError('must be a JSON object {"name": ["command", "arg", ...]}')
    if len(data) > MAX_MJAI_BOTS:
        raise ValueError(f"at most {MAX_MJAI_BOTS} bots")
    for name, argv in data.items():
        if not MJAI_NAME.fullmatch(name):
            raise ValueError(f"bot name {name!r} must match {MJAI_NAME.pattern}")
        if (
            not isinstance(argv, list)
            or not argv
            or not all(isinstance(a, str) and a and "\0" not in a for a in argv)
        ):
            raise ValueError(f"bot {name!r}: the command must be a non-empty list of strings")
    return data


def from_env(env: Mapping[str, str] | None = None, base: Settings | None = None) -> Settings:
    """Settings with every ``RIICHI_<FIELD>`` variable of ``env`` applied over ``base``."""
    env = os.environ if env is None else env
    values = msgspec.structs.asdict(base or Settings())
    for name, value in values.items():
        raw = env.get(f"RIICHI_{name.upper()}")
        if raw is not None:
            try:
                values[name] = type(value)(raw)
            except ValueError:
                kind = type(value).__name__
                raise SettingsError(f"RIICHI_{name.upper()}={raw!r} is not a {kind}") from None
    return Settings(**values)


def from_args(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Flags override env vars, which override the defaults."""
    settings = from_env(env)
    parser = argparse.ArgumentParser(
        prog="python -m server",
        description="riichi game server; every setting also has a RIICHI_* variable (README)",
    )
    flag = parser.add_argument
    flag("--host", default=settings.host, help="address to listen on (RIICHI_HOST)")
    flag("--port", type=int, default=settings.port, help="port to listen on (RIICHI_PORT)")
    flag("--data-dir", default=settings.data_dir, help="SQLite records folder (RIICHI_DATA_DIR)")
    flag(
        "--redis",
        default=settings.redis_url,
        metavar="URL",
        help="scale-out: the Redis every node shares (RIICHI_REDIS_URL)",
    )
    flag(
        "--database-url",
        default=settings.database_url,
        metavar="URL",
        help="records in PostgreSQL, not SQLite (RIICHI_DATABASE_URL)",
    )
    flag(
        "--healthcheck",
        action="store_true",
        help="exit 0 when the server on the port answers /healthz (its port: RIICHI_PORT)",
    )
    args = parser.parse_args(argv)
    env = os.environ if env is None else env
    hosts = settings.allowed_hosts
    if "RIICHI_ALLOWED_HOSTS" not in env and _loopback(args.host):
        hosts = LOOPBACK_HOSTS  # the README's start: only this machine's names
        bound = args.host.strip("[]")
        if bound not in ("localhost", "127.0.0.1", "::1"):  # and the one it listens on
            hosts += f",[{bound}]" if ":" in bound else f",{bound}"
        named = urllib.parse.urlsplit(settings.node_url).hostname if settings.node_url else None
        if named:  # and the name other nodes reach it by (an IPv6 one in brackets)
            hosts += f",[{named}]" if ":" in named else f",{named}"
    return msgspec.structs.replace(
        settings,
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        redis_url=args.redis,
        database_url=args.database_url,
        allowed_hosts=hosts,
    )


def _loopback(host: str) -> bool:
    """``host`` is a loopback address or name (not a wildcard, not a network's address)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
