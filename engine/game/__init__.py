"""The match: Game, Player, the in-game events and the listeners that play them."""

from engine.game.game import Game, RoundResult, RoundStart

__all__ = ["Game", "RoundResult", "RoundStart"]
