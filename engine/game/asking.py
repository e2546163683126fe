"""Asking an inquiry: the wait event's listeners, and the shortcut past the wait event.

``game.ask`` queues a WaitPlayerAction, whose listeners hand the inquiry to the action
center (``present``) and, once it is answered, run the registered resolver (``resolve``).
A listener that asks as the last thing its event does calls ``ask_last`` instead. When the
queue is empty (the wait would be the very next event), the asker is its event's last
listener and the wait has only those two listeners (no broadcast, since the center wants no
events, and no hook of a test), nothing could run in between: the inquiry is presented and
resolved at once, in the same order, without the wait event. A turn costs three events
then instead of four; every other case queues the wait as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import TYPE_CHECKING, Any, Final

from engine.actions import MultiPlayerInquiry
from engine.game.events import GameEvent, WaitPlayerAction
from engine.rules.kinds import InquiryKind

if TYPE_CHECKING:
    from engine.game.game import Game

#: ``Final``: compiled, a C static (a plain module global is a dict lookup per read)
_TURN: Final = InquiryKind.TURN
_WAIT: Final = WaitPlayerAction


def present(ev: WaitPlayerAction) -> Awaitable[object] | None:
    """Hand the inquiry to the action center; the queue awaits it (lock released) unless
    the center answered it on the spot (bots, benchmarks): then there is nothing to await."""
    game: Game = ev.game
    inquiry: MultiPlayerInquiry = game.present(ev.inquiry)
    return None if inquiry.done else inquiry


def resolve(ev: WaitPlayerAction) -> None:
    """Run the registered resolver of the inquiry's kind (of the chosen action, on a turn)."""
    _resolve(ev.game, ev.inquiry)


def _resolve(game: Game, inquiry: MultiPlayerInquiry) -> None:
    game.closed(inquiry)
    if inquiry.kind == _TURN:
        choice = inquiry.chosen_one()
        game.resolvers.turn[choice.action](game, choice)
    else:
        game.resolvers.by_kind[inquiry.kind](game, inquiry)


#: the wait event's listeners when nothing else listens to it
_PLAIN: Final = (present, resolve)


class _Resolving:
    """An inquiry ``ask_last`` presented that is still open: awaited by the queue, it waits
    for the answer and then resolves it, as the wait event's ``resolve`` would."""

    __slots__ = ("game", "inquiry")

    def __init__(self, game: Game, inquiry: MultiPlayerInquiry) -> None:
        self.game = game
        self.inquiry = inquiry

    def __await__(self) -> Generator[Any, None, None]:
        yield from self.inquiry.__await__()
        _resolve(self.game, self.inquiry)


def ask_last(
    ev: GameEvent, inquiry: MultiPlayerInquiry, asker: Callable[[Any], object]
) -> Awaitable[object] | None:
    """Ask ``inquiry`` from ``asker``, a listener of ``ev`` that returns what this returns:
    at once when nothing could run before the wait event would (see the module), else by
    queueing the wait event (``game.ask``)."""
    game: Game = ev.game
    by_type = game.bus.handlers_by_type  # the bus's cache (a miss takes the plain way)
    mine = by_type.get(type(ev))
    if game.queue.items or mine is None or mine[-1] is not asker or by_type.get(_WAIT) != _PLAIN:
        game.ask(inquiry)
        return None
    game.present(inquiry)
    if inquiry.done:
        _resolve(game, inquiry)
        return None
    return _Resolving(game, inquiry)
