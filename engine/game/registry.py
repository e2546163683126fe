"""The registry of a game's inquiries: which options each moment offers and what each
answered inquiry leads to, registered by the setup the way listeners are
(engine.game.setup), so a variant replaces one offer or one resolver without editing flow
code.

Offers (``offer``): the builder of each inquiry kind's options, called by the flow when its
moment comes (engine.game.offers holds the standard ones). A kind with no builder (kita
outside sanma, the tenpai declaration without ``rules.tenpai_declaration``) is never asked.
Answers: a turn inquiry is resolved by the handler of the action chosen (``on_turn``); every
other kind by the resolver registered for it (``register``), which reads all the top answers
(double ron).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NoReturn, overload

from engine.actions import ActionType, Choice, MultiPlayerInquiry
from engine.rules.kinds import InquiryKind

if TYPE_CHECKING:
    from engine.game.game import Game

#: what one answer to a turn inquiry leads to
TurnHandler = Callable[["Game", Choice], None]
#: how an answered inquiry of one kind is resolved
Resolver = Callable[["Game", MultiPlayerInquiry], None]

#: (game, seat, after_call): the choices of the seat whose turn it is
TurnOffer = Callable[["Game", int, bool], MultiPlayerInquiry]
#: (game, discarder, tile): who may claim a discard; None when nobody may
ClaimOffer = Callable[["Game", int, int], "MultiPlayerInquiry | None"]
#: (game, kan seat, tile, ankan): who may rob a kan (an empty inquiry: nobody)
ChankanOffer = Callable[["Game", int, int, bool], MultiPlayerInquiry]
#: (game, kita seat, north): who may ron a North set aside (an empty inquiry: nobody)
KitaOffer = Callable[["Game", int, int], MultiPlayerInquiry]
#: (game): who declares tenpai or noten at an exhaustive draw; None when nobody may choose
DeclarationOffer = Callable[["Game"], "MultiPlayerInquiry | None"]
#: (game): every seat acknowledges the hand's result
NextRoundOffer = Callable[["Game"], MultiPlayerInquiry]


def _unregistered(*args: object) -> NoReturn:
    raise LookupError("no offer builder registered for this inquiry kind (see engine.game.setup)")


class Offers:
    """The option builder of each inquiry kind (kita and the declaration may have none)."""

    __slots__ = ("chankan", "claim", "declaration", "kita", "next_round", "turn")

    def __init__(self) -> None:
        self.turn: TurnOffer = _unregistered
        self.claim: ClaimOffer = _unregistered
        self.chankan: ChankanOffer = _unregistered
        self.next_round: NextRoundOffer = _unregistered
        self.kita: KitaOffer | None = None
        self.declaration: DeclarationOffer | None = None


class Resolvers:
    """A game's offer builders by inquiry kind, its turn handlers by action and its
    resolvers by inquiry kind."""

    __slots__ = ("by_kind", "offers", "turn")

    def __init__(self) -> None:
        self.offers = Offers()
        self.turn: dict[ActionType, TurnHandler] = {}
        self.by_kind: dict[InquiryKind, Resolver] = {}

    @overload
    def offer(self, kind: Literal[InquiryKind.TURN], builder: TurnOffer) -> None: ...
    @overload
    def offer(self, kind: Literal[InquiryKind.CLAIM], builder: ClaimOffer) -> None: ...
    @overload
    def offer(self, kind: Literal[InquiryKind.CHANKAN], builder: ChankanOffer) -> None: ...
    @overload
    def offer(self, kind: Literal[InquiryKind.KITA], builder: KitaOffer) -> None: ...
    @overload
    def offer(self, kind: Literal[InquiryKind.DECLARATION], builder: DeclarationOffer) -> None: ...
    @overload
    def offer(self, kind: Literal[InquiryKind.NEXT_ROUND], builder: NextRoundOffer) -> None: ...
    def offer(self, kind: InquiryKind, builder: Callable[..., object]) -> None:
        """``builder`` makes the options of every inquiry of ``kind`` (replacing any)."""
        setattr(self.offers, kind.value, builder)

    def on_turn(self, action: ActionType, handler: TurnHandler) -> None:
        """``handler`` runs when a turn inquiry is answered with ``action`` (replacing any)."""
        self.turn[action] = handler

    def register(self, kind: InquiryKind, resolver: Resolver) -> None:
        """``resolver`` resolves every answered inquiry of ``kind`` (replacing any)."""
        if kind == InquiryKind.TURN:
            raise ValueError("a turn inquiry is resolved by its action's handler (on_turn)")
        self.by_kind[kind] = resolver
