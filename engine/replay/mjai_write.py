"""Write records as mjai JSON lines, the events Mortal and mjai-reviewer read.

Kan dora are revealed at Tenhou's moments: an ankan's at once, a daiminkan's or kakan's
after the replacement discard (or at the next kan, whichever comes first).
"""

from __future__ import annotations

import json
from typing import Any

from engine.replay.record import GameRecord, RoundRecord, StepKind
from engine.rules.tiles import to_mjai

_CALLS = {StepKind.CHII: "chi", StepKind.PON: "pon", StepKind.DAIMINKAN: "daiminkan"}


def write_mjai(game: GameRecord) -> str:
    """One JSON object per line, from start_game to end_game."""
    return "".join(json.dumps(ev, separators=(",", ":")) + "\n" for ev in mjai_events(game))


def mjai_events(game: GameRecord) -> list[dict[str, Any]]:
    names = list(game.names) or ["A", "B", "C", "D"][: game.rules.players]
    out: list[dict[str, Any]] = [
        {"type": "start_game", "names": names, "kyoku_first": 0, "aka_flag": any(game.rules.aka)}
    ]
    for rec in game.rounds:
        out += _round(rec, game.rules.red)
    out.append({"type": "end_game"})
    return out


def _round(rec: RoundRecord, red: frozenset[int]) -> list[dict[str, Any]]:
    def name(t: int) -> str:
        return to_mjai(t, red)

    out: list[dict[str, Any]] = [
        {
            "type": "start_kyoku",
            "bakaze": "ESWN"[rec.kyoku // 4 % 4],
            "dora_marker": name(rec.dora[0]),
            "kyoku": rec.kyoku % 4 + 1,
            "honba": rec.honba,
            "kyotaku": rec.kyotaku,
            "oya": rec.dealer,
            "scores": list(rec.scores),
            "tehais": [[name(t) for t in sorted(hand)] for hand in rec.haipai],
        }
    ]
    revealed = 1
    pending = 0

    def reveal(count: int) -> int:
        nonlocal revealed
        for _ in range(count):
            if revealed < len(rec.dora):
                out.append({"type": "dora", "dora_marker": name(rec.dora[revealed])})
                revealed += 1
        return 0

    last_index = len(rec.steps) - 1
    ronned = {w.from_seat for w in rec.end.wins if not w.tsumo}
    for i, step in enumerate(rec.steps):
        actor = step.seat
        if step.kind == StepKind.DRAW:
            out.append({"type": "tsumo", "actor": actor, "pai": name(step.tile)})
        elif step.kind == StepKind.DISCARD:
            if step.riichi:
                out.append({"type": "reach", "actor": actor})
            out.append(
                {
                    "type": "dahai",
                    "actor": actor,
                    "pai": name(step.tile),
                    "tsumogiri": step.tsumogiri,
                }
            )
            pending = reveal(pending)
            if step.riichi and not (i == last_index and actor in ronned):
                out.append({"type": "reach_accepted", "actor": actor})
        elif step.kind in _CALLS:
            ev: dict[str, Any] = {"type": _CALLS[step.kind], "actor": actor}
            ev |= {"target": step.from_seat, "pai": name(step.tile)}
            out.append(ev | {"consumed": [name(t) for t in step.own]})
            pending = reveal(pending) + (step.kind == StepKind.DAIMINKAN)
        elif step.kind == StepKind.KAKAN:
            pending = reveal(pending) + 1
            own = [name(t) for t in step.own]
            out.append({"type": "kakan", "actor": actor, "pai": name(step.tile), "consumed": own})
        elif step.kind == StepKind.ANKAN:
            pending = reveal(pending)
            out.append({"type": "ankan", "actor": actor, "consumed": [name(t) for t in step.own]})
            reveal(1)
        else:
            out.append({"type": "kita", "actor": actor, "pai": name(step.tile)})
    reveal(len(rec.dora))
    out += _ending(rec, red)
    out.append({"type": "end_kyoku"})
    return out


def _ending(rec: RoundRecord, red: frozenset[int]) -> list[dict[str, Any]]:
    if rec.end.kind != "agari":
        return [{"type": "ryukyoku", "deltas": list(rec.end.deltas)}]
    out: list[dict[str, Any]] = []
    for win in rec.end.wins:
        ev: dict[str, Any] = {"type": "hora", "actor": win.who, "target": win.from_seat}
        ev["deltas"] = list(win.deltas)
        if rec.ura:
            ev["ura_markers"] = [to_mjai(t, red) for t in rec.ura]
        out.append(ev)
    return out
