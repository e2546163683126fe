"""Placeholder for step 0003, reserved for fair-b: it changes nothing.

The steps must be numbered without gaps (``check_numbers``) and learn-advice's step is 0005,
so this branch holds an empty 0003 until fair-b's lands. At that merge fair-b's step replaces
this file (delete it); if fair-b has no step, this empty one may stay as 0003.
"""

#: a statement that changes nothing (every step's scripts hold one at least)
SQLITE = "SELECT 1;"

POSTGRES = "SELECT 1;"
