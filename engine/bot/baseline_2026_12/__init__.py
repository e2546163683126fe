"""``strong-2026-12``: the strong bot of main at 91c6984, frozen as the baseline.

``bench.bots`` measures the tuned ``strong`` against three of these. The modules are copies
of that day's engine/bot/strong.py and defence.py (with the easy bot's shanten count) and
share no tuning constant with the live bots, so tuning ``strong`` cannot move the baseline.
Never edit them to follow a change elsewhere; a test pins their games
(tests/bots/test_baseline.py).
"""

from __future__ import annotations

from engine.bot.baseline_2026_12.strong import StrongBot as BaselineBot

__all__ = ["BaselineBot"]
