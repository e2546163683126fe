"""Final placements from final scores: ties go to the seat nearer the first dealer.

Tenhou breaks a tie in final points by seat order from the game's first dealer (起家), never
by sharing a place, so every game gives each seat a distinct placement 1..n.
"""

from __future__ import annotations

from collections.abc import Sequence


def placements(final_scores: Sequence[int], seat_order: Sequence[int]) -> tuple[int, ...]:
    """Placement (1 = first) of each seat; ``seat_order`` lists the seats from the first
    dealer on (``(0, 1, 2, 3)`` when seat 0 dealt first).

    >>> placements((25000, 31000, 25000, 19000), (0, 1, 2, 3))
    (2, 1, 3, 4)
    >>> placements((25000, 31000, 25000, 19000), (2, 3, 0, 1))
    (3, 1, 2, 4)
    """
    n = len(final_scores)
    if sorted(seat_order) != list(range(n)):
        raise ValueError(f"seat_order {tuple(seat_order)} is not an order of {n} seats")
    turn = {seat: i for i, seat in enumerate(seat_order)}
    ranked = sorted(range(n), key=lambda s: (-final_scores[s], turn[s]))
    out = [0] * n
    for place, seat in enumerate(ranked, 1):
        out[seat] = place
    return tuple(out)
