"""An inquiry on the wire, with every choice spelled out: the JSON of server/edge/messaging.py's
``InquiryMsg``, written straight from the engine's objects.

Every seat is sent one on every turn and claim, and building the message's struct tree (its
actions', options' and waits' structs) for msgspec to walk cost more than writing the text
(docs/perf-notes.md, issue 45); a reconnecting seat's snapshot decodes the text into the
struct. tests/server/session/test_wire_text.py holds the text equal to the struct's encoding
on every inquiry of seeded matches."""

from __future__ import annotations

import time
from typing import Final

from engine.actions.inquiry import SinglePlayerInquiry
from engine.actions.types import Action, ActionType, DiscardOptions, TenpaiInfo

_TENPAI_TYPES = (ActionType.DISCARD, ActionType.RIICHI)
#: the option of discarding tile id ``t`` when it leaves no tenpai: most discards of a turn
_PLAIN_TEXTS: Final = tuple(f'{{"tiles":[{t}],"tenpai":[]}}' for t in range(136))
#: an action's text up to its options, by its type (an enum member's ``name`` is a property:
#: read here once, not for every action of every inquiry)
_ACTION_HEADS: Final = {t: f'{{"type":"{t.name.lower()}","options":[' for t in ActionType}


def inquiry_text(
    inquiry_id: int, single: SinglePlayerInquiry, *, remaining: float, base: float, bank: float
) -> str:
    """The inquiry for one seat with ``remaining`` seconds to answer (server clock)."""
    remaining_ms = max(0, int(remaining * 1000))
    action, option = single.default()
    deadline = int(time.time() * 1000) + remaining_ms
    head = (
        f'{{"type":"inquiry","id":{inquiry_id},"deadline":{deadline},'
        f'"remaining_ms":{remaining_ms},"base_ms":{int(base * 1000)},'
        f'"bank_ms":{int(bank * 1000)},"actions":['
    )
    actions = ",".join([_action_text(a) for a in single.actions])
    return f'{head}{actions}],"default":{{"action":{action},"option":{option}}}}}'


def _action_text(action: Action) -> str:
    options = action.options
    if action.type not in _TENPAI_TYPES:
        texts = [_option_text(option.tiles, ()) for option in options]
    elif isinstance(options, DiscardOptions):
        tenpai, plain = options.tenpai_by_index(), _PLAIN_TEXTS
        texts = [
            _option_text((t,), tenpai[i]) if i in tenpai else plain[t]
            for i, t in enumerate(options.tiles)
        ]
    else:
        texts = [_option_text(o.tiles, o.tenpai) for o in options]
    return _ACTION_HEADS[action.type] + ",".join(texts) + "]}"


def _option_text(tiles: tuple[int, ...], tenpai: tuple[TenpaiInfo, ...]) -> str:
    used = ",".join([str(t) for t in tiles])
    waits = ",".join(
        [
            f'{{"kind":{w.kind},"han":{w.han},"fu":{w.fu},"yakuman":{w.yakuman},'
            f'"points":{w.points}}}'
            for w in tenpai
        ]
    )
    return f'{{"tiles":[{used}],"tenpai":[{waits}]}}'
