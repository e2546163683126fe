"""The schema as the last unversioned server (91c6984) left it: one source of truth since.

Before this step each module created its own tables with ``CREATE TABLE IF NOT EXISTS`` and
added late columns when it found them missing. A database written by such a server may hold
any part of this schema, with or without the columns of ``ADOPTED``; the runner adds those
first, then this script creates what is missing (its statements say ``IF NOT EXISTS`` for
that reason alone) and fills the reviews' figures from the reports stored before the figures
had columns of their own. On a new database it is the schema, whole.

Released: never edit this file; change the schema with a new step.
"""

#: columns added to tables after they were first made, (table, column, type): a database
#: from before versioning gains each one its table lacks (the type reads on both databases)
ADOPTED = (
    ("games", "engine", "TEXT"),
    ("decisions", "hash", "TEXT"),
    ("games", "commitment", "TEXT"),
    ("games", "practice", "INTEGER"),
    ("games", "seed_text", "TEXT"),
    ("games", "salt", "TEXT"),
    ("games", "draw", "TEXT"),
    ("seats", "bot_name", "TEXT"),
    ("rooms", "node", "TEXT NOT NULL DEFAULT ''"),
    ("rooms", "seed_text", "TEXT"),
    ("reviews", "match_rate", "DOUBLE PRECISION"),
    ("reviews", "rating", "DOUBLE PRECISION"),
)

SQLITE = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, room TEXT NOT NULL, preset TEXT NOT NULL, seed INTEGER NOT NULL,
    rules TEXT NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, result TEXT,
    commitment TEXT, practice INTEGER, engine TEXT, seed_text TEXT, salt TEXT, draw TEXT
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL, n INTEGER NOT NULL, inquiry INTEGER NOT NULL, seat INTEGER NOT NULL,
    action INTEGER NOT NULL, option INTEGER NOT NULL, timeout INTEGER NOT NULL, hash TEXT,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS rounds (
    game TEXT NOT NULL, n INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS endings (game TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS listed (game TEXT PRIMARY KEY);
CREATE INDEX IF NOT EXISTS endings_at ON endings (at);
CREATE TABLE IF NOT EXISTS rooms (
    game TEXT PRIMARY KEY, code TEXT NOT NULL, preset TEXT NOT NULL, public INTEGER NOT NULL,
    base_s REAL NOT NULL, bank_s REAL NOT NULL, seed INTEGER NOT NULL, started INTEGER NOT NULL,
    options TEXT NOT NULL, node TEXT NOT NULL DEFAULT '', seed_text TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, bot INTEGER NOT NULL,
    token_hash TEXT, bank REAL NOT NULL, bot_name TEXT, PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at REAL NOT NULL, pad TEXT);
CREATE TABLE IF NOT EXISTS accounts (
    id BIGINT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
    hash TEXT NOT NULL, admin INTEGER NOT NULL DEFAULT 0, banned INTEGER NOT NULL DEFAULT 0,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS logins (
    digest TEXT PRIMARY KEY, account BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL, csrf TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS logins_account ON logins (account);
CREATE INDEX IF NOT EXISTS logins_expires ON logins (expires);
CREATE TABLE IF NOT EXISTS ranked_games (
    game TEXT PRIMARY KEY, lobby TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
    counted INTEGER NOT NULL DEFAULT 0, stats_done INTEGER NOT NULL DEFAULT 0,
    ended DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS ranked_games_pending ON ranked_games (counted, stats_done);
CREATE TABLE IF NOT EXISTS ranked_seats (
    game TEXT NOT NULL, seat INTEGER NOT NULL, account BIGINT, lobby TEXT NOT NULL,
    place INTEGER, score INTEGER, dan INTEGER, points INTEGER, rating DOUBLE PRECISION,
    rating_delta DOUBLE PRECISION, ended DOUBLE PRECISION, PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS ranked_seats_account ON ranked_seats (account, ended);
CREATE TABLE IF NOT EXISTS standings (
    account BIGINT NOT NULL, lobby TEXT NOT NULL, dan INTEGER NOT NULL, points INTEGER NOT NULL,
    rating DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,
    first INTEGER NOT NULL DEFAULT 0, second INTEGER NOT NULL DEFAULT 0,
    third INTEGER NOT NULL DEFAULT 0, fourth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account, lobby)
);
CREATE INDEX IF NOT EXISTS standings_rank ON standings (lobby, dan, points, rating, account);
CREATE TABLE IF NOT EXISTS player_stats (
    account BIGINT NOT NULL, lobby TEXT NOT NULL, games BIGINT NOT NULL DEFAULT 0,
    rounds BIGINT NOT NULL DEFAULT 0, wins BIGINT NOT NULL DEFAULT 0,
    tsumo BIGINT NOT NULL DEFAULT 0, deal_ins BIGINT NOT NULL DEFAULT 0,
    riichi BIGINT NOT NULL DEFAULT 0, calls BIGINT NOT NULL DEFAULT 0,
    draws BIGINT NOT NULL DEFAULT 0, draw_tenpai BIGINT NOT NULL DEFAULT 0,
    win_points BIGINT NOT NULL DEFAULT 0, deal_in_points BIGINT NOT NULL DEFAULT 0,
    first BIGINT NOT NULL DEFAULT 0, second BIGINT NOT NULL DEFAULT 0,
    third BIGINT NOT NULL DEFAULT 0, fourth BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account, lobby)
);
CREATE TABLE IF NOT EXISTS reviews (
    game TEXT NOT NULL, seat INTEGER NOT NULL, engine TEXT NOT NULL, status TEXT NOT NULL,
    job TEXT NOT NULL, node TEXT NOT NULL, done INTEGER NOT NULL, total INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL, result TEXT, error TEXT,
    match_rate DOUBLE PRECISION, rating DOUBLE PRECISION,
    PRIMARY KEY (game, seat, engine)
);
UPDATE reviews SET match_rate = json_extract(result, '$.match_rate'),
    rating = json_extract(result, '$.rating')
    WHERE status = 'done' AND match_rate IS NULL AND result IS NOT NULL;
CREATE TABLE IF NOT EXISTS verdicts (game TEXT PRIMARY KEY, data TEXT NOT NULL);
"""

#: the same schema in PostgreSQL's words: doubles for times and banks, ``rowid`` as a serial
#: (the order rooms and games were made in: SQLite has it implicitly), an index on the
#: rooms' ``node`` (a node restores its own rooms of a shared database)
POSTGRES = """
CREATE TABLE IF NOT EXISTS games (
    rowid BIGSERIAL, id TEXT PRIMARY KEY, room TEXT NOT NULL, preset TEXT NOT NULL,
    seed BIGINT NOT NULL, rules TEXT NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL,
    result TEXT, commitment TEXT, practice INTEGER, engine TEXT, seed_text TEXT, salt TEXT,
    draw TEXT
);
CREATE TABLE IF NOT EXISTS decisions (
    game TEXT NOT NULL, n INTEGER NOT NULL, inquiry INTEGER NOT NULL, seat INTEGER NOT NULL,
    action INTEGER NOT NULL, option INTEGER NOT NULL, timeout INTEGER NOT NULL, hash TEXT,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS rounds (
    game TEXT NOT NULL, n INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS endings (game TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS listed (game TEXT PRIMARY KEY);
CREATE INDEX IF NOT EXISTS endings_at ON endings (at);
CREATE TABLE IF NOT EXISTS rooms (
    rowid BIGSERIAL, game TEXT PRIMARY KEY, code TEXT NOT NULL, preset TEXT NOT NULL,
    public INTEGER NOT NULL, base_s DOUBLE PRECISION NOT NULL,
    bank_s DOUBLE PRECISION NOT NULL, seed BIGINT NOT NULL, started INTEGER NOT NULL,
    options TEXT NOT NULL, node TEXT NOT NULL DEFAULT '', seed_text TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, bot INTEGER NOT NULL,
    token_hash TEXT, bank DOUBLE PRECISION NOT NULL, bot_name TEXT, PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS rooms_node ON rooms (node);
CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at REAL NOT NULL, pad TEXT);
CREATE TABLE IF NOT EXISTS accounts (
    id BIGINT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
    hash TEXT NOT NULL, admin INTEGER NOT NULL DEFAULT 0, banned INTEGER NOT NULL DEFAULT 0,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS logins (
    digest TEXT PRIMARY KEY, account BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL, csrf TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS logins_account ON logins (account);
CREATE INDEX IF NOT EXISTS logins_expires ON logins (expires);
CREATE TABLE IF NOT EXISTS ranked_games (
    game TEXT PRIMARY KEY, lobby TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,
    counted INTEGER NOT NULL DEFAULT 0, stats_done INTEGER NOT NULL DEFAULT 0,
    ended DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS ranked_games_pending ON ranked_games (counted, stats_done);
CREATE TABLE IF NOT EXISTS ranked_seats (
    game TEXT NOT NULL, seat INTEGER NOT NULL, account BIGINT, lobby TEXT NOT NULL,
    place INTEGER, score INTEGER, dan INTEGER, points INTEGER, rating DOUBLE PRECISION,
    rating_delta DOUBLE PRECISION, ended DOUBLE PRECISION, PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS ranked_seats_account ON ranked_seats (account, ended);
CREATE TABLE IF NOT EXISTS standings (
    account BIGINT NOT NULL, lobby TEXT NOT NULL, dan INTEGER NOT NULL, points INTEGER NOT NULL,
    rating DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,
    first INTEGER NOT NULL DEFAULT 0, second INTEGER NOT NULL DEFAULT 0,
    third INTEGER NOT NULL DEFAULT 0, fourth INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account, lobby)
);
CREATE INDEX IF NOT EXISTS standings_rank ON standings (lobby, dan, points, rating, account);
CREATE TABLE IF NOT EXISTS player_stats (
    account BIGINT NOT NULL, lobby TEXT NOT NULL, games BIGINT NOT NULL DEFAULT 0,
    rounds BIGINT NOT NULL DEFAULT 0, wins BIGINT NOT NULL DEFAULT 0,
    tsumo BIGINT NOT NULL DEFAULT 0, deal_ins BIGINT NOT NULL DEFAULT 0,
    riichi BIGINT NOT NULL DEFAULT 0, calls BIGINT NOT NULL DEFAULT 0,
    draws BIGINT NOT NULL DEFAULT 0, draw_tenpai BIGINT NOT NULL DEFAULT 0,
    win_points BIGINT NOT NULL DEFAULT 0, deal_in_points BIGINT NOT NULL DEFAULT 0,
    first BIGINT NOT NULL DEFAULT 0, second BIGINT NOT NULL DEFAULT 0,
    third BIGINT NOT NULL DEFAULT 0, fourth BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account, lobby)
);
CREATE TABLE IF NOT EXISTS reviews (
    game TEXT NOT NULL, seat INTEGER NOT NULL, engine TEXT NOT NULL, status TEXT NOT NULL,
    job TEXT NOT NULL, node TEXT NOT NULL, done INTEGER NOT NULL, total INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL, result TEXT, error TEXT,
    match_rate DOUBLE PRECISION, rating DOUBLE PRECISION,
    PRIMARY KEY (game, seat, engine)
);
UPDATE reviews SET match_rate = (result::json ->> 'match_rate')::double precision,
    rating = (result::json ->> 'rating')::double precision
    WHERE status = 'done' AND match_rate IS NULL AND result IS NOT NULL;
CREATE TABLE IF NOT EXISTS verdicts (game TEXT PRIMARY KEY, data TEXT NOT NULL);
"""
