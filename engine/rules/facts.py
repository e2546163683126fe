"""The rule facts a client needs to draw a table, taken from the rules and the wall."""

from __future__ import annotations

from typing import Any

from engine.rules.config import RuleConfig
from engine.rules.wall import seeded_wall


def rule_facts(rules: RuleConfig) -> dict[str, Any]:
    """Seats, red fives (physical ids) and the live wall left after the deal: what a client
    shows of the rules, all from the engine, so the client holds none of them as constants."""
    wall = seeded_wall(0, 0, rules.sanma)
    wall.deal(rules.players, 0)
    return {"players": rules.players, "red": sorted(rules.red), "wall": wall.remaining}
