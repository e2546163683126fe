"""Engine objects to wire structs: an inquiry with every choice spelled out."""

from __future__ import annotations

import time

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import ActionType, DiscardOptions, TenpaiInfo
from server.edge.messaging import ActionWire, ChoiceWire, InquiryMsg, OptionWire, TenpaiWire

_TENPAI_TYPES = (ActionType.DISCARD, ActionType.RIICHI)
#: the wire of discarding tile id ``i`` when it leaves no tenpai: most discards of a turn,
#: built once (never changed: msgspec only reads them)
_PLAIN_DISCARDS = tuple(OptionWire([t], []) for t in range(136))
#: each action's name on the wire (an enum member's ``name`` is a property: looked up here
#: once, not for every action of every inquiry)
_WIRE_NAMES = {t: t.name.lower() for t in ActionType}


def action_wires(single: SinglePlayerInquiry) -> list[ActionWire]:
    """Each action with each option: tiles used and, for discards, the waits they leave."""
    out: list[ActionWire] = []
    for action in single.actions:
        options = action.options
        if action.type not in _TENPAI_TYPES:
            wires = [OptionWire(list(option.tiles), []) for option in options]
        elif isinstance(options, DiscardOptions):  # most tiles leave no tenpai: shared wires
            tenpai_at, plain = options.tenpai_at, _PLAIN_DISCARDS
            wires = [
                OptionWire([t], _tenpai_wires(tenpai)) if (tenpai := tenpai_at(i)) else plain[t]
                for i, t in enumerate(options.tiles)
            ]
        else:
            wires = [OptionWire(list(o.tiles), _tenpai_wires(o.tenpai)) for o in options]
        out.append(ActionWire(_WIRE_NAMES[action.type], wires))
    return out


def _tenpai_wires(tenpai: tuple[TenpaiInfo, ...]) -> list[TenpaiWire]:
    return [TenpaiWire(t.kind, t.han, t.fu, t.yakuman, t.points) for t in tenpai]


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
