"""Who pays whom: wins (honba, sticks, double ron, pao) and drawn hands (tenpai, nagashi).

Checked against Tenhou records: on a double ron the honba and the riichi sticks go only to
the first winner in turn order after the discarder (atamahane for the bonuses)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.game.events import Win

if TYPE_CHECKING:
    from engine.game.game import Game


def agari_deltas(game: Game, wins: Sequence[Win]) -> list[int]:
    """Point changes of a win; ``wins`` in turn order from the discarder."""
    n = game.n
    deltas = [0] * n
    honba = game.honba * game.rules.honba_value
    for i, win in enumerate(wins):
        bonus = honba if i == 0 else 0
        if win.seat == win.from_seat:
            _tsumo(game, win, bonus, deltas)
        else:
            _ron(game, win, bonus, deltas)
    deltas[wins[0].seat] += game.kyotaku * 1000
    return deltas


def pao_seat(game: Game, win: Win) -> int:
    """The liable seat, or -1. Tenhou records (2010060416gm-0061, 2019103023gm-00a9): on a
    tsumo the liable seat pays the whole hand and the honba, composite yakuman included; on
    a ron it pays half and the honba, the discarder the other half."""
    if not game.rules.pao or win.pao_seat < 0:
        return -1
    if not any(y.name in game.rules.pao_yaku for y in win.result.yaku):
        return -1
    return win.pao_seat


def _pay(deltas: list[int], payer: int, payee: int, amount: int) -> None:
    deltas[payer] -= amount
    deltas[payee] += amount


def liable_share(game: Game, win: Win) -> tuple[int, int]:
    """(liable yakuman, all yakuman) of a pao win: the part of the hand the liable seat
    answers for. Tenhou (pao_scope "hand"): the whole hand; Mahjong Soul ("yakuman"): only
    the yakuman its feeding completed."""
    total = max(win.result.yakuman, 1)
    if game.rules.pao_scope != "yakuman":
        return total, total
    pao = sum(y.han // 13 for y in win.result.yaku if y.name in game.rules.pao_yaku)
    return min(pao, total), total


def _tsumo(game: Game, win: Win, honba: int, deltas: list[int]) -> None:
    r = win.result
    winner = win.seat
    dealer_win = winner == game.dealer
    others = [s for s in range(game.n) if s != winner]
    shares = [r.tsumo_other if dealer_win or s != game.dealer else r.tsumo_dealer for s in others]
    liable = pao_seat(game, win)
    if liable >= 0:
        part, total = liable_share(game, win)
        _pay(deltas, liable, winner, sum(shares) * part // total + honba)
        if part == total:
            return
        shares = [share * (total - part) // total for share in shares]
        honba = 0
    for s, share in zip(others, shares, strict=True):
        _pay(deltas, s, winner, share + honba // len(others))


def _ron(game: Game, win: Win, honba: int, deltas: list[int]) -> None:
    pay = win.result.ron
    liable = pao_seat(game, win)
    if liable >= 0 and liable != win.from_seat:
        part, total = liable_share(game, win)
        half = pay * part // total // 2
        _pay(deltas, liable, win.seat, half + honba)
        _pay(deltas, win.from_seat, win.seat, pay - half)
        return
    _pay(deltas, win.from_seat, win.seat, pay + honba)


def tenpai_deltas(game: Game, tenpai: Sequence[int]) -> list[int]:
    """The exhaustive-draw payment: rules.tenpai_payment split between the two sides."""
    n = game.n
    deltas = [0] * n
    if 0 < len(tenpai) < n:
        total = game.rules.tenpai_payment
        gain = total // len(tenpai)
        loss = total // (n - len(tenpai))
        for s in range(n):
            deltas[s] = gain if s in tenpai else -loss
    return deltas


def nagashi_deltas(game: Game, seats: Sequence[int]) -> list[int]:
    """Each nagashi mangan is paid like a mangan tsumo, without honba."""
    n = game.n
    deltas = [0] * n
    for seat in seats:
        for s in range(n):
            if s == seat:
                continue
            pay = 4000 if seat == game.dealer or s == game.dealer else 2000
            deltas[s] -= pay
            deltas[seat] += pay
    return deltas
