"""The WebSocket close codes the server sends, one name each (docs/protocol.md lists them)."""

from __future__ import annotations

from enum import IntEnum


class CloseCode(IntEnum):
    #: the server is restarting; the reason says to reconnect (an ``error`` ``restarting``
    #: comes first)
    RESTARTING = 1012
    #: unknown token, or no hello in time
    BAD_TOKEN = 4001
    #: too many frames refused
    GARBAGE = 4002
    #: replaced by a newer connection of the same seat
    REPLACED = 4003
    #: fell too far behind its outbox
    TOO_SLOW = 4004
    #: refused: no such game, no free seat
    REFUSED = 4005
    #: removed from the room by its owner
    KICKED = 4006
