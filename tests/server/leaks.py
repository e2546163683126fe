"""What a seat's frames may contain: checks shared by the leak test and the fuzz test."""

from __future__ import annotations

from typing import Any

import msgspec

from server.edge.messaging import EventMsg, InquiryMsg, ServerMessage, Snapshot, decode_server

#: every event type the engine sends, with the fields that name tiles in it; a new event type
#: fails the check until someone decides what it may show
TILE_FIELDS: dict[str, tuple[str, ...]] = {
    "BeginGame": (),
    "RoundStarted": ("dora_indicator",),
    "Haipai": ("tiles",),
    "Draw": ("tile",),
    "Discard": ("tile",),
    "RiichiAccepted": (),
    "Call": ("meld",),
    "Kan": ("meld",),
    #: sanma: the North set aside is shown to all (a public meld)
    "Kita": ("meld",),
    "DoraRevealed": ("indicator",),
    "Agari": ("tile", "wins", "ura_indicators"),
    "Ryuukyoku": ("hands",),
    "GameEnded": (),
}


class SeatAudit:
    """Walks one seat's frames in order and fails on anything it must not know yet."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.own: set[int] = set()
        self.events = 0

    def event(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        assert kind in TILE_FIELDS, f"unknown event type {kind}: decide what it may show"
        self.events += 1
        if kind == "RoundStarted":
            self.own = set()
        elif kind == "Haipai" and e["seat"] != self.seat:
            assert e["tiles"] is None, f"seat {self.seat} saw seat {e['seat']}'s haipai"
        elif kind == "Haipai":
            self.own.update(e["tiles"])
        elif kind == "Draw":
            if e["seat"] == self.seat:
                self.own.add(e["tile"])
            else:
                assert e["tile"] is None, f"seat {self.seat} saw seat {e['seat']}'s draw"
        elif kind == "Ryuukyoku":
            for s, hand in enumerate(e["hands"]):
                shown = s in e["tenpai"] or s == e["seat"]
                assert hand is None or shown, f"seat {s}'s noten hand shown at ryuukyoku"
        elif kind == "Agari":
            assert sorted(w["seat"] for w in e["wins"]) == sorted(e["winners"])

    def inquiry(self, msg: InquiryMsg) -> None:
        for action in msg.actions:
            for option in action.options:
                stray = set(option.tiles) - self.own
                assert not stray, f"seat {self.seat} offered tiles it never held: {stray}"

    def frame(self, text: str) -> ServerMessage:
        msg = decode_server(text)
        if isinstance(msg, EventMsg):
            self.event(msgspec.json.decode(bytes(msg.event)))
        elif isinstance(msg, Snapshot):
            for raw in msg.events:
                self.event(msgspec.json.decode(bytes(raw)))
            state = msgspec.json.decode(bytes(msg.state))
            if state is not None:
                for p in state["players"]:
                    assert p["seat"] == self.seat or p["hand"] is None, "snapshot shows a hand"
            if msg.inquiry is not None:
                self.inquiry(msg.inquiry)
        elif isinstance(msg, InquiryMsg):
            self.inquiry(msg)
        return msg
