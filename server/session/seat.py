"""One chair of a room: who sits in it, its clock and its live connection's outbox.

A module of its own so that it runs compiled (server/native.py): the table and the answers
read a seat's outbox and clock, and push to it, for every seat of every event, and those
reads and calls on an interpreted object were a few thousand instructions a decision
(docs/perf-notes.md, issue 45).
"""

from __future__ import annotations

from server.edge.messaging import SeatInfo
from server.session.bots import external
from server.session.clock import SeatClock
from server.session.outbox import Outbox


class Seat:
    """One chair: a human (token, maybe a live connection) or a bot."""

    __slots__ = ("bot_name", "clock", "forfeit", "index", "name", "outbox", "token", "token_hash")

    def __init__(self, index: int, clock: SeatClock) -> None:
        self.index = index
        self.name = ""
        #: which bot plays this seat (server/session/bots.py), None for a human or a free seat
        self.bot_name: str | None = None
        #: the token, only until it is handed out (a restored seat knows just the hash)
        self.token: str | None = None
        self.token_hash: str | None = None
        self.outbox: Outbox | None = None
        self.clock = clock
        #: why the seat's player lost it during the game ("banned", "deleted"): it plays
        #: the default at once from then on, its token grants nothing (docs/ranking.md)
        self.forfeit: str | None = None

    @property
    def bot(self) -> bool:
        return self.bot_name is not None

    def seat_bot(self, name: str) -> None:
        """Give the seat to the bot ``name`` (a name from server/session/bots.py)."""
        self.bot_name = name
        self.name = f"Bot {self.index + 1}"

    @property
    def human(self) -> bool:
        return self.token_hash is not None

    @property
    def taken(self) -> bool:
        return self.bot or self.human

    @property
    def connected(self) -> bool:
        return self.outbox is not None and not self.outbox.closed

    def info(self) -> SeatInfo:
        return SeatInfo(self.index, self.name, self.bot, self.ready, self.bot_name)

    @property
    def ready(self) -> bool:
        """Playing now: a built-in bot always, a human or an external bot when connected."""
        return self.connected or (self.bot and not external(self.bot_name))

    def push(self, text: str) -> None:
        """Send without waiting; an outbox that cannot keep up is let go (it shut itself)."""
        if self.outbox is not None and not self.outbox.push(text):
            self.outbox = None
