"""One visibility rule: project an event (or the table) for a seat, or for the god view.

Event classes declare ``__visibility__`` (field -> "owner" | "god"; others public) and
``__private__`` (the whole event is the owner's: as in the seed, a private class is written
as null to non-owners, so they learn that it happened to ``seat`` and nothing else). The
field lists are computed once per type. ``project(event, seat)`` returns a copy with hidden
fields set to None; ``project(event, None)`` is the god view.

Who owns what: this module owns visibility (``project``) and the table as a seat sees it
(``snapshot``); engine.game owns the state and the events. The dependency runs one way:
engine.game.setup's broadcast listener imports ``project``, and this module reads a Game only
through its attributes (the Game type is imported for the type checker alone), so importing
the view never imports engine.game and there is no cycle between the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

import msgspec

from engine.rules.meld import Meld, MeldType

if TYPE_CHECKING:
    from engine.game.game import Game

S = TypeVar("S", bound=msgspec.Struct)

#: per event type: (owner-only fields, god-only fields)
_PLAN: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _plan(kind: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    found = _PLAN.get(kind)
    if found is None:
        vis: dict[str, str] = getattr(kind, "__visibility__", {})
        if getattr(kind, "__private__", False):
            fields: tuple[str, ...] = getattr(kind, "__struct_fields__", ())
            vis = {f: "owner" for f in fields if f != "seat"} | vis
        owner = tuple(f for f, v in vis.items() if v == "owner")
        god = tuple(f for f, v in vis.items() if v == "god")
        found = _PLAN[kind] = (owner, god)
    return found


def project(event: S, seat: int | None) -> S | None:
    """The struct ``seat`` may see (None: god view, everything)."""
    if seat is None:
        return event
    owner, god = _plan(type(event))
    mine = getattr(event, "seat", None) == seat
    hidden = god if mine else owner + god
    if not hidden:
        return event
    return msgspec.structs.replace(event, **dict.fromkeys(hidden))


def projections(event: S, n: int) -> list[S]:
    """What each of ``n`` seats may see of ``event``, as ``project`` gives it, with one object
    per visibility class (the owner's, everyone else's): a center that encodes what it is
    given encodes each class once.

    >>> from engine.game.events import Draw
    >>> seen = projections(Draw(seat=1, tile=52, rinshan=False, remaining=69), 4)
    >>> [v.tile for v in seen], seen[0] is seen[2] is seen[3]
    ([None, 52, None, None], True)
    """
    owner, god = _plan(type(event))
    if not owner and not god:
        return [event] * n
    others = msgspec.structs.replace(event, **dict.fromkeys(owner + god))
    seat = getattr(event, "seat", None)
    if not isinstance(seat, int) or not 0 <= seat < n:
        return [others] * n
    mine = msgspec.structs.replace(event, **dict.fromkeys(god)) if god else event
    seen = [others] * n
    seen[seat] = mine
    return seen


class PlayerView(msgspec.Struct, kw_only=True):
    """One seat at the table as a reconnecting client sees it."""

    __visibility__: ClassVar[dict[str, str]] = {"hand": "owner", "drawn": "owner"}
    seat: int
    score: int
    hand: tuple[int, ...] | None
    hand_size: int
    drawn: int | None
    melds: tuple[Meld, ...]
    river: tuple[int, ...]
    riichi_discard: int
    riichi: bool
    #: Norths set aside (sanma nukidora): each one a dora, shown to all; also among ``melds``
    kita: int = 0


class TableView(msgspec.Struct, kw_only=True):
    """The whole table at one moment: what a reconnect or a spectator needs."""

    round_index: int
    kyoku: int
    honba: int
    kyotaku: int
    dealer: int
    turn: int
    remaining: int
    dora_indicators: tuple[int, ...]
    players: tuple[PlayerView, ...]
    inquiry_id: int
    over: bool


def snapshot(game: Game, seat: int | None) -> TableView:
    """The table as ``seat`` may see it (None: the god view)."""
    views = []
    for p in game.players:
        view = PlayerView(
            seat=p.seat,
            score=p.score,
            hand=tuple(sorted(p.hand)),
            hand_size=len(p.hand),
            drawn=p.drawn if p.drawn >= 0 else None,
            melds=tuple(p.melds),
            river=tuple(p.river),
            riichi_discard=p.riichi_discard,
            riichi=p.riichi,
            kita=sum(1 for m in p.melds if m.type == MeldType.KITA),
        )
        seen = project(view, seat)
        assert seen is not None
        views.append(seen)
    inquiry = game.inquiry
    return TableView(
        round_index=game.round_index,
        kyoku=game.kyoku,
        honba=game.honba,
        kyotaku=game.kyotaku,
        dealer=game.dealer,
        turn=game.round.turn,
        remaining=game.round.wall.remaining,
        dora_indicators=tuple(game.round.dora_indicators),
        players=tuple(views),
        inquiry_id=inquiry.id if inquiry is not None else 0,
        over=game.over,
    )
