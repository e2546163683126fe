"""Thinking time: a base per decision plus a bank per player that only shrinks.

Times are seconds on the server's monotonic clock; the wire shows milliseconds. The bank
drains only by the time used beyond the base, so a player who answers within the base never
loses bank time.
"""

from __future__ import annotations


class SeatClock:
    """One player's clock at one table."""

    __slots__ = ("bank", "base", "opened")

    def __init__(self, base: float, bank: float) -> None:
        self.base = base
        self.bank = bank
        self.opened: float | None = None

    def open(self, now: float) -> float:
        """Start a decision; the absolute deadline (base + whole bank)."""
        self.opened = now
        return now + self.base + self.bank

    def close(self, now: float) -> None:
        """End the decision: charge the bank with the time past the base."""
        if self.opened is None:
            return
        over = now - self.opened - self.base
        if over > 0:
            self.bank = max(0.0, self.bank - over)
        self.opened = None
