"""Calls and kans: moving tiles into melds, kuikae, pao, kan dora timing, rinshan."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

import engine.game.asking as asking
from engine.actions import ActionType, MultiPlayerInquiry
from engine.game.claims import on_ron, pass_furiten
from engine.game.events import Call, Draw, Kan, Kita
from engine.rules.calls import kuikae_kinds
from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import DRAGONS, WINDS

if TYPE_CHECKING:
    from engine.game.game import Game
    from engine.game.player import Player


def _interrupt(game: Game) -> None:
    """Any call or kan ends every ippatsu and the uninterrupted first turn."""
    game.round.any_call = True
    for p in game.players:
        p.ippatsu = False


def call_meld(ev: Call) -> None:
    game: Game = ev.game
    meld = ev.meld
    assert meld is not None
    p = game.players[ev.seat]
    own = list(meld.tiles)
    own.remove(meld.called)
    p.take(own)
    p.melds.append(meld)
    game.players[meld.from_seat].discards_called = True
    _interrupt(game)
    game.round.turn = ev.seat
    if meld.type != MeldType.DAIMINKAN:
        p.kuikae = kuikae_kinds(meld.called >> 2, own)
    _check_pao(p, meld, game.rules.pao_yaku)


def _check_pao(p: Player, meld: Meld, pao_yaku: tuple[str, ...]) -> None:
    """The third dragon or fourth wind set called from a discard makes its feeder liable;
    where the rule lists suukantsu, so does a discard made into the fourth kan."""
    for group, need, name in ((DRAGONS, 3, "daisangen"), (WINDS, 4, "daisuushii")):
        if meld.kind in group and name in pao_yaku:
            sets = sum(1 for m in p.melds if m.kind in group and m.type != MeldType.CHII)
            if sets == need:
                p.pao_seat = meld.from_seat
                p.pao_yaku = name
    fourth_kan = meld.type == MeldType.DAIMINKAN and sum(1 for m in p.melds if m.is_kan) == 4
    if fourth_kan and "suukantsu" in pao_yaku:
        p.pao_seat = meld.from_seat
        p.pao_yaku = "suukantsu"


def after_call(ev: Call) -> Awaitable[object] | None:
    """A daiminkan draws from the dead wall; a chii or pon must discard."""
    game: Game = ev.game
    assert ev.meld is not None
    if ev.meld.type == MeldType.DAIMINKAN:
        complete_kan(game, ev.seat, ev.meld)
        return None
    return asking.ask_last(ev, game.resolvers.offers.turn(game, ev.seat, True), after_call)


def declare_kan(ev: Kan) -> None:
    """Ankan or kakan: the tiles leave the hand now (a robbed kakan keeps its pon)."""
    game: Game = ev.game
    meld = ev.meld
    assert meld is not None
    p = game.players[ev.seat]
    if meld.type == MeldType.ANKAN:
        p.take(meld.tiles)
        p.melds.append(meld)
    else:
        p.take((meld.added,))
        i = next(i for i, m in enumerate(p.melds) if m.type == MeldType.PON and m.kind == meld.kind)
        p.melds[i] = meld
    p.drawn = -1


def offer_chankan(ev: Kan) -> None:
    game: Game = ev.game
    meld = ev.meld
    assert meld is not None
    ankan = meld.type == MeldType.ANKAN
    tile = meld.tiles[-1] if ankan else meld.added
    inquiry = game.resolvers.offers.chankan(game, ev.seat, tile, ankan)
    if inquiry.players:
        game.round.kan_meld = meld
        game.ask(inquiry)
    else:
        complete_kan(game, ev.seat, meld)


def resolve_chankan(game: Game, inquiry: MultiPlayerInquiry) -> None:
    meld = game.round.kan_meld
    assert meld is not None
    tile = meld.tiles[-1] if meld.type == MeldType.ANKAN else meld.added
    picks = inquiry.chosen()
    if picks and picks[0].action == ActionType.RON:
        on_ron(game, picks, tile, chankan=True)
        return
    if meld.type == MeldType.ANKAN:  # only kokushi was offered it: only they passed a win
        for seat in inquiry.players:
            pass_furiten(game, tile, game.round.turn, only=seat)
    else:
        pass_furiten(game, tile, game.round.turn)
    complete_kan(game, game.round.turn, meld)


def complete_kan(game: Game, seat: int, meld: Meld) -> None:
    """Kan dora (ankan at once, open kans after the next discard), then the rinshan draw."""
    _interrupt(game)
    hand = game.round
    hand.kan_seats.append(seat)
    game.flush_pending_dora()
    if meld.type == MeldType.ANKAN or game.rules.open_kan_dora == "immediate":
        game.reveal_dora()
    else:
        hand.pending_dora += 1
    if game.rules.suukaikan and len(hand.kan_seats) == 4 and len(set(hand.kan_seats)) > 1:
        hand.suukaikan_pending = True
    game.queue.queue(Draw(seat=seat, rinshan=True))


# ---------------------------------------------------------------- kita (sanma nukidora)


def declare_kita(ev: Kita) -> None:
    """The North leaves the hand for a KITA meld (a dora, not a group)."""
    game: Game = ev.game
    meld = ev.meld
    assert meld is not None
    p = game.players[ev.seat]
    p.take(meld.tiles)
    p.melds.append(meld)
    p.drawn = -1


def offer_kita_ron(ev: Kita) -> None:
    """A pending open-kan dora turns now, as at a discard (Tenhou shows it right after the
    kita); then others waiting on North may ron it; otherwise the kita completes."""
    game: Game = ev.game
    assert ev.meld is not None
    game.flush_pending_dora()
    offer = game.resolvers.offers.kita
    inquiry = offer(game, ev.seat, ev.meld.tiles[0]) if offer is not None else None
    if inquiry is not None and inquiry.players:
        game.round.kan_meld = ev.meld
        game.ask(inquiry)
    else:
        complete_kita(game, ev.seat)


def complete_kita(game: Game, seat: int) -> None:
    """A kita nobody robbed ends every ippatsu and the first go-around as a call does (the
    sanma logs: no ippatsu after one's own or another's kita, no double riichi after a
    first-turn kita); a robbed one never completes, so its ron keeps ippatsu, as a robbed
    kakan does. Then the replacement draw."""
    _interrupt(game)
    game.queue.queue(Draw(seat=seat, rinshan=True))


def resolve_kita(game: Game, inquiry: MultiPlayerInquiry) -> None:
    meld = game.round.kan_meld
    assert meld is not None
    tile = meld.tiles[0]
    picks = inquiry.chosen()
    if picks and picks[0].action == ActionType.RON:
        on_ron(game, picks, tile)
        return
    pass_furiten(game, tile, game.round.turn)
    complete_kita(game, game.round.turn)
