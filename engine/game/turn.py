"""The turn cycle: deal, draw, the answers to a turn, the discard and the riichi stick."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Final

import engine.game.asking as asking
from engine.actions import Choice
from engine.game.events import (
    Agari,
    Discard,
    Draw,
    Haipai,
    Kan,
    Kita,
    RiichiAccepted,
    RoundStarted,
    Ryuukyoku,
)
from engine.game.kyoku import Kyoku
from engine.game.player import NO_KUIKAE
from engine.rules.kinds import HandEnd
from engine.rules.meld import Meld, MeldType

if TYPE_CHECKING:
    from engine.game.game import Game

#: ``Final``: compiled, C statics (a plain module global is a dict lookup per read)
_NO_KUIKAE: Final = NO_KUIKAE


def setup_round(ev: RoundStarted) -> None:
    """Lay the wall, deal, turn the first dora indicator: a new Kyoku replaces the last
    hand's state whole."""
    game: Game = ev.game
    wall = game.wall_for(game.round_index)
    for seat, hand in enumerate(wall.deal(game.n, game.dealer)):
        game.players[seat].new_round(list(hand))
    game.round = Kyoku(
        wall=wall,
        dora_indicators=[wall.dora[0]],
        turn=game.dealer,
        scores=game.scores,
        kyotaku=game.kyotaku,
    )
    ev.round_index = game.round_index
    ev.kyoku, ev.honba, ev.kyotaku = game.kyoku, game.honba, game.kyotaku
    ev.dealer, ev.scores, ev.dora_indicator = game.dealer, game.scores, wall.dora[0]


def deal_out(ev: RoundStarted) -> None:
    game: Game = ev.game
    for p in game.players:
        game.queue.queue(Haipai(seat=p.seat, tiles=tuple(sorted(p.hand))))
    game.queue.queue(Draw(seat=game.dealer))


def draw_tile(ev: Draw) -> None:
    # an event's field is read once into a local: compiled, each read of a msgspec field is
    # CPython's generic attribute lookup (~180 instructions), a local is a register
    game: Game = ev.game
    seat = ev.seat
    rinshan = ev.rinshan
    p = game.players[seat]
    p.tsumo_waits = p.waits()
    if game.center.wants_events:  # the waits are cached: this costs a river scan
        ev.furiten = p.furiten()
    hand = game.round
    wall = hand.wall
    tile = wall.draw_rinshan() if rinshan else wall.draw()
    p.draw(tile)
    p.rinshan = rinshan
    hand.turn = seat
    ev.tile = tile
    ev.remaining = wall.remaining


def offer_turn(ev: Draw) -> Awaitable[object] | None:
    game: Game = ev.game
    return asking.ask_last(ev, game.resolvers.offers.turn(game, ev.seat, False), offer_turn)


def discard_tile(ev: Discard) -> None:
    game: Game = ev.game
    tile = ev.tile  # read once (see draw_tile)
    p = game.players[ev.seat]
    p.discard(tile)
    p.river.append(tile)
    p.rinshan = False
    p.kuikae = _NO_KUIKAE
    p.furiten_temp = False
    p.ippatsu = False
    if game.center.wants_events:  # the new waits are needed at the next draw anyway
        ev.furiten = p.furiten()
    if ev.riichi:
        p.riichi_pending = True
        p.riichi_discard = len(p.river) - 1
        p.double_riichi = p.first_turn and not game.round.any_call
    p.first_turn = False
    hand = game.round
    hand.last_discard = tile
    if not hand.any_call and len(hand.first_discards) < game.n:
        hand.first_discards.append(tile >> 2)


def accept_riichi(ev: RiichiAccepted) -> None:
    game: Game = ev.game
    p = game.players[ev.seat]
    p.riichi_pending = False
    p.riichi = True
    p.ippatsu = True
    p.score -= 1000
    game.kyotaku += 1
    ev.scores, ev.kyotaku = game.scores, game.kyotaku


def check_suucha_riichi(ev: RiichiAccepted) -> None:
    game: Game = ev.game
    if game.rules.suucha_riichi and all(p.riichi for p in game.players):
        game.queue.clear()
        game.queue.queue(Ryuukyoku(kind=HandEnd.SUUCHA_RIICHI))


# ---------------------------------------------------------------- answers to a turn


def on_discard(game: Game, c: Choice) -> None:
    tile = c.tiles[0]
    tsumogiri = tile == game.players[c.seat].drawn
    game.queue.queue(Discard(seat=c.seat, tile=tile, tsumogiri=tsumogiri))


def on_riichi(game: Game, c: Choice) -> None:
    tile = c.tiles[0]
    tsumogiri = tile == game.players[c.seat].drawn
    game.queue.queue(Discard(seat=c.seat, tile=tile, tsumogiri=tsumogiri, riichi=True))


def on_tsumo(game: Game, c: Choice) -> None:
    tile = game.players[c.seat].drawn
    game.queue.queue(Agari(winners=(c.seat,), from_seat=c.seat, tile=tile))


def on_ankan(game: Game, c: Choice) -> None:
    game.queue.queue(Kan(seat=c.seat, meld=Meld(MeldType.ANKAN, c.tiles)))


def on_kakan(game: Game, c: Choice) -> None:
    p = game.players[c.seat]
    added = c.tiles[0]
    pon = next(m for m in p.melds if m.type == MeldType.PON and m.kind == added >> 2)
    tiles = tuple(sorted((*pon.tiles, added)))
    meld = Meld(MeldType.KAKAN, tiles, pon.called, pon.from_seat, added)
    game.queue.queue(Kan(seat=c.seat, meld=meld))


def on_kita(game: Game, c: Choice) -> None:
    game.queue.queue(Kita(seat=c.seat, meld=Meld(MeldType.KITA, c.tiles)))


def on_kyuushu(game: Game, c: Choice) -> None:
    game.queue.queue(Ryuukyoku(kind=HandEnd.KYUUSHU, seat=c.seat))
