"""The intermediate record every log format is read into and written from.

A log names tiles by kind (and red or not); a record names physical ids, the same ones in
the wall it builds, the hands and the engine's options, so decisions match exactly.
Steps are in global play order, which Tenhou's per-seat lists do not give directly.
"""

from __future__ import annotations

from enum import IntEnum

import msgspec

from engine.rules.config import RuleConfig


class ReplayError(ValueError):
    """A log that cannot be read into a consistent round (bad tile flow, unknown field)."""


class StepKind(IntEnum):
    DRAW = 0
    DISCARD = 1
    CHII = 2
    PON = 3
    DAIMINKAN = 4
    KAKAN = 5
    ANKAN = 6
    KITA = 7


#: the steps that take a discarded tile
CALLS = frozenset((StepKind.CHII, StepKind.PON, StepKind.DAIMINKAN))


class Step(msgspec.Struct, frozen=True, array_like=True):
    """One move of one seat.

    ``tile``: the drawn or discarded tile, the called tile of a chii/pon/daiminkan, the added
    tile of a kakan, the North of a kita, one of the four of an ankan. ``own``: the player's
    own tiles a call or ankan uses (an ankan lists all four)."""

    seat: int
    kind: StepKind
    tile: int
    own: tuple[int, ...] = ()
    from_seat: int = -1
    riichi: bool = False
    tsumogiri: bool = False
    rinshan: bool = False


class LoggedWin(msgspec.Struct, frozen=True):
    """One win as the log states it; ``None`` where the log is silent (mjai)."""

    who: int
    from_seat: int
    #: the liable seat; -1 none, None when the log does not say (mjai)
    pao: int | None = -1
    deltas: tuple[int, ...] = ()
    han: int | None = None
    fu: int | None = None
    #: the score text's limit: "", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"
    limit: str | None = None
    #: the hand's points without honba and sticks: ron, or (dealer pays, others pay) on tsumo
    points: tuple[int, ...] | None = None
    #: (Tenhou's name, han); yakuman count 13
    yaku: tuple[tuple[str, int], ...] | None = None

    @property
    def tsumo(self) -> bool:
        return self.who == self.from_seat


class RoundEnd(msgspec.Struct, frozen=True):
    """How a round ended: ``kind`` is "agari" (RoundResult's word) or a draw (see
    DRAW_KINDS); ``deltas`` is empty when the log does not give them."""

    kind: str
    deltas: tuple[int, ...]
    wins: tuple[LoggedWin, ...] = ()
    #: an exhaustive draw's tenpai seats, when known
    tenpai: tuple[int, ...] | None = None

    @property
    def all_tenpai(self) -> bool:
        return self.tenpai is not None and len(self.tenpai) == len(self.deltas)


#: every way a round can end without a win
DRAW_KINDS = frozenset(
    (
        "ryuukyoku",  # exhaustive draw, tenpai payments
        "nagashi_mangan",
        "kyuushu",
        "suucha_riichi",
        "sanchahou",
        "suukaikan",
        "suufon_renda",
    )
)


def tenhou_kyoku(kyoku: int, players: int) -> int:
    """The engine counts sanma hands 0, 1, 2, 3 = E1 E2 E3 S1; Tenhou as if a fourth seat
    existed: 0, 1, 2, 4 (records keep Tenhou's numbering)."""
    return kyoku // players * 4 + kyoku % players


def engine_kyoku(kyoku: int, players: int) -> int:
    """Tenhou's hand number (records) as the engine counts it."""
    return kyoku // 4 * players + kyoku % 4


class RoundRecord(msgspec.Struct, frozen=True):
    #: Tenhou's hand number (sanma skips 3 and 7: see tenhou_kyoku)
    kyoku: int
    honba: int
    kyotaku: int
    scores: tuple[int, ...]
    haipai: tuple[tuple[int, ...], ...]
    steps: tuple[Step, ...]
    #: indicators in reveal order, physical ids
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    end: RoundEnd
    #: what the log leaves unsaid or contradicts about this round, said by the checker
    #: rather than guessed (Mahjong Soul exports, engine/replay/mahjongsoul.py)
    notes: tuple[str, ...] = ()

    @property
    def dealer(self) -> int:
        return self.kyoku % 4

    @property
    def label(self) -> str:
        """Tenhou's round name, e.g. ``E1-0`` (East 1, no honba)."""
        return f"{'ESWN'[self.kyoku // 4 % 4]}{self.kyoku % 4 + 1}-{self.honba}"


class GameRecord(msgspec.Struct, frozen=True):
    rules: RuleConfig
    rounds: tuple[RoundRecord, ...]
    ref: str = ""
    names: tuple[str, ...] = ()
    #: Tenhou's final ``sc`` (points, result, ...) when the log has it
    final: tuple[float, ...] = ()
    #: the game's shuffle seed when the log publishes it (our Tenhou exports do), with the
    #: commitment to it published before the first deal; ``python -m engine.replay verify``
    #: checks that every wall follows from it
    seed: int | None = None
    commitment: str = ""
    #: the commitment's salt (v2; empty for a v1 commitment)
    salt: str = ""
    #: the seed was chosen by the one human at the table (a practice game)
    practice: bool = False
    #: the table the log came from: "tenhou" or "mahjongsoul"
    source: str = "tenhou"
    #: what the log does not say about the whole game (see RoundRecord.notes)
    notes: tuple[str, ...] = ()
    #: the results in ``final`` are whole numbers cut from exact ones (some Mahjong Soul
    #: converters write ``int(total_point / 1000)``)
    truncated: bool = False
    #: the seats drawn from the seed (engine.rules.bagime: ``draw[place]`` is the seat of the
    #: player who sat down ``place``-th); None when the players sat as they joined
    draw: tuple[int, ...] | None = None
