"""How many decisions of a game were advised at a practice table: ``games.advice``.

A seat at a table where every other seat is a built-in bot may ask for the strong reviewer's
ranking of its open inquiry (server/session/advice.py); the game's record says how many of
its decisions were advised, so a replay or a profile can tell a played game from a lesson.
NULL (not 0) for a game where no advice was given: its record says nothing about advice.
"""

SQLITE = """
ALTER TABLE games ADD COLUMN advice INTEGER;
"""

POSTGRES = """
ALTER TABLE games ADD COLUMN IF NOT EXISTS advice INTEGER;
"""
