"""Who pays whom: wins (honba, sticks, double ron, pao) and drawn hands (tenpai, nagashi).

Checked against Tenhou records: on a double ron the honba and the riichi sticks go only to
the first winner in turn order after the discarder (atamahane for the bonuses)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.game.events import Win

if TYPE_CHECKING:
    from engine.game.game import Game

#: yakuman whose last call makes its feeder responsible (pao, sekinin-barai)
PAO_YAKU = ("daisangen", "daisuushii")


def _pao_multiple(win: Win) -> int:
    return sum(y.han // 13 for y in win.result.yaku if y.name in PAO_YAKU)


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


def _pao(game: Game, win: Win) -> tuple[int, int]:
    """(responsible seat, full value of the pao yakuman) or (-1, 0)."""
    if not game.rules.pao or win.pao_seat < 0:
        return -1, 0
    multiple = _pao_multiple(win)
    if not multiple:
        return -1, 0
    per = 48000 if win.seat == game.dealer else 32000
    return win.pao_seat, per * multiple


def _tsumo(game: Game, win: Win, honba: int, deltas: list[int]) -> None:
    r = win.result
    winner = win.seat
    dealer_win = winner == game.dealer
    pao, pao_value = _pao(game, win)
    share = 1.0
    if pao >= 0:
        deltas[pao] -= pao_value + honba
        deltas[winner] += pao_value + honba
        rest = r.yakuman - _pao_multiple(win)
        if rest <= 0:
            return
        share = rest / r.yakuman
        honba = 0
    others = [s for s in range(game.n) if s != winner]
    per_honba = honba // len(others) if others else 0
    for s in others:
        pay = r.tsumo_other if dealer_win or s != game.dealer else r.tsumo_dealer
        pay = int(pay * share) + per_honba
        deltas[s] -= pay
        deltas[winner] += pay


def _ron(game: Game, win: Win, honba: int, deltas: list[int]) -> None:
    pay = win.result.ron
    pao, pao_value = _pao(game, win)
    if pao >= 0 and pao != win.from_seat:
        half = pao_value // 2
        deltas[pao] -= half
        deltas[win.seat] += half
        pay -= half
    deltas[win.from_seat] -= pay + honba
    deltas[win.seat] += pay + honba


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
