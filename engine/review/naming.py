"""Engine choices written as mjai actions, the form mjai-reviewer's report shows them in.

``{"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": false}``, ``{"type": "reach"}``,
``chi`` / ``pon`` / ``daiminkan`` with ``target``, ``pai`` and ``consumed``, ``ankan``,
``kakan``, ``hora``, ``ryukyoku`` (nine terminals), ``none`` (pass), and for sanma's kita
``nukidora`` as mjai-reviewer3p names it. Our riichi is one choice per discard, so its
``reach`` also carries the discard as ``pai``; tenpai declarations (M-League) are
``tenpai`` / ``notenpai``.
"""

from __future__ import annotations

from typing import Any

from engine.actions.types import ActionType
from engine.review.moment import Moment
from engine.rules.meld import MeldType
from engine.rules.tiles import to_mjai

_CALLS = {ActionType.CHII: "chi", ActionType.PON: "pon", ActionType.DAIMINKAN: "daiminkan"}
_PLAIN = {
    ActionType.KYUUSHU: "ryukyoku",
    ActionType.SKIP: "none",
    ActionType.NEXT_ROUND: "none",
    ActionType.TENPAI: "tenpai",
    ActionType.NOTENPAI: "notenpai",
}


def mjai_action(moment: Moment, kind: ActionType, tiles: tuple[int, ...]) -> dict[str, Any]:
    """The mjai form of choosing ``kind`` with the option's own ``tiles``."""
    red = moment.view.rules.red
    me = moment.seat

    def name(tile: int) -> str:
        return to_mjai(tile, red)

    if kind == ActionType.DISCARD:
        drawn = moment.view.drawn
        return {"type": "dahai", "actor": me, "pai": name(tiles[0]), "tsumogiri": tiles[0] == drawn}
    if kind == ActionType.RIICHI:
        return {"type": "reach", "actor": me, "pai": name(tiles[0])}
    if kind in (ActionType.TSUMO, ActionType.RON):
        target = me if kind == ActionType.TSUMO else moment.last_actor
        return {"type": "hora", "actor": me, "target": target}
    if kind in _CALLS:
        return {
            "type": _CALLS[kind],
            "actor": me,
            "target": moment.last_actor,
            "pai": name(moment.tile) if moment.tile >= 0 else "?",
            "consumed": [name(t) for t in tiles],
        }
    if kind == ActionType.ANKAN:
        return {"type": "ankan", "actor": me, "consumed": [name(t) for t in tiles]}
    if kind == ActionType.KAKAN:
        pon = [
            m for m in moment.view.melds[me] if m.type == MeldType.PON and m.kind == tiles[0] >> 2
        ]
        consumed = [name(t) for t in pon[0].tiles] if pon else []
        return {"type": "kakan", "actor": me, "pai": name(tiles[0]), "consumed": consumed}
    if kind == ActionType.KITA:
        return {"type": "nukidora", "actor": me, "pai": "N"}
    return {"type": _PLAIN.get(kind, kind.name.lower()), "actor": me}
