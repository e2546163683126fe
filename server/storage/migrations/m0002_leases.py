"""Leases: which process runs each game, so a stale one cannot write to it (issue 44).

Under PostgreSQL every node of a cluster writes to one database, and nothing kept two
processes from running the same table: a node started twice under one id, or one presumed
dead (and restarted elsewhere under its id) that was still running, both restored the same
games and both wrote their decisions. A lease row per game names the node that took it and
an epoch that grows with every take; each write of a game is conditioned on the epoch its
writer took (server/storage/postgres.py), so a write by any earlier holder changes nothing.
SQLite has the table too (one schema for both), but there a data dir has one server (its
lock, server/runtime/datadir.py) and nothing reads it. ``IF NOT EXISTS``: a file whose
``schema_version`` was lost (or dropped, as a test of a file from before versions does) is
adopted again from step 1 with this table already in it.
"""

SQLITE = """
CREATE TABLE IF NOT EXISTS leases (
    game TEXT PRIMARY KEY, node TEXT NOT NULL, epoch INTEGER NOT NULL, taken REAL NOT NULL
);
"""

POSTGRES = """
CREATE TABLE IF NOT EXISTS leases (
    game TEXT PRIMARY KEY, node TEXT NOT NULL, epoch BIGINT NOT NULL,
    taken DOUBLE PRECISION NOT NULL
);
"""
