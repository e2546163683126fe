"""Write-ahead checks, the replay hash, and feeding stored decisions to a resumed game.

A game is its seed plus its decisions. An answer is checked without touching the inquiry
(``check_answer``), stored, and only then handed to the engine, so whatever a client or the
engine ever saw is on disk. With each decision the table stores a short hash of the god-view
event stream so far (``Trail``): a restarted server replays the stored decisions and compares
the hashes (``verify``), so a game the current engine plays differently (rules or engine
changed) is caught at the first decision where it differs, and marked aborted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from engine.actions.inquiry import MultiPlayerInquiry
from engine.actions.types import Decision, InvalidResponse
from engine.driver import Unanswered, run_sync
from engine.events import EventBase
from engine.game.setup import new_game
from engine.rules.config import RuleConfig
from server.edge.codec import encode_bytes
from server.edge.lean import LeanEvent


def check_answer(inquiry: MultiPlayerInquiry, seat: int, action: int, option: int) -> None:
    """Raise InvalidResponse exactly when ``inquiry.respond`` would; change nothing."""
    if inquiry.done:
        raise InvalidResponse(f"inquiry {inquiry.id} is already closed")
    single = inquiry.players.get(seat)
    if single is None:
        raise InvalidResponse(f"seat {seat} has nothing to answer in inquiry {inquiry.id}")
    if single.answer is not None:
        raise InvalidResponse(f"seat {seat} already answered inquiry {inquiry.id}")
    if not 0 <= action < len(single.actions):
        raise InvalidResponse(f"no action {action} for seat {seat}")
    if not 0 <= option < len(single.actions[action].options):
        raise InvalidResponse(f"no option {option} for {single.actions[action].type.name}")


class Trail:
    """A running hash of the god-view events (as encoded on the wire)."""

    __slots__ = ("_hash",)

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def update(self, raw: bytes) -> None:
        self._hash.update(raw)

    def mark(self) -> str:
        """The hash so far, short: what is stored with a decision."""
        return self._hash.copy().hexdigest()[:16]


class Diverged(Exception):
    """The current engine does not play the stored decisions the way they were played."""


class Feed:
    """Stored decisions handed to a resumed game's inquiries in order, none recorded again.

    ``answer`` takes each inquiry the engine opens: it is answered from the log while the log
    lasts; the first inquiry the log does not settle is held (``held``) for the live table,
    which asks it again once the players are back."""

    def __init__(
        self,
        decisions: Sequence[Decision],
        trails: Sequence[str | None] = (),
        ended_at: float | None = None,
        opened: LeanEvent | None = None,
    ) -> None:
        self.decisions = list(decisions)
        self.trails = list(trails)
        #: when the stored game ended (unix seconds): it replays to its end, already recorded
        self.ended_at = ended_at
        self.next = 0
        #: the first inquiry the log leaves open (the live point)
        self.held: MultiPlayerInquiry | None = None
        #: set once the server takes its players again (None: it does): the held inquiry
        #: and the humans' start grace wait for it, so a long restore times out no one
        self.opened = opened

    @property
    def done(self) -> bool:
        return self.next >= len(self.decisions)

    def answer(self, inquiry: MultiPlayerInquiry, trail: Trail | None = None) -> None:
        """Answer ``inquiry`` from the log; raises Diverged when the log does not fit."""
        while not self.done and not inquiry.done:
            d = self.decisions[self.next]
            if d.inquiry_id != inquiry.id:
                break
            want = self.trails[self.next] if self.next < len(self.trails) else None
            if trail is not None and want is not None and trail.mark() != want:
                raise Diverged(f"the event stream differs before decision {self.next}")
            try:
                inquiry.respond(d.seat, d.action_index, d.option_index)
            except InvalidResponse as exc:
                raise Diverged(f"stored decision {self.next} is refused: {exc}") from exc
            self.next += 1
        if inquiry.done:
            return
        if not self.done:
            raise Diverged(f"inquiry {inquiry.id} is open but decision {self.next} is not for it")
        self.held = inquiry


class _Checker:
    """An action center that replays a log and checks its hashes (``verify``)."""

    wants_events = True

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.trail = Trail()

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if seat is None:
            self.trail.update(encode_bytes(event))

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        self.feed.answer(inquiry, self.trail)


def verify(
    rules: RuleConfig,
    seed: int,
    decisions: Sequence[Decision],
    trails: Sequence[str | None],
    whole: bool = False,
) -> str | None:
    """None when the current engine replays the log exactly (every stored hash matches and
    every decision is used; with ``whole``, the game ends with the last), else why not."""
    feed = Feed(decisions, trails)
    game = new_game(rules, seed, _Checker(feed))
    try:
        run_sync(game)
    except Unanswered:  # the live point: the inquiry the log does not answer
        if whole:
            return f"the game does not end with its {len(feed.decisions)} stored decisions"
    except Diverged as exc:
        return str(exc)
    except Exception as exc:  # the engine itself failed on the log
        return f"the engine failed replaying the log: {exc!r}"
    if not feed.done:
        return f"the game ended after {feed.next} of {len(feed.decisions)} stored decisions"
    return None
