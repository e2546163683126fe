"""Offers: the standard option builders of each inquiry kind, which actions each seat may
take now. The setup registers them on ``game.resolvers`` (engine.game.registry): the flow
calls the registered builder, so a variant replaces one by registering its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from engine.actions import (
    Action,
    ActionType,
    MultiPlayerInquiry,
    Option,
    SinglePlayerInquiry,
    TenpaiInfo,
)
from engine.actions.types import DiscardOptions
from engine.rules.calls import (
    ankan_options,
    chii_options,
    daiminkan_option,
    kakan_options,
    pon_options,
)
from engine.rules.hand import decompose, is_kokushi, tenpai_discards
from engine.rules.hand import waits as hand_waits
from engine.rules.kinds import InquiryKind
from engine.rules.meld import MeldType
from engine.rules.scoring import score_hand
from engine.rules.scoring.preview import preview_value
from engine.rules.tiles import NORTH, YAOCHUU, to_counts

if TYPE_CHECKING:
    from engine.game.game import Game
    from engine.game.player import Player

#: Python 3.11 reads an enum member through a descriptor (0.1-0.2 us a time, ten times a
#: module global): the per-turn code below names the members it needs once here
#: (``Final``: compiled, each is a C static, where a plain module global is a dict lookup)
_DISCARD: Final = ActionType.DISCARD
_RIICHI: Final = ActionType.RIICHI
_TSUMO: Final = ActionType.TSUMO
_KYUUSHU: Final = ActionType.KYUUSHU
_KITA: Final = ActionType.KITA
_ANKAN: Final = ActionType.ANKAN
_KAKAN: Final = ActionType.KAKAN
_PON: Final = MeldType.PON
_TURN: Final = InquiryKind.TURN
_CLAIM: Final = InquiryKind.CLAIM
_RON_ACTION: Final = ActionType.RON
_PON_ACTION: Final = ActionType.PON
_DAIMINKAN_ACTION: Final = ActionType.DAIMINKAN
_CHII_ACTION: Final = ActionType.CHII
_NORTH: Final = NORTH


def can_kan(game: Game) -> bool:
    """A kan needs a replacement tile and a tile left to draw; at most four per hand."""
    hand = game.round
    return len(hand.kan_seats) < 4 and hand.wall.remaining > 0 and hand.wall.rinshan_left > 0


class DiscardPreview:
    """What each discard of one hand leaves, with the guaranteed minimum of every wait.

    Nothing is computed until an option's tenpai is read, except ``ready`` when riichi
    needs it; read it while the inquiry is open (it looks at the game then)."""

    __slots__ = ("_ready", "counts", "game", "hand", "seat")

    def __init__(self, game: Game, seat: int, counts: tuple[int, ...]) -> None:
        self.game = game
        self.seat = seat
        self.hand = list(game.players[seat].hand)
        self.counts = counts
        self._ready: dict[int, list[int]] | None = None

    def ready(self) -> dict[int, list[int]]:
        """Discard kind -> the waits it leaves."""
        if self._ready is None:
            self._ready = tenpai_discards(self.counts)
        return self._ready

    def info(self, tile: int, riichi: bool = False, double: bool = False) -> tuple[TenpaiInfo, ...]:
        """The waits discarding ``tile`` leaves, each with its guaranteed minimum; ``riichi``:
        as the riichi declaration's discard, so the values count riichi (``double``: double
        riichi)."""
        waits = self.ready().get(tile >> 2)
        if not waits:
            return ()
        game = self.game
        p = game.players[self.seat]
        rest = list(self.hand)
        rest.remove(tile)
        melds = tuple(p.melds)
        ctx = game.context(self.seat, -1, False)
        if riichi:
            ctx = msgspec.structs.replace(ctx, riichi=True, double_riichi=double)
        out: list[TenpaiInfo] = []
        for k in waits:
            r = preview_value(rest, melds, k, ctx, game.rules)
            if r is None:
                out.append(TenpaiInfo(k, 0, 0, 0, 0))
            else:
                out.append(TenpaiInfo(k, r.han, r.fu, r.yakuman, r.ron))
        return tuple(out)


class RiichiPreview:
    """The values of riichi discards: the same preview, with riichi's han counted."""

    __slots__ = ("double", "preview")

    def __init__(self, preview: DiscardPreview, double: bool) -> None:
        self.preview = preview
        #: decided now: the values may be read after the turn (the first turn has passed)
        self.double = double

    def info(self, tile: int) -> tuple[TenpaiInfo, ...]:
        return self.preview.info(tile, riichi=True, double=self.double)

    def ready(self) -> dict[int, list[int]]:
        return self.preview.ready()


def discard_options(
    game: Game, p: Player, preview: DiscardPreview, riichi: bool = False
) -> DiscardOptions:
    """One option per distinct tile (kind, red) in hand, the drawn tile on its own, last.

    ``riichi`` keeps only the discards that leave tenpai. The options are built lazily
    (DiscardOptions): here only the tile ids are chosen."""
    drawn = p.drawn
    kuikae = p.kuikae
    ready = preview.ready() if riichi else None
    hand = sorted(p.hand)  # copies of a kind are adjacent, a red five is the lowest copy
    if drawn >= 0:
        hand.remove(drawn)
    step = game.rules.option_after
    tiles: list[int] = []
    after = 0  # the lowest id that is a new option: past this kind, or past a red copy
    for t in hand:
        if t >= after:
            tiles.append(t)
            after = step[t]
    if kuikae or ready is not None:  # after a call, or for riichi: fewer tiles may go
        tiles = [t for t in tiles if t >> 2 not in kuikae and (ready is None or t >> 2 in ready)]
    if drawn >= 0 and (ready is None or drawn >> 2 in ready):
        tiles.append(drawn)
    if riichi:
        double = p.first_turn and not game.round.any_call
        return DiscardOptions(tiles, RiichiPreview(preview, double))
    return DiscardOptions(tiles, preview)


def turn_inquiry(game: Game, seat: int, after_call: bool) -> MultiPlayerInquiry:
    """The choices of the seat whose turn it is: after a draw, or after a chii/pon."""
    inquiry = MultiPlayerInquiry(next(game.inquiry_ids), _TURN)
    single = inquiry.players[seat] = SinglePlayerInquiry(seat, False)
    p = game.players[seat]
    counts = tuple(p.counts)  # a tuple: the hand tables take it without another copy
    preview = DiscardPreview(game, seat, counts)
    if after_call:
        discards = discard_options(game, p, preview)
        single.add(Action(_DISCARD, discards))  # a time-out discards the last (``default``)
        return inquiry
    # the cheap test first: most turns can neither win nor abort
    if p.drawn >> 2 in p.tsumo_waits and _tsumo_has_yaku(game, p):
        single.add(Action(_TSUMO))
    if p.first_turn and _nine_kinds(game, counts):
        single.add(Action(_KYUUSHU))
    if p.riichi:
        discards = DiscardOptions([p.drawn], preview)
    else:
        rules = game.rules
        remaining = game.round.wall.remaining
        can_riichi = p.score >= rules.riichi_min_points and remaining >= rules.riichi_min_tiles
        if can_riichi and p.menzen():
            ready = p.discard_waits = preview.ready()  # the discard reuses them as its waits
            if ready:
                single.add(Action(_RIICHI, discard_options(game, p, preview, riichi=True)))
        discards = discard_options(game, p, preview)
    # a time-out is tsumogiri (``default``): the drawn tile is the last discard option
    single.add(Action(_DISCARD, discards))
    if game.rules.sanma and counts[_NORTH] and (kita := _kita_option(game, p)) is not None:
        single.add(Action(_KITA, [Option((kita,))]))
    ankan = _holds_four(counts)
    kakan = _may_kakan(p)
    if (ankan or kakan) and can_kan(game):  # the hand's own test first: it rarely holds
        if ankan:
            rule = game.rules.riichi_ankan
            kans = [o for o in ankan_options(p.hand) if not p.riichi or _riichi_ok(p, o, rule)]
            if kans:
                single.add(Action(_ANKAN, [Option(o) for o in kans]))
        if kakan and (added := kakan_options(p.hand, p.melds)):
            single.add(Action(_KAKAN, [Option(o) for o in added]))
    return inquiry


def _holds_four(counts: tuple[int, ...]) -> bool:
    """Some kind is held four times (an ankan may be offered): a compiled loop over machine
    ints, where ``4 in counts`` compares 34 boxed ints through CPython (5 % of a turn)."""
    for n in counts:  # noqa: SIM110 (a plain loop: a generator costs 3x here)
        if n == 4:
            return True
    return False


def _tsumo_has_yaku(game: Game, p: Player) -> bool:
    """The drawn tile, one of the hand's waits, wins it with a yaku (a tsumo is offered)."""
    ctx = game.context(p.seat, p.drawn, True, rinshan=p.rinshan, haitei=game.haitei(p.seat))
    return score_hand(p.hand, p.melds, ctx, game.rules) is not None


def _nine_kinds(game: Game, counts: tuple[int, ...]) -> bool:
    """Kyuushu kyuuhai on a seat's first turn: no call yet this hand, the rule on, and nine
    kinds of terminals and honours in hand."""
    if game.round.any_call or not game.rules.kyuushu_kyuuhai:
        return False
    return sum(1 for k in YAOCHUU if counts[k]) >= 9


def _kita_option(game: Game, p: Player) -> int | None:
    """The North a sanma player may set aside for its replacement draw: one in hand (after
    riichi only the one just drawn), while a replacement tile and a live draw are left."""
    if game.round.wall.remaining <= 0 or game.round.wall.rinshan_left <= 0:
        return None
    if p.riichi:
        return p.drawn if p.drawn >> 2 == NORTH else None
    return next(t for t in sorted(p.hand) if t >> 2 == NORTH)


def _may_kakan(p: Player) -> bool:
    """Whether the hand holds the fourth tile of one of its pons (skips the hand scan)."""
    if not p.melds or p.riichi:
        return False
    counts = p.counts
    for m in p.melds:  # noqa: SIM110 (a plain loop: a generator costs 3x here)
        if m.type == _PON and counts[m.tiles[0] >> 2]:
            return True
    return False


def _riichi_ok(p: Player, own: tuple[int, ...], rule: str) -> bool:
    """After riichi (``rules.riichi_ankan``): only the tile just drawn, waits unchanged, and
    ("readings", Tenhou) the kind a triplet in every reading of every winning hand."""
    k = own[0] >> 2
    if rule == "never" or p.drawn >> 2 != k:
        return False
    before = p.tsumo_waits
    rest = [t for t in p.hand if t >> 2 != k]
    counts = to_counts(rest)
    if hand_waits(counts) != before:
        return False
    if rule == "waits":
        return True
    full = to_counts([t for t in p.hand if t != p.drawn])
    for w in before:
        full[w] += 1
        readings = decompose(full)
        full[w] -= 1
        if not readings or any(k not in d.koutsu for d in readings):
            return False
    return True


def claim_inquiry(game: Game, discarder: int, tile: int) -> MultiPlayerInquiry | None:
    """Who may ron, pon, kan or chii the discard ``tile``; None when nobody may.

    Most discards offer nothing, so the inquiry is only built when some seat has a claim;
    its id is taken either way, so ids keep counting every claim moment."""
    inquiry_id = next(game.inquiry_ids)
    offers: list[tuple[int, Action]] = []
    k = tile >> 2
    last = game.round.wall.remaining == 0
    rules = game.rules
    # chii by the next seat only, never in sanma, and only on a suited tile
    others = game.others[discarder]
    chii_by = others[0] if game.n == 4 and k < 27 else None
    for p in others:
        if k in p.waits() and not p.furiten():
            ctx = game.context(p.seat, tile, False, houtei=last)
            if score_hand([*p.hand, tile], p.melds, ctx, rules) is not None:
                offers.append((p.seat, Action(_RON_ACTION)))
        if last or p.riichi:
            continue
        counts = p.counts
        if (copies := counts[k]) >= 2:  # a pair of it at least: pon, with three daiminkan
            _pon_or_kan(game, p, tile, copies, offers)
        if (
            p is chii_by
            and _may_chii(counts, k)
            and (chiis := chii_options(p.hand, tile, rules.red))
        ):
            offers.append((p.seat, Action(_CHII_ACTION, [Option(o) for o in chiis])))
    if not offers:
        return None
    inquiry = MultiPlayerInquiry(inquiry_id, _CLAIM)
    for seat, action in offers:
        inquiry.add(seat, action)
    return inquiry


def _pon_or_kan(
    game: Game, p: Player, tile: int, copies: int, offers: list[tuple[int, Action]]
) -> None:
    """The pon (and with three ``copies`` the daiminkan) ``p`` may make of ``tile``."""
    if pons := pon_options(p.hand, tile, game.rules.red):
        offers.append((p.seat, Action(_PON_ACTION, [Option(o) for o in pons])))
    if copies == 3 and can_kan(game) and (own := daiminkan_option(p.hand, tile)):
        offers.append((p.seat, Action(_DAIMINKAN_ACTION, [Option(own)])))


def _may_chii(counts: list[int], k: int) -> bool:
    """Whether the hand holds both other kinds of some run through suited ``k`` (a cheap
    filter)."""
    n = k % 9
    return bool(
        (n >= 2 and counts[k - 2] and counts[k - 1])
        or (1 <= n <= 7 and counts[k - 1] and counts[k + 1])
        or (n <= 6 and counts[k + 1] and counts[k + 2])
    )


def chankan_inquiry(game: Game, seat: int, tile: int, ankan: bool) -> MultiPlayerInquiry:
    """Robbing a kakan (anyone waiting on it) or an ankan (kokushi only)."""
    inquiry = game.new_inquiry(InquiryKind.CHANKAN)
    for p in _waiting_on(game, seat, tile):
        robber = p.seat
        hand = [*p.hand, tile]
        if ankan and not (game.rules.kokushi_chankan_ankan and is_kokushi(to_counts(hand))):
            continue
        ctx = game.context(robber, tile, False, chankan=True)
        if score_hand(hand, p.melds, ctx, game.rules) is not None:
            inquiry.add(robber, Action(ActionType.RON))
    return inquiry


def _waiting_on(game: Game, seat: int, tile: int) -> list[Player]:
    """The other seats, in turn order after ``seat``, that wait on ``tile`` and are not
    furiten: who may rob a kan or a kita of it."""
    k = tile >> 2
    return [p for p in game.others[seat] if k in p.waits() and not p.furiten()]


def declaration_inquiry(game: Game) -> MultiPlayerInquiry | None:
    """At an exhaustive draw (``tenpai_declaration``): each tenpai seat not in riichi
    declares tenpai (the default: a time-out shows the hand) or noten; None when nobody may
    choose. A riichi seat is tenpai without being asked (M-League: it must declare tenpai)."""
    seats = [p.seat for p in game.players if p.waits() and not p.riichi]
    if not seats:
        return None
    inquiry = game.new_inquiry(InquiryKind.DECLARATION)
    for seat in seats:
        single = inquiry.player(seat, skip=False)
        single.add(Action(ActionType.TENPAI))
        single.add(Action(ActionType.NOTENPAI))
        single.default_choice = (0, 0)
    return inquiry


def next_round_inquiry(game: Game) -> MultiPlayerInquiry:
    """Every seat acknowledges the hand's result before the next one is dealt."""
    inquiry = game.new_inquiry(InquiryKind.NEXT_ROUND)
    for seat in range(game.n):
        inquiry.player(seat, skip=False).add(Action(ActionType.NEXT_ROUND))
    return inquiry


def kita_inquiry(game: Game, seat: int, tile: int) -> MultiPlayerInquiry:
    """Ron on a North set aside by kita (Tenhou: a plain ron, no chankan yaku)."""
    inquiry = game.new_inquiry(InquiryKind.KITA)
    for p in _waiting_on(game, seat, tile):
        ctx = game.context(p.seat, tile, False)
        if score_hand([*p.hand, tile], p.melds, ctx, game.rules) is not None:
            inquiry.add(p.seat, Action(ActionType.RON))
    return inquiry
