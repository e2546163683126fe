"""Claims on a discard: ron (double ron, sanchahou), chii/pon/daiminkan, or the pass that
brings furiten, the riichi stick, the abortive draws that wait for it, and the next draw."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Final

import engine.game.asking as asking
from engine.actions import ActionType, Choice, MultiPlayerInquiry
from engine.game.events import Agari, Call, Discard, Draw, RiichiAccepted, Ryuukyoku
from engine.rules.kinds import HandEnd
from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import WINDS

if TYPE_CHECKING:
    from engine.game.game import Game


def open_claims(ev: Discard) -> Awaitable[object] | None:
    """Open-kan dora turns now; then the others may claim the tile."""
    game: Game = ev.game
    if game.round.pending_dora:
        game.flush_pending_dora()
    inquiry = game.resolvers.offers.claim(game, ev.seat, ev.tile)
    if inquiry is not None:
        return asking.ask_last(ev, inquiry, open_claims)
    if pass_discard(game, []):
        next_draw(game)
    return None


def on_ron(game: Game, picks: list[Choice], tile: int, chankan: bool = False) -> None:
    """One, two or three rons; turn order from the discarder decides who is first."""
    discarder = game.round.turn
    winners = sorted((c.seat for c in picks), key=lambda s: (s - discarder) % game.n)
    if len(winners) >= 3 and game.rules.sanchahou:
        game.queue.queue(Ryuukyoku(kind=HandEnd.SANCHAHOU))
        return
    if not game.rules.double_ron:
        winners = winners[:1]
    game.queue.queue(Agari(winners=tuple(winners), from_seat=discarder, tile=tile, chankan=chankan))


def on_call(game: Game, c: Choice) -> None:
    """Chii, pon or daiminkan: the called tile joins the caller's own tiles."""
    tile = game.round.last_discard
    meld = Meld(_MELD_OF[c.action], tuple(sorted((*c.tiles, tile))), tile, game.round.turn)
    if pass_discard(game, [c.seat]):
        game.queue.queue(Call(seat=c.seat, meld=meld))


#: the meld each call makes (a module table: built once, not per call)
_MELD_OF = {
    ActionType.CHII: MeldType.CHII,
    ActionType.PON: MeldType.PON,
    ActionType.DAIMINKAN: MeldType.DAIMINKAN,
}
#: the answers to a claim that take the tile into a meld (a module constant: reading an enum
#: member costs 0.1-0.2 us in Python 3.11, and every claim is resolved here)
_CALLS: Final = frozenset((ActionType.PON, ActionType.CHII, ActionType.DAIMINKAN))
_RON: Final = ActionType.RON
#: ``Final``: compiled, C statics (a plain module global is a dict lookup per read)
_WINDS: Final = WINDS


def resolve_claim(game: Game, inquiry: MultiPlayerInquiry) -> None:
    picks = inquiry.chosen()
    top = picks[0].action if picks else None
    if top == _RON:
        on_ron(game, picks, game.round.last_discard)
    elif top in _CALLS:
        on_call(game, picks[0])
    else:
        if pass_discard(game, []):
            next_draw(game)


def next_draw(game: Game) -> None:
    if game.round.wall.remaining == 0:
        # the setup registers the declaration's offer only when the rules have it
        offer = game.resolvers.offers.declaration
        declaration = offer(game) if offer is not None else None
        if declaration is not None:
            game.ask(declaration)  # endings.resolve_declaration queues the draw
        else:
            game.queue.queue(Ryuukyoku(kind=HandEnd.EXHAUSTIVE))
    else:
        game.queue.queue(Draw(seat=(game.round.turn + 1) % game.n))


def pass_furiten(game: Game, tile: int, skip: int, only: int = -1) -> None:
    """Everyone who let a winning tile go is furiten (after riichi: for good); ``only``
    limits it to one seat (a robbed ankan is offered to kokushi alone)."""
    k = tile >> 2
    for p in game.others[skip]:
        if (only < 0 or p.seat == only) and k in p.waits():
            if p.riichi:
                p.furiten_riichi = True
            p.furiten_temp = True


def pass_discard(game: Game, callers: list[int]) -> bool:
    """The discard was not ronned: furiten, the riichi stick, then the abortive draws that
    wait for this moment. False when the hand is aborted."""
    discarder = game.round.turn
    pass_furiten(game, game.round.last_discard, discarder)
    if game.players[discarder].riichi_pending:
        game.queue.queue(RiichiAccepted(seat=discarder))
    first = game.round.first_discards
    rules = game.rules
    if (
        rules.suufon_renda
        and not callers
        and not game.round.any_call
        and len(first) == game.n
        and first[0] in _WINDS
        and first.count(first[0]) == game.n
        and sum(len(p.river) for p in game.players) == game.n
    ):
        game.queue.queue(Ryuukyoku(kind=HandEnd.SUUFON_RENDA))
        return False
    if game.round.suukaikan_pending:
        game.queue.queue(Ryuukyoku(kind=HandEnd.SUUKAIKAN))
        return False
    return True
