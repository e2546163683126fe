"""Host one seat for an mjai player: the engine's per-seat events out as mjai, its answers in.

The other direction of engine.bot.mjai (which makes our bots mjai players): ``SeatStream``
turns the events one seat receives (already masked by the engine: others' haipai and draws
hidden) into mjai events, as mjai.app's simulator or Mortal would send them, and ``choose``
reads an mjai reaction as a choice among that seat's legal actions. Pure: the server does the
I/O (server/seats/mjai_seat.py). Names follow the engine's mjai writer (engine.replay.mjai_write).

A reaction that names no legal choice gives None, and the host plays the seat's default;
``reach`` gives ``REACH``: the host sends the seat its own ``reach`` event and reads the
riichi discard from the next reaction (``riichi_discard``), as mjai hosts do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from engine.actions.types import ActionType
from engine.game import events as ev
from engine.rules.config import RuleConfig
from engine.rules.meld import Meld, MeldType
from engine.rules.tiles import mjai_kind, to_mjai

Event = dict[str, Any]
#: one legal action as the host sees it: its type and each option's own tiles
Offer = tuple[ActionType, Sequence[Sequence[int]]]
#: the mjai answer was ``reach``: ask again for the riichi discard
REACH: Final = "reach"

#: the events a seat receives, by the engine's tag (the class name)
_SEEN: tuple[type[ev.GameEvent], ...] = (*ev.BROADCAST_EVENTS, ev.Kita)
EVENTS: dict[str, type[ev.GameEvent]] = {cls.__name__: cls for cls in _SEEN}
_CALLS = {MeldType.CHII: "chi", MeldType.PON: "pon", MeldType.DAIMINKAN: "daiminkan"}
_CLAIMS = {"chi": ActionType.CHII, "pon": ActionType.PON, "daiminkan": ActionType.DAIMINKAN}


def decode_event(raw: bytes | str) -> ev.GameEvent | None:
    """An engine event from its wire JSON (``{"type": "Draw", ...}``); None for other kinds."""
    data = msgspec.json.decode(raw)
    cls = EVENTS.get(data.pop("type", None)) if isinstance(data, dict) else None
    if cls is None:
        return None
    # the events' class variables name engine types msgspec cannot resolve here, so the
    # event is built from its fields (the nested structs converted one by one)
    if data.get("meld") is not None:
        data["meld"] = msgspec.convert(data["meld"], Meld)
    if "wins" in data:
        data["wins"] = msgspec.convert(data["wins"], tuple[ev.Win, ...])
    return cls(**data)


class SeatStream:
    """One seat's engine events as mjai events (``feed``); ``start_game`` comes first."""

    def __init__(self, seat: int, rules: RuleConfig, names: Sequence[str] = ()) -> None:
        self.seat = seat
        self.rules = rules
        self.n = rules.players
        self.names = list(names) or [f"Player {i + 1}" for i in range(self.n)]
        self.started = False
        #: the seat's own ``reach`` was already sent (in the riichi question): not again
        self.reach_sent = False
        self._kyoku: Event | None = None

    def name(self, tile: int) -> str:
        return to_mjai(tile, self.rules.red)

    def feed(self, event: ev.GameEvent) -> list[Event]:
        """The mjai events for one engine event (often one, sometimes none or several)."""
        out: list[Event] = []
        if not self.started:
            self.started = True
            out.append({"type": "start_game", "id": self.seat, "names": self.names})
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            out += handler(event)
        return out

    def end_game(self, scores: Sequence[int] = ()) -> Event:
        return {"type": "end_game", "scores": list(scores)}

    def _on_RoundStarted(self, e: ev.RoundStarted) -> list[Event]:
        self.reach_sent = False
        self._kyoku = {
            "type": "start_kyoku",
            "bakaze": "ESWN"[e.kyoku // self.n % 4],
            "kyoku": e.kyoku % self.n + 1,
            "honba": e.honba,
            "kyotaku": e.kyotaku,
            "oya": e.dealer,
            "dora_marker": self.name(e.dora_indicator),
            "scores": list(e.scores),
            "tehais": [["?"] * 13 for _ in range(self.n)],
        }
        return [self._kyoku]

    def _on_Haipai(self, e: ev.Haipai) -> list[Event]:
        """The seat's own tiles complete the start_kyoku already queued (nothing is sent
        between the two)."""
        if e.tiles is not None and self._kyoku is not None:
            self._kyoku["tehais"][e.seat] = [self.name(t) for t in sorted(e.tiles)]
        return []

    def _on_Draw(self, e: ev.Draw) -> list[Event]:
        pai = "?" if e.tile is None else self.name(e.tile)
        return [{"type": "tsumo", "actor": e.seat, "pai": pai}]

    def _on_Discard(self, e: ev.Discard) -> list[Event]:
        out: list[Event] = []
        if e.riichi and not (e.seat == self.seat and self.reach_sent):
            out.append({"type": "reach", "actor": e.seat})
        if e.seat == self.seat:
            self.reach_sent = False
        dahai = {"type": "dahai", "actor": e.seat, "pai": self.name(e.tile)}
        return [*out, dahai | {"tsumogiri": e.tsumogiri}]

    def _on_RiichiAccepted(self, e: ev.RiichiAccepted) -> list[Event]:
        deltas = [-1000 if i == e.seat else 0 for i in range(self.n)]
        return [
            {"type": "reach_accepted", "actor": e.seat, "deltas": deltas, "scores": list(e.scores)}
        ]

    def _on_Call(self, e: ev.Call) -> list[Event]:
        m = e.meld
        if m is None or m.type not in _CALLS:
            return []
        own = list(m.tiles)
        own.remove(m.called)
        return [
            {
                "type": _CALLS[m.type],
                "actor": e.seat,
                "target": m.from_seat,
                "pai": self.name(m.called),
                "consumed": [self.name(t) for t in own],
            }
        ]

    def _on_Kan(self, e: ev.Kan) -> list[Event]:
        m = e.meld
        if m is None:
            return []
        if m.type == MeldType.ANKAN:
            return [{"type": "ankan", "actor": e.seat, "consumed": [self.name(t) for t in m.tiles]}]
        rest = [t for t in m.tiles if t != m.added]
        return [
            {
                "type": "kakan",
                "actor": e.seat,
                "pai": self.name(m.added),
                "consumed": [self.name(t) for t in rest],
            }
        ]

    def _on_Kita(self, e: ev.Kita) -> list[Event]:
        return [{"type": "kita", "actor": e.seat, "pai": "N"}]

    def _on_DoraRevealed(self, e: ev.DoraRevealed) -> list[Event]:
        return [{"type": "dora", "dora_marker": self.name(e.indicator)}]

    def _on_Agari(self, e: ev.Agari) -> list[Event]:
        out: list[Event] = []
        for i, w in enumerate(e.wins):
            hora: Event = {"type": "hora", "actor": w.seat, "target": w.from_seat}
            hora["pai"] = self.name(w.tile)
            if e.ura_indicators:
                hora["ura_markers"] = [self.name(t) for t in e.ura_indicators]
            if i == len(e.wins) - 1:  # the hand's deltas, once (a double ron's are summed)
                hora |= {"deltas": list(e.deltas), "scores": list(e.scores)}
            out.append(hora)
        return [*out, {"type": "end_kyoku"}]

    def _on_Ryuukyoku(self, e: ev.Ryuukyoku) -> list[Event]:
        out = {"type": "ryukyoku", "deltas": list(e.deltas), "scores": list(e.scores)}
        return [out, {"type": "end_kyoku"}]

    def _on_GameEnded(self, e: ev.GameEnded) -> list[Event]:
        return [self.end_game(e.scores)]


def choose(
    reply: Event, offers: Sequence[Offer], red: frozenset[int]
) -> tuple[int, int] | str | None:
    """The (action, option) an mjai reaction names among ``offers``; ``REACH`` when it
    declares riichi (ask for the discard next); None when it names nothing legal."""
    kind = reply.get("type")
    types = [t for t, _ in offers]
    try:
        if kind == "dahai":
            return _tile_choice(offers, ActionType.DISCARD, str(reply["pai"]), red)
        if kind == "reach":
            return REACH if ActionType.RIICHI in types else None
        if kind == "hora":
            for win in (ActionType.TSUMO, ActionType.RON):
                if win in types:
                    return types.index(win), 0
            return None
        if kind in _CLAIMS:
            return _claim(offers, _CLAIMS[kind], [str(p) for p in reply["consumed"]], red)
        if kind == "ankan":
            return _kind_choice(offers, ActionType.ANKAN, str(reply["consumed"][0]))
        if kind == "kakan":
            return _kind_choice(offers, ActionType.KAKAN, str(reply["pai"]))
        if kind in ("ryukyoku", "kita"):
            wanted = ActionType.KYUUSHU if kind == "ryukyoku" else ActionType.KITA
            return (types.index(wanted), 0) if wanted in types else None
        if kind == "none":
            return (types.index(ActionType.SKIP), 0) if ActionType.SKIP in types else None
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return None


def riichi_discard(
    reply: Event, offers: Sequence[Offer], red: frozenset[int]
) -> tuple[int, int] | None:
    """The riichi option whose discard the reaction after our ``reach`` event names."""
    if reply.get("type") != "dahai":
        return None
    try:
        return _tile_choice(offers, ActionType.RIICHI, str(reply["pai"]), red)
    except (KeyError, ValueError):
        return None


def _tile_choice(
    offers: Sequence[Offer], wanted: ActionType, pai: str, red: frozenset[int]
) -> tuple[int, int] | None:
    """The option discarding ``pai``: the very tile (red or not) if offered, else its kind
    (the engine lists discard choices once per kind and red-ness)."""
    kind = mjai_kind(pai)[0]
    for i, (t, options) in enumerate(offers):
        if t != wanted:
            continue
        same = [j for j, o in enumerate(options) if o and o[0] >> 2 == kind]
        exact = [j for j in same if to_mjai(options[j][0], red) == pai]
        if exact or same:
            return i, (exact or same)[0]
    return None


def _kind_choice(offers: Sequence[Offer], wanted: ActionType, pai: str) -> tuple[int, int] | None:
    kind = mjai_kind(pai)[0]
    for i, (t, options) in enumerate(offers):
        if t == wanted:
            for j, o in enumerate(options):
                if o and o[0] >> 2 == kind:
                    return i, j
    return None


def _claim(
    offers: Sequence[Offer], wanted: ActionType, consumed: list[str], red: frozenset[int]
) -> tuple[int, int] | None:
    """The call option using exactly the ``consumed`` tiles (by name), else the same kinds."""
    names = sorted(consumed)
    kinds = sorted(mjai_kind(p)[0] for p in consumed)
    for i, (t, options) in enumerate(offers):
        if t != wanted:
            continue
        by_kind = [j for j, o in enumerate(options) if sorted(x >> 2 for x in o) == kinds]
        exact = [j for j in by_kind if sorted(to_mjai(x, red) for x in options[j]) == names]
        if exact or by_kind:
            return i, (exact or by_kind)[0]
    return None
