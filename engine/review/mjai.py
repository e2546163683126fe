"""Any mjai AI as a reviewer, when it answers with per-action values as Mortal does.

The seat's own engine events are turned into mjai events (engine.bot.mjai_host.SeatStream,
the server's mjai host translation) and put to the AI through ``ask``: the events since the
last decision in, the AI's reaction to the last one back (one line per event, as
mjai-reviewer talks to Mortal). The reaction's ``meta.mask_bits`` / ``meta.q_values`` (and
``meta.kan_select`` for several kans) are read per label (engine/bot/mjai_labels.py) and
given to the engine choices each label stands for: one value for every riichi discard,
one per discard kind (the drawn copy and a copy from the hand share it). A reaction without
``meta`` reviews nothing. Pure: ``ask`` is the caller's (a process in the CLI, an
in-process player in tests); the riichi discard after a ``reach`` is not a decision of its
own here (our engine offers riichi with its discard as one choice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.bot import mjai_labels as labels
from engine.bot.mjai_host import SeatStream
from engine.game.events import GameEnded
from engine.review.moment import Choice, Moment, Valued
from engine.review.naming import mjai_action
from engine.rules.config import RuleConfig
from engine.rules.tiles import to_mjai

Event = dict[str, Any]
#: the AI's reaction to the last of the events given (all of them fed in order)
Ask = Callable[[list[Event]], Event]
_HONORS = "ESWNPFC"


class MjaiReviewer:
    """See the module docstring. Gaps and temperature are in the AI's own value units."""

    def __init__(
        self,
        name: str,
        ask: Ask,
        rules: RuleConfig,
        seat: int,
        names: tuple[str, ...] = (),
        *,
        close: float = 0.1,
        blunder: float = 1.0,
        temperature: float = 0.1,
    ) -> None:
        self.name = name
        self.ask = ask
        self.rules = rules
        self.players = rules.players
        self.stream = SeatStream(seat, rules, names)
        self.close = close
        self.blunder = blunder
        self.temperature = temperature
        self._seen = 0

    def values(self, moment: Moment) -> list[Valued]:
        batch = self._new_events(moment)
        if not batch:
            return []
        reply = self.ask(batch)
        meta = reply.get("meta")
        if not isinstance(meta, dict):
            return []
        try:
            by_label = labels.decode(int(meta["mask_bits"]), list(meta["q_values"]))
            kans = _kan_values(meta.get("kan_select"))
        except (KeyError, TypeError, ValueError):
            return []
        return self._valued(moment, by_label, kans)

    def _new_events(self, moment: Moment) -> list[Event]:
        """The mjai events since the last decision (all fed before any is sent: a hand's
        start_kyoku is completed by the seat's haipai that follows it)."""
        batch: list[Event] = []
        for event in moment.events[self._seen :]:
            if not isinstance(event, GameEnded):  # a log's rounds each end an engine game
                batch += self.stream.feed(event)
        self._seen = len(moment.events)
        if self.players == 3:  # the 3p forks of Mortal call kita nukidora
            for e in batch:
                if e["type"] == "kita":
                    e["type"] = "nukidora"
        return batch

    def _valued(
        self, moment: Moment, by_label: dict[int, float], kans: dict[int, float]
    ) -> list[Valued]:
        groups: dict[int, list[Choice]] = {}
        kan_groups: dict[int, list[Choice]] = {}
        kan_labels = labels.KANS_THREE if self.players == 3 else labels.KANS
        red = self.rules.red
        for a, action in enumerate(moment.inquiry.actions):
            for o, option in enumerate(action.options):
                lab = labels.label(action.type, option.tiles, moment.tile, self.players, red)
                if lab is None:
                    continue
                if lab in kan_labels and kans:
                    kan_groups.setdefault(option.tiles[0] >> 2, []).append((a, o))
                else:
                    groups.setdefault(lab, []).append((a, o))
        out = []
        for lab, value in by_label.items():
            if lab in kan_labels and kans:
                continue
            out.append(self._one(moment, value, groups.get(lab, []), _named(lab)))
        for kind, value in kans.items():
            out.append(self._one(moment, value, kan_groups.get(kind, []), {"type": "kan"}))
        return out

    def _one(self, moment: Moment, value: float, choices: list[Choice], alone: Event) -> Valued:
        """One label's value: named after its first engine choice (the AI's label alone
        when the engine offers nothing it stands for)."""
        if not choices:
            return Valued(alone, value, ())
        a, o = choices[0]
        action = moment.inquiry.actions[a]
        act = mjai_action(moment, action.type, action.options[o].tiles)
        if act["type"] == "reach":
            act = {"type": "reach", "actor": moment.seat}
        return Valued(act, value, tuple(choices))


def _kan_values(raw: object) -> dict[int, float]:
    """Per kind, the values ``meta.kan_select`` gives (empty: no choice among kans)."""
    if not isinstance(raw, dict):
        return {}
    found = labels.decode(int(raw["mask_bits"]), list(raw["q_values"]))
    return found if len(found) > 1 else {}


def _named(label: int) -> Event:
    """An action the AI valued that the engine did not offer, by its label alone."""
    if label < 34:
        return {"type": "dahai", "pai": to_mjai(label * 4, frozenset())}
    if label < 37:
        return {"type": "dahai", "pai": "5" + "mps"[label - 34] + "r"}
    return {"type": "label", "label": label}
