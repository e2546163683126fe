"""Our bots as mjai players: the pure adapter (player.py) and its stdio loop (__main__.py).

``python -m engine.bot.mjai [--bot NAME] [ID]`` runs ``__main__``; everything else imports
the adapter, re-exported here. Nothing here imports ``__main__``, so the adapter stays free
of I/O and of an import cycle with the loop.
"""

from engine.bot.mjai.player import NONE, MjaiPlayer

__all__ = ["NONE", "MjaiPlayer"]
