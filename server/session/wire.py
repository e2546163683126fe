"""Engine objects to wire structs: an inquiry with every choice spelled out."""

from __future__ import annotations

import time

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import ActionType
from server.messaging import ActionWire, ChoiceWire, InquiryMsg, OptionWire, TenpaiWire

_TENPAI_TYPES = (ActionType.DISCARD, ActionType.RIICHI)


def action_wires(single: SinglePlayerInquiry) -> list[ActionWire]:
    """Each action with each option: tiles used and, for discards, the waits they leave."""
    out: list[ActionWire] = []
    for action in single.actions:
        with_tenpai = action.type in _TENPAI_TYPES
        options = [
            OptionWire(
                list(option.tiles),
                [TenpaiWire(t.kind, t.han, t.fu, t.yakuman, t.points) for t in option.tenpai]
                if with_tenpai
                else [],
            )
            for option in action.options
        ]
        out.append(ActionWire(action.type.name.lower(), options))
    return out


def inquiry_message(
    inquiry_id: int,
    single: SinglePlayerInquiry,
    *,
    remaining: float,
    base: float,
    bank: float,
    actions: list[ActionWire] | None = None,
) -> InquiryMsg:
    """The inquiry for one seat with ``remaining`` seconds to answer (server clock)."""
    remaining_ms = max(0, int(remaining * 1000))
    action, option = single.default()
    return InquiryMsg(
        id=inquiry_id,
        deadline=int(time.time() * 1000) + remaining_ms,
        remaining_ms=remaining_ms,
        base_ms=int(base * 1000),
        bank_ms=int(bank * 1000),
        actions=actions if actions is not None else action_wires(single),
        default=ChoiceWire(action, option),
    )
