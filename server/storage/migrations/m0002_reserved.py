"""Placeholder for step 0002, reserved for ops-b: it changes nothing.

The steps must be numbered without gaps (``check_numbers``) and fair-b's step is 0003, so
this branch holds an empty 0002 until ops-b's lands. At that merge ops-b's step replaces
this file (delete it); if ops-b has no step, this empty one may stay as 0002.
"""

#: a statement that changes nothing (every step's scripts hold one at least)
SQLITE = "SELECT 1;"

POSTGRES = "SELECT 1;"
