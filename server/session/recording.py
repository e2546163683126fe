"""One game's record as it is played: seed and rules at the start, every decision and round
result when it happens, the outcome at the end; plus the spectator's delayed cut of it."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from server.session.durable import Diverged, Trail
from server.session.rooms import Room
from server.storage import persist
from server.storage.sqlite import StorageFault, Store, StoredGame

#: when the stored part of a resumed game happened, for the spectator's delayed record: long ago
LONG_AGO = float("-inf")


class Recording:
    def __init__(
        self,
        storage: Store,
        room: Room,
        now: Callable[[], float],
        resumed: tuple[int, int] | None = None,
        ended: bool = False,
    ) -> None:
        """``resumed``: (decisions, rounds) already stored for a game resumed from storage;
        ``ended``: its end is stored too (a finished game held again after a restart)."""
        self.storage = storage
        self.ended = ended
        self.game = room.game
        self.room = room
        self.now = now
        #: the replay hash of the god-view stream, stored with each decision
        self.trail = Trail()
        #: when each stored decision and round happened (for the delayed spectator record)
        self.decided_at: list[float] = []
        #: decisions stored when the hand in play began
        self.hand_decisions = 0
        self.rounds_at: list[float] = []
        self._banks = [s.clock.bank for s in room.seats]
        #: seats whose player answered a decision itself, as stored (``played``)
        self._played: set[int] = set()
        #: told of a write the store refused where the caller cannot stop (inside an engine
        #: step): the table freezes; ``decision`` and ``finish`` raise StorageFault instead
        self.on_fault: Callable[[StorageFault], None] = _reraise
        if resumed is not None:
            self.decided_at = [LONG_AGO] * resumed[0]
            self.rounds_at = [LONG_AGO] * resumed[1]
            return
        seats = [s.name for s in room.seats]
        rules = msgspec.json.encode(room.rules)
        storage.create_game(
            room.game,
            room.code,
            room.preset,
            room.seed,
            rules,
            seats,
            public=room.public,
            commitment=room.commitment,
            practice=room.practice,
            salt=room.salt,
            draw=room.draw,
        )

    def seen(self, raw: bytes) -> None:
        """A god-view event (its wire encoding): part of the replay hash."""
        self.trail.update(raw)

    def decision(self, inquiry: int, seat: int, action: int, option: int, timeout: bool) -> None:
        """Store a decision; it is committed when this returns (write-ahead: before respond)."""
        trail = self.trail.mark()
        self.storage.add_decision(self.game, inquiry, seat, action, option, timeout, trail)
        self.decided_at.append(self.now())

    def played(self, seat: int) -> None:
        """The seat's player chose an answer: stored once per game (and once more after a
        resume), before the decision itself, so a stored own decision always has its mark."""
        if seat not in self._played:
            persist.mark_played(self.storage, self.game, seat)
            self._played.add(seat)

    def banks(self) -> None:
        """Store the clock banks that changed since they were last stored."""
        for seat in self.room.seats:
            if seat.clock.bank != self._banks[seat.index]:
                try:
                    persist.save_bank(self.storage, self.game, seat.index, seat.clock.bank)
                except StorageFault as exc:
                    self.on_fault(exc)
                    return
                self._banks[seat.index] = seat.clock.bank

    def rounds(self, results: Sequence[Any]) -> None:
        """Store the round results not stored yet (a refused one is stored again by the
        resumed game, which replays it)."""
        for n in range(len(self.rounds_at), len(results)):
            try:
                self.storage.add_round(self.game, n, msgspec.json.encode(results[n]))
            except StorageFault as exc:
                self.on_fault(exc)
                return
            self.rounds_at.append(self.now())

    def finish(self, scores: Any, error: BaseException | None) -> None:
        if self.ended:
            return  # stored when it happened: its time stays the end's, not the restart's
        result = {"scores": scores, "error": None if error is None else repr(error)}
        status = "finished" if error is None else "error"
        if isinstance(error, Diverged):
            status = "aborted"
        self.storage.finish_game(self.game, msgspec.json.encode(result), status)

    def hand_started(self) -> None:
        self.hand_decisions = len(self.decided_at)

    def before_hand(self, record: StoredGame) -> StoredGame:
        """The record up to the start of the hand in play: which seat was asked what in a
        running hand would tell who can call, so none of it is shown until the hand ends."""
        return msgspec.structs.replace(
            record, seed=None, salt="", decisions=record.decisions[: self.hand_decisions]
        )

    def delayed(self, record: StoredGame, delay: float) -> StoredGame:
        """What a spectator may see of the record now: what happened ``delay`` ago."""
        cutoff = self.now() - delay
        decisions = bisect.bisect_right(self.decided_at, cutoff)
        rounds = bisect.bisect_right(self.rounds_at, cutoff)
        return msgspec.structs.replace(
            record,
            seed=None,  # it would give away every wall still to be played
            salt="",  # with the commitment, it would let a small (practice) seed be found
            decisions=record.decisions[:decisions],
            rounds=record.rounds[:rounds],
        )


def _reraise(exc: StorageFault) -> None:
    raise exc
