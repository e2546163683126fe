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

SQLITE = """
ALTER TABLE seats ADD COLUMN own INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ranked_games ADD COLUMN reason TEXT;
ALTER TABLE ranked_seats ADD COLUMN counted INTEGER;
ALTER TABLE ranked_seats ADD COLUMN reason TEXT;
ALTER TABLE ranked_seats ADD COLUMN forfeit TEXT;
ALTER TABLE accounts ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reviews ADD COLUMN own INTEGER NOT NULL DEFAULT 0;
"""

POSTGRES = """
ALTER TABLE seats ADD COLUMN IF NOT EXISTS own INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ranked_games ADD COLUMN IF NOT EXISTS reason TEXT;
ALTER TABLE ranked_seats ADD COLUMN IF NOT EXISTS counted INTEGER;
ALTER TABLE ranked_seats ADD COLUMN IF NOT EXISTS reason TEXT;
ALTER TABLE ranked_seats ADD COLUMN IF NOT EXISTS forfeit TEXT;
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS deleting INTEGER NOT NULL DEFAULT 0;
ALTER TABLE reviews ADD COLUMN IF NOT EXISTS own INTEGER NOT NULL DEFAULT 0;
"""
