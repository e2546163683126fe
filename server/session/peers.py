"""The other servers of a scale-out, as this one's hub and routes call them.

``Peers`` is the seam between a session and the scale-out: the hub is given one (server/app.py
gives it server/cluster's ``Cluster``, which fits this interface) and only calls it. Session
never imports cluster and cluster never imports session (tests/server/test_layering.py), so
a server without ``--redis`` holds no cluster code and the cluster holds no session state.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from server.edge.messaging import RoomInfo, WireError
from server.session.outbox import Outbox


class Relayed(Protocol):
    """A game another node runs, as a watcher here gets it: the greeting, then the relay."""

    @property
    def texts(self) -> list[str]:
        """The greeting: the welcome and the snapshot, as that node's spectators got them."""
        ...

    @property
    def ended(self) -> bool: ...

    async def forward(self, outbox: Outbox) -> None:
        """The relayed stream into ``outbox`` until the game ends or its node goes away."""
        ...


class Peers(Protocol):
    """The other nodes: where their rooms are, seats in them, their games to watch."""

    #: this node's public URL, the ``node`` of the rooms it shows
    url: str

    def touch(self) -> None:
        """A room here changed: the shared directory is stale."""

    async def lobby(self) -> list[RoomInfo]: ...

    async def find_room(self, code: str) -> RoomInfo | None: ...

    async def join(
        self, code: str, name: str, invite: str | None, token_hash: str
    ) -> tuple[RoomInfo, int] | WireError:
        """Reserve a seat for the holder of the token hashed ``token_hash`` in a room another
        node runs: the room and the seat's index, or why not."""
        ...

    def watched(self, game: str) -> AbstractAsyncContextManager[Relayed | None]:
        """A game another node runs while the watcher stays (None: no node runs it)."""
        ...

    def relay(self, game: str, restored: bool) -> Callable[[str], None]:
        """Where a table here sends its spectator stream for watchers on other nodes;
        ``restored``: a table brought back after a crash (relayed watchers must reconnect)."""
        ...
