"""The strong bot as a reviewer: the very scores it plays by, one per legal choice.

``StrongBot.scores`` is what ``StrongBot.choose`` takes the argmax of, so a game the strong
bot played, reviewed with the same settings, agrees at every decision. Its scale is roughly
points (engine/bot/strong.py: a shanten 100000, a tile of ukeire 10, against a threat the
expected value); a gap up to 30 is close, from 1000 on (a shanten given up, a win declined,
a call or kan the bot never makes) a blunder.
"""

from __future__ import annotations

import json

from engine.bot.strong import BLUNDER, StrongBot
from engine.review.moment import Moment, Valued
from engine.review.naming import mjai_action

CLOSE = 30.0


class StrongReviewer:
    """See the module docstring."""

    name = "strong"
    close = CLOSE
    blunder = BLUNDER
    #: softmax temperature of the report's ``prob``, in the bot's points
    temperature = 50.0

    def __init__(self) -> None:
        self.bot = StrongBot()

    def values(self, moment: Moment) -> list[Valued]:
        """One value per move as mjai names it: copies of one kind (the drawn tile and its
        twin in the hand) are one move, worth the better of them, as a log can tell them
        apart by kind only (mjai-reviewer ignores ``tsumogiri`` too)."""
        scores = self.bot.scores(moment.inquiry, moment.view)
        moves: dict[str, Valued] = {}
        for a, action in enumerate(moment.inquiry.actions):
            for o, option in enumerate(action.options):
                act = mjai_action(moment, action.type, option.tiles)
                key = json.dumps({k: v for k, v in act.items() if k != "tsumogiri"}, sort_keys=True)
                found = moves.get(key)
                value = scores[a][o]
                if found is None:
                    moves[key] = Valued(act, value, ((a, o),))
                    continue
                best = found if found.value >= value else Valued(act, value, ())
                moves[key] = Valued(best.action, best.value, (*found.choices, (a, o)))
        return list(moves.values())
