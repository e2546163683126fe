"""The ranked queue of one server: accounts waiting per lobby, tables formed as soon as a
lobby has enough of them, and the seat each was given until its game is over.

One entry per account (in any lobby) and one ranked seat per account at a time: an account
with a ranked game that is not over (``ranked.seated``, so a restart does not forget it)
cannot queue. Tables take the longest-waiting accounts; their seats are drawn at random
(``secrets``), and the game's shuffle is the server's as in every room (committed before the
first deal). Who plays a table is a human with an account: guests and bots never queue.

The queue starts games through ``Seater``, a seam the app wires to the hub (this package
sits beside session and may not import it).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from typing import Protocol

import msgspec

from server.ladder.lobbies import RankedLobby
from server.storage import ranked
from server.storage.sqlite import Store


class Grant(msgspec.Struct, frozen=True):
    """A ranked seat: the room to play in over /ws/play and the seat's token."""

    lobby: str
    code: str
    game: str
    seat: int
    token: str
    #: the node that runs the table ("" alone; its URL in a cluster)
    node: str = ""


class Seater(Protocol):
    def seat(self, lobby: RankedLobby, names: list[str]) -> tuple[str, str, list[str], str]:
        """Start a table of ``lobby`` with ``names`` in seat order: (room code, game id, each
        seat's token, node URL)."""
        ...


class QueueError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Queue:
    def __init__(
        self,
        store: Store,
        lobbies: Mapping[str, RankedLobby],
        seater: Seater,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lobbies = lobbies
        self.seater = seater
        self.clock = clock
        #: lobby -> account -> (name, queued at); dicts keep arrival order
        self.waiting: dict[str, dict[int, tuple[str, float]]] = {n: {} for n in lobbies}
        self.seats: dict[int, Grant] = {}
        #: tables formed, for the bench and metrics
        self.formed = 0

    def lobby_of(self, account: int) -> str | None:
        return next((n for n, q in self.waiting.items() if account in q), None)

    def join(self, account: int, name: str, lobby: str) -> None:
        """Queue ``account`` (raises QueueError); a full table starts at once."""
        if lobby not in self.lobbies:
            raise QueueError(
                "no_lobby", f"no ranked lobby {lobby!r}; one of {sorted(self.lobbies)}"
            )
        if self.lobby_of(account) is not None:
            raise QueueError("queued", "already in a ranked queue: leave it first")
        if self.playing(account) is not None:
            raise QueueError("seated", "already seated at a ranked table")
        self.waiting[lobby][account] = (name, self.clock())
        self.form(lobby)

    def leave(self, account: int) -> bool:
        lobby = self.lobby_of(account)
        if lobby is None:
            return False
        del self.waiting[lobby][account]
        return True

    def playing(self, account: int) -> Grant | str | None:
        """The account's ranked seat (a Grant this process gave, or the game id of one it
        holds from before a restart), or None."""
        grant = self.seats.get(account)
        if grant is not None:
            return grant
        return ranked.seated(self.store, account)

    def ended(self, game: str) -> None:
        """A game is over: its seats are free for the next queue."""
        for account in [a for a, g in self.seats.items() if g.game == game]:
            del self.seats[account]

    def form(self, lobby: str) -> None:
        """Seat tables while the lobby has enough waiting accounts."""
        config = self.lobbies[lobby]
        queue = self.waiting[lobby]
        while len(queue) >= config.players:
            banned = ranked.banned_among(self.store, list(queue)[: config.players])
            for account in banned:  # banned while waiting (the operator's CLI)
                del queue[account]
            if banned:
                continue
            chosen = [(a, queue.pop(a)[0]) for a in list(queue)[: config.players]]
            secrets.SystemRandom().shuffle(chosen)
            self._seat(config, chosen)

    def _seat(self, config: RankedLobby, chosen: list[tuple[int, str]]) -> None:
        accounts = [a for a, _ in chosen]
        names = [n for _, n in chosen]
        code, game, tokens, node = self.seater.seat(config, names)
        ranked.add_game(self.store, game, config.name, accounts, self.clock())
        for seat, (account, token) in enumerate(zip(accounts, tokens, strict=True)):
            self.seats[account] = Grant(config.name, code, game, seat, token, node)
        self.formed += 1
