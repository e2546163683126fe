"""Write records as tenhou.net/6 JSON, the layout Tenhou's viewer and NAGA/mjai-reviewer load.

Reading a corpus file and writing it back gives the same round arrays (tested on every file),
so what the engine plays is written exactly as Tenhou writes its own games.
"""

from __future__ import annotations

from typing import Any

from engine.replay.record import GameRecord, RoundRecord, StepKind
from engine.replay.tenhou_calls import code_key, format_call
from engine.replay.tenhou_result import format_result
from engine.rules.config import RuleConfig
from engine.rules.tiles import to_tenhou

TSUMOGIRI = 60


def rule_disp(rules: RuleConfig) -> str:
    """Tenhou's rule name; the room is 般 (our tables are not Tenhou's ranked rooms)."""
    sanma = "三" if rules.sanma else ""
    length = "東" if rules.winds == 1 else "南"
    kuitan = "喰" if rules.kuitan else ""
    aka = "赤" if any(rules.aka) else ""
    return f"{sanma}般{length}{kuitan}{aka}"


def write_game(game: GameRecord, disp: str = "") -> dict[str, Any]:
    rules = game.rules
    names = list(game.names) or ["A", "B", "C", "D"][: rules.players]
    return {
        "ver": 2.3,
        "ref": game.ref,
        "log": [write_round(r, rules) for r in game.rounds],
        "ratingc": "PF3" if rules.sanma else "PF4",
        "rule": {
            "disp": disp or rule_disp(rules),
            "aka53": rules.aka[2],
            "aka52": rules.aka[1],
            "aka51": rules.aka[0],
        },
        "lobby": 0,
        "sc": list(game.final),
        "name": names + [""] * (4 - len(names)),
        **_shuffle_keys(game),
    }


def _shuffle_keys(game: GameRecord) -> dict[str, Any]:
    """Our extra top-level keys (Tenhou's viewer and reviewers ignore unknown keys): the
    seed, its commitment, the practice flag and the seat draw (when the seats were drawn), so
    the log's walls and seats can be verified."""
    if game.seed is None:
        return {}
    keys = {"seed": game.seed, "commitment": game.commitment, "practice": game.practice}
    if game.salt:
        keys["salt"] = game.salt
    return keys if game.draw is None else {**keys, "draw": list(game.draw)}


def write_round(rec: RoundRecord, rules: RuleConfig) -> list[Any]:
    body = round_body(rec, rules)
    return [*body, format_result(rec.end, rec.dealer, rules.players, rec.end.all_tenpai)]


def round_body(rec: RoundRecord, rules: RuleConfig) -> list[Any]:
    """The first 16 elements of a round: everything but the result."""
    players = rules.players
    red = rules.red
    code = [to_tenhou(t, red) for t in range(136)]
    takes: list[list[Any]] = [[] for _ in range(4)]
    discards: list[list[Any]] = [[] for _ in range(4)]
    pons: dict[tuple[int, int], str] = {}
    for step in rec.steps:
        s = step.seat
        if step.kind == StepKind.DRAW:
            takes[s].append(code[step.tile])
        elif step.kind == StepKind.DISCARD:
            c = TSUMOGIRI if step.tsumogiri else code[step.tile]
            discards[s].append(f"r{c}" if step.riichi else c)
        elif step.kind == StepKind.KAKAN:
            pon = pons[(s, step.tile >> 2)]
            discards[s].append(format_call(step.kind, code[step.tile], [], 0, pon))
        elif step.kind in (StepKind.ANKAN, StepKind.KITA):
            own = [code[t] for t in step.own if t != step.tile]
            discards[s].append(format_call(step.kind, code[step.tile], own, 0))
        else:
            own = [code[t] for t in step.own]
            offset = (step.from_seat - s) % 4
            text = format_call(step.kind, code[step.tile], own, offset)
            takes[s].append(text)
            if step.kind == StepKind.PON:
                pons[(s, step.tile >> 2)] = text
            elif step.kind == StepKind.DAIMINKAN:
                discards[s].append(0)
    for d in discards:
        while d and d[-1] == 0:
            d.pop()
    out: list[Any] = [
        [rec.kyoku, rec.honba, rec.kyotaku],
        _pad(list(rec.scores)),
        [code[t] for t in rec.dora],
        [code[t] for t in rec.ura],
    ]
    for s in range(4):
        hand = sorted((code[t] for t in rec.haipai[s]), key=code_key) if s < players else []
        out += [hand, takes[s], discards[s]]
    return out


def _pad(scores: list[int]) -> list[int]:
    return scores + [0] * (4 - len(scores))
