"""Fair play (issue 43): what a ranked game needs to count only real play, and to count it
without a banned or deleted seat, and which reviews feed a public match rate.

- ``seats.own``: the seat's player answered a decision itself (not a time-out, a forced skip
  or a bot), stored at the first such answer; a ranked game where a seat never did counts
  for nobody (server/ladder/finish.py, docs/ranking.md "What counts").
- ``ranked_games.reason``: why a game over (``counted`` 2) moved no standing.
- ``ranked_seats.counted`` and ``.reason``: whether the game moved this seat's standing, and
  why not ("absent", "banned", "deleted"); NULL in rows from before this step, which all
  counted. ``ranked_seats.forfeit``: the seat's account was banned or deleted mid-game.
- ``accounts.deleting``: deleted while seated at a ranked table; it goes when that game has
  counted for the others, and its name stays taken until then.
- ``reviews.own``: asked for by the seat's own account; only those feed the profile's match
  rate. Reviews from before this step are 0: who asked for them was never stored.
"""

#: the columns, (table, column, type), each added where its table lacks it: SQLite has no
#: ``ADD COLUMN IF NOT EXISTS``, and a file adopted from before versioning may hold any
#: later table whole (the runner's ``adopted`` pass does this for both databases)
ADOPTED = (
    ("seats", "own", "INTEGER NOT NULL DEFAULT 0"),
    ("ranked_games", "reason", "TEXT"),
    ("ranked_seats", "counted", "INTEGER"),
    ("ranked_seats", "reason", "TEXT"),
    ("ranked_seats", "forfeit", "TEXT"),
    ("accounts", "deleting", "INTEGER NOT NULL DEFAULT 0"),
    ("reviews", "own", "INTEGER NOT NULL DEFAULT 0"),
)

#: nothing beyond the columns (a step's scripts hold one statement at least)
SQLITE = "SELECT 1;"

POSTGRES = "SELECT 1;"
