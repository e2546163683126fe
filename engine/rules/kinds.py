"""The kinds of inquiry and of hand ending, shared by the game, the session and the replay.

StrEnums: a member is its string value (it compares equal to it, hashes like it, and
msgspec and json encode it as that plain string), so the wire, the stored records and the
exports read exactly the words they did when these were string literals.
"""

from __future__ import annotations

from enum import StrEnum


class InquiryKind(StrEnum):
    """What a MultiPlayerInquiry asks about."""

    #: the seat to move: discard, riichi, tsumo, a kan, kyuushu, kita
    TURN = "turn"
    #: the others on a discard: ron, pon, chii, daiminkan
    CLAIM = "claim"
    #: ron on an added (or, for kokushi, a concealed) kan
    CHANKAN = "chankan"
    #: ron on a kita (sanma)
    KITA = "kita"
    #: tenpai or noten at an exhaustive draw (M-League's tenpai declaration)
    DECLARATION = "declaration"
    #: every seat confirms the next hand
    NEXT_ROUND = "next_round"


class HandEnd(StrEnum):
    """How a hand ended: a win, or the Ryuukyoku kind (RoundResult.kind, Ryuukyoku.kind)."""

    AGARI = "agari"
    #: the wall ran out: tenpai payments
    EXHAUSTIVE = "exhaustive"
    #: the wall ran out and someone made nagashi mangan
    NAGASHI = "nagashi"
    #: the abortive draws
    KYUUSHU = "kyuushu"
    SUUCHA_RIICHI = "suucha_riichi"
    SANCHAHOU = "sanchahou"
    SUUKAIKAN = "suukaikan"
    SUUFON_RENDA = "suufon_renda"
