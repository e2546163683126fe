"""Tournaments (issue 41): an event of several rounds run on this server needs its own rows.

The event and its options and state (``version`` grows with every change, for the event
streams; its row is locked first by a game's finishing transaction), its organisers, its
entries (people and the bots that fill the last table), each round (a duplicate round's seed,
salt and commitment, and ``revealed`` once every table of it has finished: the secrecy rule),
each table (pending until a node claims it, then its game; its match points written in the
transaction that finishes the game), who sits where with the seat token an entrant fetches
(kept so a restart hands it out again, deleted when the table ends), the penalties with their
reasons, and the standings as of the last finished game. server/storage/tournaments.py reads
and writes them.

``IF NOT EXISTS``, unlike a plain step: a file whose ``schema_version`` is gone is adopted by
the baseline and then given every later step, and such a file (the review tests make one
from a current database to stand for a pre-versioning file) may hold these tables already.
"""

SQLITE = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, preset TEXT NOT NULL, rounds INTEGER NOT NULL,
    seating TEXT NOT NULL, duplicate INTEGER NOT NULL, fill TEXT NOT NULL,
    base_s DOUBLE PRECISION NOT NULL, bank_s DOUBLE PRECISION NOT NULL, state TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0, created DOUBLE PRECISION NOT NULL, creator BIGINT,
    plan TEXT, version BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournament_organizers (
    tournament TEXT NOT NULL, account BIGINT NOT NULL, PRIMARY KEY (tournament, account)
);
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament TEXT NOT NULL, name TEXT NOT NULL, account BIGINT, bot INTEGER NOT NULL,
    n DOUBLE PRECISION NOT NULL, substitute INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament, name)
);
CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament TEXT NOT NULL, round INTEGER NOT NULL, seed_text TEXT, salt TEXT,
    commitment TEXT, revealed INTEGER NOT NULL DEFAULT 0, started DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament, round)
);
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament TEXT NOT NULL, round INTEGER NOT NULL, tab INTEGER NOT NULL,
    entrants TEXT NOT NULL, seats TEXT, status TEXT NOT NULL, node TEXT, game TEXT,
    code TEXT, url TEXT, commitment TEXT, points TEXT, scores TEXT, ended DOUBLE PRECISION,
    PRIMARY KEY (tournament, round, tab)
);
CREATE INDEX IF NOT EXISTS tournament_tables_game ON tournament_tables (game);
CREATE INDEX IF NOT EXISTS tournament_tables_status ON tournament_tables (status);
CREATE TABLE IF NOT EXISTS tournament_seats (
    tournament TEXT NOT NULL, round INTEGER NOT NULL, name TEXT NOT NULL, tab INTEGER NOT NULL,
    seat INTEGER NOT NULL, token TEXT, PRIMARY KEY (tournament, round, name)
);
CREATE TABLE IF NOT EXISTS tournament_penalties (
    tournament TEXT NOT NULL, n INTEGER NOT NULL, name TEXT NOT NULL,
    points DOUBLE PRECISION NOT NULL, reason TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
    by_name TEXT NOT NULL, PRIMARY KEY (tournament, n)
);
CREATE TABLE IF NOT EXISTS tournament_standings (
    tournament TEXT NOT NULL, name TEXT NOT NULL, rank INTEGER, total DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL, placements TEXT NOT NULL, average DOUBLE PRECISION,
    best DOUBLE PRECISION, bot INTEGER NOT NULL, PRIMARY KEY (tournament, name)
);
"""

#: the same types read the same on both databases (BIGINT, DOUBLE PRECISION, TEXT, INTEGER)
POSTGRES = SQLITE
