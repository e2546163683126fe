"""Spectators: what watchers of a table may see, and when, encoded once for all of them.

The invariant (docs/security.md): no watcher learns a concealed tile of a hand still in play
that the seated players' opponents could not see. A seated player can always open the watch
stream of their own game anonymously, so the stream itself must be safe to hand to them:

- ``PUBLIC`` (any table with a human, the default): every event live as a seat with no hand
  sees it (``project(event, -1)``); when a hand ends, a ``snapshot`` of that hand's god view
  (every concealed tile) follows, and late joiners get it too until the next hand starts;
  at a sealed table (a duplicate tournament round, whose walls other tables still play) it
  never does.
- ``BROADCAST`` (the humans agreed at sitting down: a room option shown at join): the god
  view, ``delay`` seconds late, as on a broadcast table.
- ``OPEN`` (nobody at the table is human): the god view live; bots have nothing to learn.

Items are released in order and the same text is pushed to every watcher's outbox: at once
when nothing is held back, else by one task as they fall due.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import anyio
import msgspec

from engine.view import project
from server.edge.close_codes import CLOSE_MARK
from server.edge.codec import encode, encode_bytes, raws
from server.edge.lean import LeanEvent
from server.edge.messaging import EventMsg, RoomInfo, Snapshot, Welcome
from server.session.outbox import Outbox

#: god-view event types that begin and end a hand
ROUND_START = frozenset({"RoundStarted"})
HAND_END = frozenset({"Agari", "Ryuukyoku"})
#: the projection of an event for nobody's seat: public fields only
NO_SEAT = -1


class Policy(enum.Enum):
    PUBLIC = "public"
    BROADCAST = "broadcast"
    OPEN = "open"


class _Kind(enum.Enum):
    EVENT = 0
    REVEAL = 1
    END = 2


class Spectators:
    def __init__(
        self,
        game: str,
        policy: Policy,
        delay: float,
        now: Callable[[], float] = time.monotonic,
        sealed: bool = False,
    ) -> None:
        """``sealed``: a duplicate tournament table (server/session/rooms.py): PUBLIC
        without the god view at a hand's end (another table may still play that hand)."""
        self.game = game
        self.sealed = sealed
        self.policy = policy
        self.delay = delay if policy is Policy.BROADCAST else 0.0
        self.now = now
        #: the end's text, as the table encoded it for its seats (given with ``end``: a
        #: callback into the table would make a cycle the collector must find)
        self._end = ""
        self.watchers: set[Outbox] = set()
        self._pending: deque[tuple[float, _Kind, Any]] = deque()
        #: the god view of the hand in play (PUBLIC: revealed when it ends)
        self._hand: list[bytes] = []
        #: what a late joiner's snapshot holds: the released events of the current hand
        self._released: list[bytes] = []
        self._seq = 0
        self._wake = LeanEvent()
        self.ended = False
        #: gets every text the watchers get, as they get it: the cluster sends it on to
        #: spectators on other nodes (the same policy and delay were applied already)
        self.relay: Callable[[str], None] | None = None

    def publish(self, event: Any, raw: bytes, public: bytes | None = None) -> None:
        """A god-view event (``raw`` is its encoding) happened at the table; ``public``: its
        encoding as a seat that does not own it saw it, when the table has it (else it is
        projected here)."""
        name = type(event).__name__
        start = name in ROUND_START
        if self.policy is not Policy.PUBLIC:
            self._queue(_Kind.EVENT, (raw, start))
            return
        if start:
            self._hand.clear()
        self._hand.append(raw)
        if public is None:
            public = encode_bytes(project(event, NO_SEAT))
        self._queue(_Kind.EVENT, (public, start))
        if name in HAND_END and not self.sealed:
            self._queue(_Kind.REVEAL, list(self._hand))

    def end(self, text: str) -> None:
        """The game is over: ``text`` (the end, with the revealed seed) follows the last
        event."""
        self._queue(_Kind.END, text)

    def _queue(self, kind: _Kind, payload: Any) -> None:
        if not self.delay and not self._pending:  # nothing to hold back: no task switch
            self._release(kind, payload)
            if self.ended:
                self._wake.set()  # ``run`` returns
            return
        self._pending.append((self.now() + self.delay, kind, payload))
        self._wake.set()

    def greeting(self, room: RoomInfo) -> list[str]:
        """What a new watcher gets first: welcome, snapshot (and the end when it is over)."""
        texts = [
            encode(Welcome(None, self.game, room)),
            encode(Snapshot(self._seq, raws(self._released), None)),
        ]
        return [*texts, self._end] if self.ended else texts

    def attach(self, outbox: Outbox, room: RoomInfo) -> None:
        for text in self.greeting(room):
            outbox.push(text)
        if self.ended:
            outbox.shut()
        else:
            self.watchers.add(outbox)

    def restarting(self, bye: str, code: int, reason: str) -> None:
        """The server stops: every watcher, here and relayed, is told and let go."""
        for watcher in list(self.watchers):
            watcher.push(bye)
            watcher.shut(code, reason)
        if self.relay is not None:
            self.relay(bye)
            self.relay(f"{CLOSE_MARK}{code}")

    def stop(self) -> None:
        """The table froze and is let go (a resumed game has spectators of its own): ``run``
        returns."""
        self.ended = True
        self._wake.set()

    def view(self) -> tuple[int, list[msgspec.Raw], None]:
        """(next seq, released events of the current hand, no inquiry): a snapshot."""
        return self._seq, raws(self._released), None

    def detach(self, outbox: Outbox) -> None:
        self.watchers.discard(outbox)

    def _release(self, kind: _Kind, payload: Any) -> None:
        if kind is _Kind.END:
            text = self._end = payload
            self.ended = True
        elif kind is _Kind.REVEAL:
            self._released = payload
            text = encode(Snapshot(self._seq, raws(payload), None))
        else:
            raw, start = payload
            if start:
                self._released.clear()
            self._released.append(raw)
            self._seq += 1
            if not self.watchers and self.relay is None:
                return  # nobody to tell: a late watcher's snapshot has it
            text = encode(EventMsg(self._seq - 1, msgspec.Raw(raw)))
        for outbox in list(self.watchers):
            if not outbox.push(text):
                self.watchers.discard(outbox)
        if self.relay is not None:
            self.relay(text)
        if self.ended:
            for outbox in self.watchers:
                outbox.shut()
            self.watchers.clear()

    async def run(self) -> None:
        """Release items as they fall due, until the end has been released."""
        while not self.ended:
            if not self._pending:
                await self._wake.wait()
                self._wake = LeanEvent()
                continue
            due = self._pending[0][0]
            wait = due - self.now()
            if wait > 0:
                await anyio.sleep(wait)
                continue
            _, kind, payload = self._pending.popleft()
            self._release(kind, payload)
