"""Server settings: one frozen record, filled from defaults, environment variables and flags.

The README's "Configuration" table lists every field; each has an env var ``RIICHI_<NAME>``
and, for the three that matter at start-up, a flag (``--host``, ``--port``, ``--data-dir``).
"""

from __future__ import annotations

import argparse
import os
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
    #: how long a bot "thinks" at a table with humans (0 at all-bot tables)
    bot_think_s: float = 0.3
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
    #: SQLite durability: NORMAL (a commit survives a crash of the process) or FULL (fsync
    #: per commit: survives power loss too; README "Durability")
    synchronous: str = "NORMAL"
    #: serve the browser client from this folder (empty: the packaged static/ if present)
    static_dir: str = ""

    @property
    def db_path(self) -> Path:
        return Path(self.data_dir) / "records.sqlite3"


def from_env(env: Mapping[str, str] | None = None, base: Settings | None = None) -> Settings:
    """Settings with every ``RIICHI_<FIELD>`` variable of ``env`` applied over ``base``."""
    env = os.environ if env is None else env
    values = msgspec.structs.asdict(base or Settings())
    for name, value in values.items():
        raw = env.get(f"RIICHI_{name.upper()}")
        if raw is not None:
            values[name] = type(value)(raw)
    return Settings(**values)


def from_args(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Flags override env vars, which override the defaults."""
    settings = from_env(env)
    parser = argparse.ArgumentParser(prog="python -m server", description="riichi game server")
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    parser.add_argument("--data-dir", default=settings.data_dir)
    args = parser.parse_args(argv)
    return msgspec.structs.replace(settings, host=args.host, port=args.port, data_dir=args.data_dir)
