"""What a seat sees of a running game, copied out of it: the only state a bot is given.

``seat_view(game, seat)`` copies the public table plus that seat's own concealed tiles, so a
bot cannot peek at another seat's hand or the wall: the same object can be rebuilt from the
seat's event stream (the mjai adapter does exactly that). A module of its own so that it runs
compiled (engine/native.py): the bots ask for a view at every decision and the RL env at
every observation, and SeatView itself, a msgspec struct, stays in interpreted
engine/bot/view.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.bot.view import SeatView
from engine.rules.meld import Meld
from engine.rules.tiles import WINDS

if TYPE_CHECKING:
    from engine.game.game import Game


def seat_view(game: Game, seat: int) -> SeatView:
    """``seat``'s view of ``game`` now: its own concealed tiles and the public table."""
    players = game.players
    me = players[seat]
    n = game.n
    melds: list[tuple[Meld, ...]] = []
    rivers: list[tuple[int, ...]] = []
    riichi: list[int] = []
    for p in players:
        melds.append(tuple(p.melds))
        rivers.append(tuple(p.river))
        riichi.append(p.riichi_discard)
    drawn = me.drawn
    kyoku = game.kyoku
    return SeatView(
        seat=seat,
        rules=game.rules,
        hand=tuple(me.hand),
        drawn=drawn if drawn >= 0 else None,
        melds=tuple(melds),
        rivers=tuple(rivers),
        riichi=tuple(riichi),
        dora_indicators=tuple(game.round.dora_indicators),
        scores=game.scores,
        kyoku=kyoku,
        honba=game.honba,
        kyotaku=game.kyotaku,
        round_wind=game.round_wind,
        seat_wind=WINDS[(seat - kyoku % n) % n],
        remaining=game.round.wall.remaining,
    )
