"""Read mjai JSON lines (the events Mortal and mjai.app log) into records.

mjai gives the play order directly but not why a round was drawn, nor han, fu or yaku:
those stay None and a draw's kind is inferred from the steps (see ``draw_kind``).
Logs use Tenhou's rules unless the caller passes others; ``aka_flag: false`` removes reds.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from engine.replay.flow import TileFlow
from engine.replay.record import (
    GameRecord,
    LoggedWin,
    ReplayError,
    RoundEnd,
    RoundRecord,
    Step,
    StepKind,
)
from engine.rules.config import TENHOU_HANCHAN, RuleConfig
from engine.rules.tiles import WINDS, YAOCHUU, mjai_kind

_CALLS = {"chi": StepKind.CHII, "pon": StepKind.PON, "daiminkan": StepKind.DAIMINKAN}
_KANS = (StepKind.DAIMINKAN, StepKind.KAKAN, StepKind.ANKAN)
#: steps after which the same seat draws from the dead wall
_REPLACED = (*_KANS, StepKind.KITA)
LIVE_DRAWS = 136 - 14 - 4 * 13


def read_mjai(text: str, rules: RuleConfig = TENHOU_HANCHAN) -> GameRecord:
    events = [json.loads(line) for line in text.splitlines() if line.strip()]
    names: tuple[str, ...] = ()
    rounds: list[RoundRecord] = []
    current: _Round | None = None
    for ev in events:
        kind = ev.get("type")
        if kind == "start_game":
            names = tuple(ev.get("names", ()))
            if ev.get("aka_flag") is False:
                rules = msgspec.structs.replace(rules, aka=(0, 0, 0))
        elif kind == "start_kyoku":
            current = _Round(ev, rules)
        elif kind in ("end_game", "end_kyoku", None):
            if kind == "end_kyoku" and current is not None:
                rounds.append(current.record())
                current = None
        elif current is None:
            raise ReplayError(f"mjai event {kind!r} outside a kyoku")
        else:
            current.apply(ev)
    return GameRecord(rules=rules, rounds=tuple(rounds), names=names)


class _Round:
    def __init__(self, ev: dict[str, Any], rules: RuleConfig) -> None:
        self.flow = TileFlow(rules.red, rules.players)
        wind = WINDS.index(27 + "ESWN".index(ev["bakaze"]))
        self.kyoku = wind * 4 + int(ev["kyoku"]) - 1
        if int(ev["oya"]) != self.kyoku % 4:
            raise ReplayError(f"oya {ev['oya']} is not the dealer of kyoku {self.kyoku}")
        self.head = (self.kyoku, int(ev["honba"]), int(ev["kyotaku"]), tuple(ev["scores"]))
        self.haipai = tuple(
            tuple(self.flow.draw(s, *mjai_kind(p)) for p in hand)
            for s, hand in enumerate(ev["tehais"])
        )
        self.dora = [self.flow.new(*mjai_kind(ev["dora_marker"]))]
        self.ura: list[int] = []
        self.steps: list[Step] = []
        self.reach = [False] * len(self.haipai)
        self.wins: list[LoggedWin] = []
        self.end: RoundEnd | None = None

    def apply(self, ev: dict[str, Any]) -> None:
        kind = ev["type"]
        if kind == "tsumo":
            actor = ev["actor"]
            last = self.steps[-1] if self.steps else None
            rinshan = last is not None and last.seat == actor and last.kind in _REPLACED
            tile = self.flow.draw(actor, *mjai_kind(ev["pai"]))
            self.steps.append(Step(actor, StepKind.DRAW, tile, rinshan=rinshan))
        elif kind == "dahai":
            self._dahai(ev)
        elif kind in _CALLS:
            last = self.steps[-1] if self.steps else None
            if last is None or last.kind != StepKind.DISCARD or last.seat != ev["target"]:
                raise ReplayError(f"{kind} of seat {ev['actor']} does not take the last discard")
            own = tuple(self.flow.take(ev["actor"], *mjai_kind(p)) for p in ev["consumed"])
            self.steps.append(Step(ev["actor"], _CALLS[kind], last.tile, own, ev["target"]))
        elif kind in ("kakan", "ankan", "kita"):
            self._self_call(kind, ev)
        elif kind == "dora":
            self.dora.append(self.flow.new(*mjai_kind(ev["dora_marker"])))
        elif kind == "reach":
            self.reach[ev["actor"]] = True
        elif kind == "hora":
            self._hora(ev)
        elif kind == "ryukyoku":
            deltas = tuple(ev.get("deltas") or ())  # absent: unknown, not compared
            self.end = RoundEnd(draw_kind(self.steps), deltas[: len(self.haipai)])
        elif kind not in ("reach_accepted", "none"):
            raise ReplayError(f"unknown mjai event {kind!r}")

    def _dahai(self, ev: dict[str, Any]) -> None:
        actor = ev["actor"]
        last = self.steps[-1] if self.steps else None
        drawn = last.tile if last and last.kind == StepKind.DRAW and last.seat == actor else -1
        if ev.get("tsumogiri") and drawn >= 0:
            tile = self.flow.take_id(actor, drawn)
        else:
            tile = self.flow.take(actor, *mjai_kind(ev["pai"]), avoid=drawn)
        riichi, self.reach[actor] = self.reach[actor], False
        gone = bool(ev.get("tsumogiri"))
        self.steps.append(Step(actor, StepKind.DISCARD, tile, riichi=riichi, tsumogiri=gone))

    def _self_call(self, kind: str, ev: dict[str, Any]) -> None:
        actor = ev["actor"]
        if kind == "ankan":
            own = tuple(self.flow.take(actor, *mjai_kind(p)) for p in ev["consumed"])
            self.steps.append(Step(actor, StepKind.ANKAN, own[-1], own))
            return
        tile = self.flow.take(actor, *mjai_kind(ev["pai"]))
        if kind == "kita":
            self.steps.append(Step(actor, StepKind.KITA, tile))
            return
        pon = next(
            (
                s
                for s in self.steps
                if s.seat == actor and s.kind == StepKind.PON and s.tile >> 2 == tile >> 2
            ),
            None,
        )
        if pon is None:
            raise ReplayError(f"kakan of seat {actor} without a pon")
        self.steps.append(Step(actor, StepKind.KAKAN, tile, (*pon.own, pon.tile)))

    def _hora(self, ev: dict[str, Any]) -> None:
        markers = ev.get("ura_markers") or ev.get("uradora_markers") or []
        if markers and not self.ura:
            self.ura = [self.flow.new(*mjai_kind(p)) for p in markers]
        deltas = tuple(ev.get("deltas") or ())[: len(self.haipai)]
        self.wins.append(
            LoggedWin(who=ev["actor"], from_seat=ev["target"], pao=None, deltas=deltas)
        )

    def record(self) -> RoundRecord:
        end = self.end
        if self.wins:
            n = len(self.haipai)
            known = all(w.deltas for w in self.wins)
            total = tuple(sum(w.deltas[s] for w in self.wins) for s in range(n)) if known else ()
            end = RoundEnd("agari", total, tuple(self.wins))
        if end is None:
            raise ReplayError("a kyoku without hora or ryukyoku")
        kyoku, honba, kyotaku, scores = self.head
        return RoundRecord(
            kyoku=kyoku,
            honba=honba,
            kyotaku=kyotaku,
            scores=scores,
            haipai=self.haipai,
            steps=tuple(self.steps),
            dora=tuple(self.dora),
            ura=tuple(self.ura),
            end=end,
        )


def draw_kind(steps: list[Step]) -> str:
    """Why a round without a win was drawn, from its steps (mjai does not say)."""
    kans = sum(s.kind in _KANS for s in steps)
    draws = sum(s.kind == StepKind.DRAW and not s.rinshan for s in steps)
    if draws >= LIVE_DRAWS - kans:
        return "nagashi_mangan" if any(_nagashi(steps, s) for s in range(4)) else "ryuukyoku"
    last = steps[-1] if steps else None
    if last is not None and last.kind == StepKind.DRAW:
        return "kyuushu"
    if last is not None and last.riichi and sum(s.riichi for s in steps) == 4:
        return "suucha_riichi"
    discards = [s for s in steps if s.kind == StepKind.DISCARD]
    if len(discards) == 4 and len({s.tile >> 2 for s in discards}) == 1:
        return "suufon_renda"
    return "suukaikan" if kans >= 4 else "sanchahou"


def _nagashi(steps: list[Step], seat: int) -> bool:
    """Every discard of ``seat`` a terminal or honour, and none of them called."""
    discards = [s.tile for s in steps if s.seat == seat and s.kind == StepKind.DISCARD]
    taken = any(s.from_seat == seat for s in steps if s.kind in _CALLS.values())
    return bool(discards) and not taken and all(t >> 2 in YAOCHUU for t in discards)
