"""Bots: anything that answers one seat's inquiry from that seat's own view.

``Bot.choose(inquiry, view) -> (action index, option index)``: ``inquiry`` is the seat's
``SinglePlayerInquiry`` (its legal actions), ``view`` the ``SeatView`` that
``seat_view(game, seat)`` builds (own hand plus the public table, nothing hidden). Bots are
pure: the same inquiry and view give the same answer (no clock, no global RNG), so a game's
seed plus its decisions still replay it. ``make(name)`` builds the built-in ones.

``choose``, ``best_discard`` and ``shanten_and_ukeire`` keep the old module-level API of the
easy bot for callers that have not moved to ``Bot`` yet.
"""

from __future__ import annotations

from typing import Protocol

from engine.actions.inquiry import SinglePlayerInquiry
from engine.bot.baseline_2026_12 import BaselineBot
from engine.bot.easy import EasyBot, best_discard, shanten_and_ukeire
from engine.bot.easy import choose_from as choose
from engine.bot.seen import seat_view
from engine.bot.strong import StrongBot
from engine.bot.view import SeatView

__all__ = [
    "BOTS",
    "BaselineBot",
    "Bot",
    "EasyBot",
    "SeatView",
    "StrongBot",
    "best_discard",
    "choose",
    "make",
    "seat_view",
    "shanten_and_ukeire",
]


class Bot(Protocol):
    """One seat's player: the answer to its inquiry from what the seat can see."""

    def choose(self, inquiry: SinglePlayerInquiry, view: SeatView) -> tuple[int, int]: ...


#: the built-in bots by the name a room or a command line gives
BOTS: dict[str, type[EasyBot] | type[StrongBot] | type[BaselineBot]] = {
    "easy": EasyBot,
    "strong": StrongBot,
    #: today's strong frozen at main 91c6984: what bench.bots measures the tuned one against
    "strong-2026-12": BaselineBot,
}


def make(name: str) -> Bot:
    """A new built-in bot by name (a key of ``BOTS``); KeyError for any other name."""
    try:
        return BOTS[name]()
    except KeyError:
        raise KeyError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
