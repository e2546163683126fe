"""The match: Game, Player, the in-game events and the listeners that play them.

``new_game(rules, seed, center)`` is the way to start one: it hands the Game the setup its
rules call for (engine/game/setup.py).
"""

from engine.game.game import Game
from engine.game.results import RoundResult, RoundStart
from engine.game.setup import new_game

__all__ = ["Game", "RoundResult", "RoundStart", "new_game"]
