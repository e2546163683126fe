"""Spectators: the god view, released a fixed delay after it happened, encoded once.

Each god-view event is encoded when it happens and queued with its release time; one task
releases due events and pushes the same text to every watcher's outbox. The delay is
``spectator_delay_s`` seconds (default 10), so a spectator cannot whisper hands to a player.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

import anyio
import msgspec

from server.messaging import End, EventMsg, RoomInfo, Snapshot, Welcome, encode
from server.session.outbox import Outbox


class Spectators:
    def __init__(self, game: str, delay: float, now: Callable[[], float] = time.monotonic) -> None:
        self.game = game
        self.delay = delay
        self.now = now
        self.watchers: set[Outbox] = set()
        self._pending: deque[tuple[float, msgspec.Raw | None, bool]] = deque()
        self._released: list[msgspec.Raw] = []
        self._seq = 0
        self._wake = anyio.Event()
        self.ended = False
        #: the game's seed, known here only once the game is over (told in ``end``)
        self._seed: int | None = None

    def publish(self, raw: msgspec.Raw, round_start: bool) -> None:
        self._pending.append((self.now() + self.delay, raw, round_start))
        self._wake.set()

    def end(self, seed: int | None = None) -> None:
        """The game is over: ``end`` (with the seed) follows the last event after the same
        delay."""
        self._seed = seed
        self._pending.append((self.now() + self.delay, None, False))
        self._wake.set()

    def attach(self, outbox: Outbox, room: RoomInfo) -> None:
        outbox.push(encode(Welcome(None, self.game, room)))
        outbox.push(encode(Snapshot(self._seq, list(self._released), None)))
        if self.ended:
            outbox.push(encode(self._end()))
            outbox.shut()
        else:
            self.watchers.add(outbox)

    def view(self) -> tuple[int, list[msgspec.Raw], None]:
        """(next seq, released events of the current round, no inquiry): a snapshot."""
        return self._seq, list(self._released), None

    def _end(self) -> End:
        return End(self.game, f"/api/games/{self.game}/record", self._seed)

    def detach(self, outbox: Outbox) -> None:
        self.watchers.discard(outbox)

    def _release(self, raw: msgspec.Raw | None, round_start: bool) -> None:
        if raw is None:
            text = encode(self._end())
            self.ended = True
        else:
            if round_start:
                self._released.clear()
            self._released.append(raw)
            text = encode(EventMsg(self._seq, raw))
            self._seq += 1
        for outbox in list(self.watchers):
            if not outbox.push(text):
                self.watchers.discard(outbox)
        if self.ended:
            for outbox in self.watchers:
                outbox.shut()
            self.watchers.clear()

    async def run(self) -> None:
        """Release events as they fall due, until the end has been released."""
        while not self.ended:
            if not self._pending:
                await self._wake.wait()
                self._wake = anyio.Event()
                continue
            due = self._pending[0][0]
            wait = due - self.now()
            if wait > 0:
                await anyio.sleep(wait)
                continue
            _, raw, round_start = self._pending.popleft()
            self._release(raw, round_start)
