"""Compare how the engine ended a round with how the log says it ended."""

from __future__ import annotations

from engine.game.events import Win
from engine.game.results import RoundResult
from engine.replay.record import LoggedWin, RoundEnd
from engine.replay.tenhou_result import YAKUMAN_HAN
from engine.rules.kinds import HandEnd
from engine.rules.tiles import to_str

#: the engine's ending kinds under the record's names
KINDS = {HandEnd.EXHAUSTIVE: "ryuukyoku", HandEnd.NAGASHI: "nagashi_mangan"}


def compare_end(want: RoundEnd, got: RoundResult, dora: tuple[int, ...]) -> str | None:
    """None when the round ended the same way, else the first difference. What the log
    does not state (mjai: han, fu, yaku; sometimes deltas) is not compared."""
    kind = KINDS.get(got.kind, got.kind)
    if kind != want.kind:
        return f"ended {kind}, log {want.kind}"
    if want.deltas and tuple(got.deltas) != tuple(want.deltas):
        return f"deltas {list(got.deltas)}, log {list(want.deltas)}"
    if want.kind == "ryuukyoku" and want.tenpai is not None and want.tenpai != got.tenpai:
        return f"tenpai seats {list(got.tenpai)}, log {list(want.tenpai)}"
    if [t >> 2 for t in got.dora_indicators] != [t >> 2 for t in dora]:
        return f"dora indicators {to_str(got.dora_indicators)}, log {to_str(dora)}"
    if len(got.wins) != len(want.wins):
        return f"{len(got.wins)} winners, log {len(want.wins)}"
    for w, g in zip(want.wins, got.wins, strict=True):
        reason = _compare_win(w, g)
        if reason:
            return f"seat {w.who} win: {reason}"
    return None


def _compare_win(want: LoggedWin, got: Win) -> str | None:
    r = got.result
    if (got.seat, got.from_seat) != (want.who, want.from_seat):
        return f"winner {got.seat} from {got.from_seat}, log {want.who} from {want.from_seat}"
    if want.pao is not None and got.pao_seat != want.pao:
        return f"pao {got.pao_seat}, log {want.pao}"
    if want.yaku is not None:  # a yakuman counts 13 (Mahjong Soul's exports write every
        # yakuman "(役満)", a double one too): the points tell a double yakuman
        mine = sorted((y.tenhou, min(y.han, YAKUMAN_HAN)) for y in r.yaku if y.han > 0)
        theirs = sorted((n, min(h, YAKUMAN_HAN)) for n, h in want.yaku if h > 0)
        if mine != theirs:
            return f"yaku {_yaku(mine)}, log {_yaku(theirs)}"
    if want.han is not None and r.han != want.han and not r.yakuman:
        return f"{r.han} han, log {want.han}"
    if want.fu is not None and r.fu != want.fu:
        return f"{r.fu} fu, log {want.fu}"
    if want.limit is not None and r.limit != want.limit:
        return f"limit {r.limit or 'none'}, log {want.limit or 'none'}"
    if want.points is not None:
        if not want.tsumo:
            points: tuple[int, ...] = (r.ron,)
        elif r.tsumo_dealer:
            points = (r.tsumo_other, r.tsumo_dealer)
        else:
            points = (r.tsumo_other,)
        if points != want.points:
            return f"points {points}, log {want.points}"
    return None


def _yaku(items: list[tuple[str, int]]) -> str:
    return " ".join(f"{n}({h})" for n, h in items)
