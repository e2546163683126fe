"""The in-game events. Each is a msgspec Struct; its class says who may see which field.

``__visibility__`` maps a field to "owner" (only the event's ``seat`` sees it) or "god"
(nobody at the table); unlisted fields are public. ``__private__`` writes the whole event
as null to non-owners (every field but ``seat``); ``__broadcast__ = False`` marks
engine-internal events never delivered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from engine.events import EventBase
from engine.rules.kinds import HandEnd
from engine.rules.meld import Meld
from engine.rules.scoring import HandResult

if TYPE_CHECKING:
    from engine.actions import MultiPlayerInquiry
    from engine.game.game import Game


class GameEvent(EventBase):
    #: the game the event was queued in (set by its EventQueue)
    game: ClassVar[Game]
    __visibility__: ClassVar[dict[str, str]] = {}
    __private__: ClassVar[bool] = False
    __broadcast__: ClassVar[bool] = True


class BeginGame(GameEvent):
    players: int = 4
    scores: tuple[int, ...] = ()


class RoundStarted(GameEvent):
    """A hand begins: ``round_index`` counts every hand played (it seeds the wall)."""

    round_index: int = 0
    kyoku: int = 0
    honba: int = 0
    kyotaku: int = 0
    dealer: int = 0
    scores: tuple[int, ...] = ()
    dora_indicator: int = -1


class Haipai(GameEvent):
    """One seat's starting hand: only that seat learns it."""

    __private__ = True
    seat: int = 0
    tiles: tuple[int, ...] | None = None


class Draw(GameEvent):
    __visibility__: ClassVar[dict[str, str]] = {"tile": "owner", "furiten": "owner"}
    seat: int = 0
    tile: int | None = None
    rinshan: bool = False
    remaining: int = 0
    #: the drawer is furiten now (discard, temporary since passing a win, or riichi): its own
    #: seat learns it here, so no client works out a rule itself
    furiten: bool | None = None


class Discard(GameEvent):
    __visibility__: ClassVar[dict[str, str]] = {"furiten": "owner"}
    seat: int = 0
    tile: int = -1
    tsumogiri: bool = False
    riichi: bool = False
    #: the discarder is furiten after this discard (its own seat only; set when a center
    #: wants events)
    furiten: bool | None = None


class RiichiAccepted(GameEvent):
    """The declaring discard was not ronned: the stick is on the table."""

    seat: int = 0
    scores: tuple[int, ...] = ()
    kyotaku: int = 0


class Call(GameEvent):
    """Chii, pon or daiminkan of the last discard."""

    seat: int = 0
    meld: Meld | None = None


class Kan(GameEvent):
    """Ankan or kakan declared from the hand (others may still rob a kakan)."""

    seat: int = 0
    meld: Meld | None = None


class Kita(GameEvent):
    """Sanma nukidora: a North set aside (a KITA meld), then others may ron it, then the
    replacement draw."""

    seat: int = 0
    meld: Meld | None = None


class DoraRevealed(GameEvent):
    indicator: int = -1


class Win(msgspec.Struct, frozen=True, kw_only=True):
    """One winner of an Agari, with the revealed hand and its score."""

    seat: int
    from_seat: int
    tile: int
    hand: tuple[int, ...]
    melds: tuple[Meld, ...]
    result: HandResult
    pao_seat: int = -1


class Agari(GameEvent):
    """Tsumo (from_seat == winner), ron (possibly double) or chankan."""

    winners: tuple[int, ...] = ()
    from_seat: int = -1
    tile: int = -1
    chankan: bool = False
    wins: tuple[Win, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    deltas: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


class Ryuukyoku(GameEvent):
    """A drawn hand: exhaustive, nagashi, or an abortive draw (HandEnd)."""

    kind: HandEnd = HandEnd.EXHAUSTIVE
    seat: int = -1
    tenpai: tuple[int, ...] = ()
    #: the hands of the tenpai seats (and a kyuushu declarer); others stay hidden (None)
    hands: tuple[tuple[int, ...] | None, ...] = ()
    nagashi: tuple[int, ...] = ()
    deltas: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


class GameEnded(GameEvent):
    scores: tuple[int, ...] = ()
    #: final rank of each seat, 1..4 (ties to the earlier starting seat)
    ranks: tuple[int, ...] = ()
    #: Tenhou-style result in thousands, with uma and oka
    points: tuple[float, ...] = ()
    #: why the match ended (engine.game.match.END_REASONS): "bust", "last" (the last
    #: scheduled hand, agari-yame included) or "extension" (in the extra wind)
    reason: str = ""


class WaitPlayerAction(GameEvent):
    """Presents an inquiry and waits; never delivered (the inquiry goes to on_inquiry)."""

    __broadcast__ = False
    inquiry: MultiPlayerInquiry


class EndRound(GameEvent):
    """Books the hand's result and decides what comes next (internal)."""

    __broadcast__ = False


class NextRound(GameEvent):
    """Every seat acknowledged the result: the next hand starts (internal)."""

    __broadcast__ = False


BROADCAST_EVENTS: tuple[type[GameEvent], ...] = (
    BeginGame,
    RoundStarted,
    Haipai,
    Draw,
    Discard,
    RiichiAccepted,
    Call,
    Kan,
    DoraRevealed,
    Agari,
    Ryuukyoku,
    GameEnded,
)
