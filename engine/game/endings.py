"""How a hand ends: a win (tsumo, ron, double ron, chankan) or a drawn hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import ActionType, MultiPlayerInquiry
from engine.game.events import Agari, EndRound, Ryuukyoku, Win
from engine.game.payments import agari_deltas, nagashi_deltas, tenpai_deltas
from engine.game.results import RoundResult
from engine.rules.kinds import HandEnd
from engine.rules.scoring import score_hand
from engine.rules.tiles import YAOCHUU

if TYPE_CHECKING:
    from engine.game.game import Game


def _apply(game: Game, deltas: list[int]) -> None:
    for p, d in zip(game.players, deltas, strict=True):
        p.score += d


def score_agari(ev: Agari) -> None:
    """Score every winner, pay, and book the hand."""
    game: Game = ev.game
    remaining = game.round.wall.remaining
    wins: list[Win] = []
    for seat in ev.winners:
        p = game.players[seat]
        tsumo = seat == ev.from_seat
        hand = list(p.hand) if tsumo else [*p.hand, ev.tile]
        ctx = game.context(
            seat,
            ev.tile,
            tsumo,
            rinshan=tsumo and p.rinshan,
            haitei=tsumo and game.haitei(seat),
            houtei=not tsumo and not ev.chankan and remaining == 0,
            chankan=ev.chankan,
        )
        result = score_hand(hand, p.melds, ctx, game.rules)
        if result is None:
            raise AssertionError(f"seat {seat} was offered a win that does not score")
        pao = -1
        if game.rules.pao and p.pao_yaku and any(y.name == p.pao_yaku for y in result.yaku):
            pao = p.pao_seat
        wins.append(
            Win(
                seat=seat,
                from_seat=ev.from_seat,
                tile=ev.tile,
                hand=tuple(sorted(hand)),
                melds=tuple(p.melds),
                result=result,
                pao_seat=pao,
            )
        )
    deltas = agari_deltas(game, wins)
    _apply(game, deltas)
    riichi = any(game.players[s].riichi for s in ev.winners)
    ura = tuple(game.round.wall.ura[: len(game.round.dora_indicators)]) if riichi else ()
    ev.wins, ev.deltas, ev.scores, ev.ura_indicators = tuple(wins), tuple(deltas), game.scores, ura
    game.round.renchan = game.dealer in ev.winners
    game.round.end = HandEnd.AGARI
    _book(game, HandEnd.AGARI, deltas, tuple(wins), (), ura)
    game.kyotaku = 0


def settle_ryuukyoku(ev: Ryuukyoku) -> None:
    """Exhaustive draw (tenpai payments or nagashi mangan) or an abortive draw."""
    game: Game = ev.game
    n = game.n
    deltas = [0] * n
    hands: list[tuple[int, ...] | None] = [None] * n
    if ev.kind == HandEnd.EXHAUSTIVE:
        tenpai = tuple(p.seat for p in game.players if p.waits() and not p.noten_declared)
        nagashi = tuple(
            p.seat
            for p in game.players
            if game.rules.nagashi_mangan
            and p.river
            and not p.discards_called
            and all(t >> 2 in YAOCHUU for t in p.river)
        )
        if nagashi:
            deltas = nagashi_deltas(game, nagashi)
            ev.kind = HandEnd.NAGASHI
        else:
            deltas = tenpai_deltas(game, tenpai)
        for s in tenpai:
            hands[s] = tuple(sorted(game.players[s].hand))
        ev.tenpai, ev.nagashi = tenpai, nagashi
        game.round.renchan = game.dealer in tenpai
    else:
        if ev.kind == HandEnd.KYUUSHU and ev.seat >= 0:
            hands[ev.seat] = tuple(sorted(game.players[ev.seat].hand))
        game.round.renchan = True
    _apply(game, deltas)
    ev.hands, ev.deltas, ev.scores = tuple(hands), tuple(deltas), game.scores
    game.round.end = ev.kind
    _book(game, ev.kind, deltas, (), ev.tenpai, ())


def resolve_declaration(game: Game, inquiry: MultiPlayerInquiry) -> None:
    """The tenpai declarations are in: a seat declaring noten is noten for the payments and
    the renchan, and keeps its hand hidden."""
    for seat, single in inquiry.players.items():
        chosen = single.chosen
        if chosen is not None and chosen[0].type == ActionType.NOTENPAI:
            game.players[seat].noten_declared = True
    game.queue.queue(Ryuukyoku(kind=HandEnd.EXHAUSTIVE))


def _book(
    game: Game,
    kind: HandEnd,
    deltas: list[int],
    wins: tuple[Win, ...],
    tenpai: tuple[int, ...],
    ura: tuple[int, ...],
) -> None:
    game.rounds.append(
        RoundResult(
            round_index=game.round_index,
            kyoku=game.kyoku,
            honba=game.honba,
            kyotaku=game.round.kyotaku,
            scores=game.round.scores,
            kind=kind,
            deltas=tuple(deltas),
            wins=wins,
            tenpai=tenpai,
            dora_indicators=tuple(game.round.dora_indicators),
            ura_indicators=ura,
        )
    )


def end_hand(ev: Agari | Ryuukyoku) -> None:
    ev.game.queue.queue(EndRound())
