"""The bots a room may seat, by the name a client sends: the only place the server names them.

The session layer asks this registry for a seat's player and never knows a bot by name. A
built-in bot (engine.bot) plays in process from its own seat's view; an ``external`` entry is
a seat reserved for a program that connects to the server (``mjai``: an mjai AI over
``/ws/mjai`` with the administrator's bot token, see server/seats/mjai_seat.py); ``mjai:NAME`` is
an mjai AI the server runs itself, one process per seat over stdio, from the command the
administrator registered as NAME in ``RIICHI_MJAI_BOTS`` (server/seats/mjai_stdio.py). Both answer
over a connection on the seat's clock, as a human does, never in process.
"""

from __future__ import annotations

from collections.abc import Iterable

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
#: the prefix of an stdio mjai bot's name: ``mjai:NAME`` for NAME in ``RIICHI_MJAI_BOTS``
STDIO = "mjai:"

KINDS: dict[str, BotKind] = {
    "strong": BotKind(
        "strong", "efficiency weighed by value, riichi judgement and push/fold defence"
    ),
    "easy": BotKind("easy", "tile efficiency only: never folds, calls yakuhai pons"),
    MJAI: BotKind(MJAI, "a seat for an external mjai AI connecting to /ws/mjai", external=True),
}


class UnknownBot(ValueError):
    """A bot name this server does not offer; the message lists the names it does."""


def listing(mjai: bool, stdio: Iterable[str] = ()) -> list[BotKind]:
    """The bots a room may ask for here (``mjai`` only when the server has a bot token;
    ``mjai:NAME`` for each ``stdio`` name the administrator registered)."""
    run = [BotKind(STDIO + n, f"the mjai AI {n!r}, run by this server") for n in stdio]
    return [k for k in KINDS.values() if mjai or not k.external] + run


def check(name: str, mjai: bool, stdio: Iterable[str] = ()) -> str:
    """``name`` if a room may seat it, else UnknownBot."""
    offered = listing(mjai, stdio)
    if name not in {k.name for k in offered}:
        known = ", ".join(k.name for k in offered)
        raise UnknownBot(f"unknown bot {name!r}; this server offers: {known}")
    return name


def stdio_name(name: str | None) -> str | None:
    """NAME of an stdio mjai seat's bot ``mjai:NAME``, else None."""
    return name[len(STDIO) :] if name is not None and name.startswith(STDIO) else None


def external(name: str | None) -> bool:
    """The seat answers over a connection on a clock (an external program's socket, or an
    stdio mjai process's pipes), not in process; unconnected, it plays the defaults."""
    if name is None:
        return False
    return (name in KINDS and KINDS[name].external) or stdio_name(name) is not None


def player(name: str) -> Bot:
    """A new in-process player for a built-in bot seat; an unknown or external name (a
    stored room from another server version) plays as the default bot."""
    return bot.make(name if name in bot.BOTS else DEFAULT)
