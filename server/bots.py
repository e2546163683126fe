"""The bots a room may seat, by the name a client sends: the only place the server names them.

The session layer asks this registry for a seat's player and never knows a bot by name. A
built-in bot (engine.bot) plays in process from its own seat's view; an ``external`` entry is
a seat reserved for a program that connects to the server (``mjai``: an mjai AI over
``/ws/mjai`` with the administrator's bot token, see server/mjai_seat.py).
"""

from __future__ import annotations

import msgspec

from engine import bot
from engine.bot import Bot


class BotKind(msgspec.Struct, frozen=True):
    """One entry of ``GET /api/bots``: a name to send and what it plays like."""

    name: str
    description: str
    #: played by a program connecting to the server, not by the server itself
    external: bool = False


#: the bot of a bot seat whose name the room did not give (and of seats filled at the start)
DEFAULT = "strong"
#: the external mjai seat's name
MJAI = "mjai"

KINDS: dict[str, BotKind] = {
    "strong": BotKind(
        "strong", "efficiency weighed by value, riichi judgement and push/fold defence"
    ),
    "easy": BotKind("easy", "tile efficiency only: never folds, calls yakuhai pons"),
    MJAI: BotKind(MJAI, "a seat for an external mjai AI connecting to /ws/mjai", external=True),
}


class UnknownBot(ValueError):
    """A bot name this server does not offer; the message lists the names it does."""


def listing(mjai: bool) -> list[BotKind]:
    """The bots a room may ask for here (``mjai`` only when the server has a bot token)."""
    return [k for k in KINDS.values() if mjai or not k.external]


def check(name: str, mjai: bool) -> str:
    """``name`` if a room may seat it, else UnknownBot."""
    if name not in KINDS or (KINDS[name].external and not mjai):
        known = ", ".join(k.name for k in listing(mjai))
        raise UnknownBot(f"unknown bot {name!r}; this server offers: {known}")
    return name


def external(name: str | None) -> bool:
    """The seat is played by a connecting program (it answers over its socket, on a clock)."""
    return name is not None and name in KINDS and KINDS[name].external


def player(name: str) -> Bot:
    """A new in-process player for a built-in bot seat; an unknown or external name (a
    stored room from another server version) plays as the default bot."""
    return bot.make(name if name in bot.BOTS else DEFAULT)
