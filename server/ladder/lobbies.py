"""The ranked lobbies an operator configures (``ranked_lobbies``, JSON), each a preset with
the Tenhou room level its games move dan points by.

Default: Tenhou's 4-player tonpuusen and hanchan and sanma hanchan, all 一般 (ippan).
"""

from __future__ import annotations

import json

import msgspec

from engine.rules.config import PRESETS
from server.ladder.standing import LobbyRules
from server.ladder.tenhou_dan import Length, Lobby

DEFAULT = (
    '[{"name": "tonpuu", "preset": "tenhou-tonpuu"},'
    ' {"name": "hanchan", "preset": "tenhou-hanchan"},'
    ' {"name": "sanma", "preset": "tenhou-sanma-hanchan"}]'
)
#: Tenhou room levels by their names in the setting
ROOMS = {
    "ippan": Lobby.IPPAN,
    "joukyuu": Lobby.JOUKYUU,
    "tokujou": Lobby.TOKUJOU,
    "houou": Lobby.HOUOU,
}


class RankedLobby(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One queue: its name in the API, the preset its tables play, the room level, the clock
    (None: the server's default) and whether the room's dan/R floor gates entry."""

    name: str
    preset: str
    room: str = "ippan"
    base_s: float | None = None
    bank_s: float | None = None
    gated: bool = False

    @property
    def players(self) -> int:
        return PRESETS[self.preset].players

    @property
    def rules(self) -> LobbyRules:
        length = Length.TONPUU if PRESETS[self.preset].winds == 1 else Length.HANCHAN
        return LobbyRules(ROOMS[self.room], length, self.players)


def parse(raw: str) -> dict[str, RankedLobby]:
    """The setting read (empty: DEFAULT); ValueError naming what is wrong."""
    try:
        data = json.loads(raw.strip() or DEFAULT)
        lobbies = msgspec.convert(data, list[RankedLobby])
    except (ValueError, msgspec.ValidationError) as exc:
        raise ValueError(f"ranked_lobbies: {exc}") from None
    found: dict[str, RankedLobby] = {}
    for lobby in lobbies:
        if lobby.preset not in PRESETS:
            raise ValueError(f"ranked_lobbies: unknown preset {lobby.preset!r}")
        if lobby.room not in ROOMS:
            raise ValueError(f"ranked_lobbies: room must be one of {sorted(ROOMS)}")
        if not lobby.name or lobby.name in found:
            raise ValueError(f"ranked_lobbies: lobby name {lobby.name!r} empty or repeated")
        found[lobby.name] = lobby
    return found
