"""Placeholder for step 0004, reserved for tourney-a: it changes nothing.

The steps must be numbered without gaps (``check_numbers``) and learn-advice's step is 0005,
so this branch holds an empty 0004 until tourney-a's lands. At that merge tourney-a's step
replaces this file (delete it); if tourney-a has no step, this empty one may stay as 0004.
"""

#: a statement that changes nothing (every step's scripts hold one at least)
SQLITE = "SELECT 1;"

POSTGRES = "SELECT 1;"
