"""The resolver registry: what each answered inquiry leads to, registered by the setup the
way listeners are (engine.game.setup), so a variant replaces one resolver without editing
another.

A turn inquiry is resolved by the handler of the action chosen (``on_turn``); every other
kind by the resolver registered for it (``register``), which reads all the top answers
(double ron). A kind nobody registered (kita outside sanma, the tenpai declaration
without ``rules.tenpai_declaration``) is never asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.actions import ActionType, Choice, MultiPlayerInquiry
from engine.rules.kinds import InquiryKind

if TYPE_CHECKING:
    from engine.game.game import Game

#: what one answer to a turn inquiry leads to
TurnHandler = Callable[["Game", Choice], None]
#: how an answered inquiry of one kind is resolved
Resolver = Callable[["Game", MultiPlayerInquiry], None]


class Resolvers:
    """The turn handlers by action and the resolvers by inquiry kind of one game."""

    __slots__ = ("by_kind", "turn")

    def __init__(self) -> None:
        self.turn: dict[ActionType, TurnHandler] = {}
        self.by_kind: dict[InquiryKind, Resolver] = {}

    def on_turn(self, action: ActionType, handler: TurnHandler) -> None:
        """``handler`` runs when a turn inquiry is answered with ``action`` (replacing any)."""
        self.turn[action] = handler

    def register(self, kind: InquiryKind, resolver: Resolver) -> None:
        """``resolver`` resolves every answered inquiry of ``kind`` (replacing any)."""
        if kind == InquiryKind.TURN:
            raise ValueError("a turn inquiry is resolved by its action's handler (on_turn)")
        self.by_kind[kind] = resolver
