"""The inquiry every seat is sent (server/session/wire.py ``inquiry_text``, written as text)
is the encoding of the struct the wire names (``InquiryMsg``, built here field by field from
the engine's objects as docs/protocol.md spells it), on every inquiry of seeded matches
played by bots: turns with tenpai discards and riichi, claims, kans, the next-round
acknowledgement, in 4p and sanma."""

from __future__ import annotations

import time

import pytest

from engine.actions.inquiry import MultiPlayerInquiry, SinglePlayerInquiry
from engine.actions.types import ActionType, DiscardOptions, TenpaiInfo
from engine.bot import make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game.setup import new_game
from engine.rules.config import PRESETS
from server.edge.codec import encode
from server.edge.messaging import ActionWire, ChoiceWire, InquiryMsg, OptionWire, TenpaiWire
from server.session.wire import inquiry_text

#: a fixed wall clock, so both see the same deadline
NOW = 1_765_000_000.123


def inquiry_message(
    inquiry_id: int, single: SinglePlayerInquiry, *, remaining: float, base: float, bank: float
) -> InquiryMsg:
    """The reference: the inquiry's struct tree, every option with the waits it leaves."""
    remaining_ms = max(0, int(remaining * 1000))
    actions = []
    for action in single.actions:
        options = action.options
        if isinstance(options, DiscardOptions) or action.type == ActionType.RIICHI:
            tenpai = [options[i].tenpai for i in range(len(options))]
        else:
            tenpai = [() for _ in options]
        wires = [OptionWire(list(o.tiles), _waits(t)) for o, t in zip(options, tenpai, strict=True)]
        actions.append(ActionWire(action.type.name.lower(), wires))
    return InquiryMsg(
        id=inquiry_id,
        deadline=int(time.time() * 1000) + remaining_ms,
        remaining_ms=remaining_ms,
        base_ms=int(base * 1000),
        bank_ms=int(bank * 1000),
        actions=actions,
        default=ChoiceWire(*single.default()),
    )


def _waits(tenpai: tuple[TenpaiInfo, ...]) -> list[TenpaiWire]:
    return [TenpaiWire(t.kind, t.han, t.fu, t.yakuman, t.points) for t in tenpai]


class CheckingCenter(BotCenter):
    """Bots that, before each answer, hold the text of every seat's inquiry against the
    struct's encoding, with times that cover the clock's cases."""

    def __init__(self, players: int) -> None:
        super().__init__([make("strong") for _ in range(players)])
        self.checked = 0
        self.waits = 0
        self.kinds: set[str] = set()

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for index, single in inquiry.players.items():
            for remaining, base, bank in ((4.9996, 5.0, 0.0), (-0.2, 3.0, 12.345)):
                wire_id = inquiry.id + index
                text = inquiry_text(wire_id, single, remaining=remaining, base=base, bank=bank)
                msg = inquiry_message(wire_id, single, remaining=remaining, base=base, bank=bank)
                assert text == encode(msg)
                self.checked += 1
            for action in single.actions:
                self.kinds.add(action.type.name)
                options = action.options
                if isinstance(options, DiscardOptions):
                    self.waits += sum(bool(options.tenpai_at(i)) for i in range(len(options)))
        super().on_inquiry(inquiry)


@pytest.mark.parametrize(
    ("preset", "seed"),
    [("tenhou-hanchan", 3), ("tenhou-tonpuu", 11), ("tenhou-sanma-hanchan", 5)],
)
def test_the_inquiry_text_is_the_encoding_of_its_message(
    preset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(time, "time", lambda: NOW)
    rules = PRESETS[preset]
    center = CheckingCenter(rules.players)
    center.game = new_game(rules, seed, center)
    run_sync(center.game)
    assert center.checked > 500
    assert center.waits > 20  # discards that leave tenpai, with their waits' values
    wanted = {ActionType.DISCARD, ActionType.RIICHI, ActionType.PON, ActionType.RON}
    assert {t.name for t in wanted} <= center.kinds
