"""Read tenhou.net/6 JSON (the layout of ../shared/data/tenhou/FORMAT.md) into records.

The per-seat take/discard lists do not give the order between seats; it is rebuilt here:
after a discard, a seat whose next take is a call on that very tile (source seat and code
match) takes it, else the next seat draws. A kan or kita keeps the turn for its
replacement draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.replay import mahjongsoul
from engine.replay.flow import TileFlow
from engine.replay.record import (
    CALLS,
    GameRecord,
    ReplayError,
    RoundRecord,
    Step,
    StepKind,
    engine_kyoku,
)
from engine.replay.tenhou_calls import Call, parse_call
from engine.replay.tenhou_result import parse_result
from engine.rules.config import (
    TENHOU_HANCHAN,
    TENHOU_SANMA_HANCHAN,
    TENHOU_SANMA_TONPUU,
    TENHOU_TONPUU,
    RuleConfig,
)
from engine.rules.scoring.points import placement_points, placement_ranks
from engine.rules.tiles import tenhou_kind

TSUMOGIRI = 60


def rules_of(game: dict[str, Any]) -> RuleConfig:
    """The rule a log was played under: 3 or 4 players, tonpuu or hanchan, red fives, kuitan."""
    rule = game.get("rule") or {}
    disp: str = rule.get("disp", "")
    sanma = disp.startswith("三") or game.get("ratingc") == "PF3"
    tonpuu = "東" in disp
    if sanma:
        base = TENHOU_SANMA_TONPUU if tonpuu else TENHOU_SANMA_HANCHAN
    else:
        base = TENHOU_TONPUU if tonpuu else TENHOU_HANCHAN
    if "aka" in rule:
        flags = (int(rule["aka"]),) * 3
    elif "aka51" in rule:
        flags = (int(rule["aka51"]), int(rule["aka52"]), int(rule["aka53"]))
    else:
        flags = (1, 1, 1) if "赤" in disp else (0, 0, 0)
    aka = (0 if sanma else min(flags[0], 1), min(flags[1], 1), min(flags[2], 1))
    kuitan = "喰" in disp or not disp
    rules = msgspec.structs.replace(base, aka=aka, kuitan=kuitan)
    if not _tenpaiyame(game, rules):
        rules = msgspec.structs.replace(rules, tenpaiyame=False)
    return _result_rules(rules, game.get("sc") or (), _private(game))


#: Tenhou ends a match on the top last dealer's tenpai draw since June 2010: logs of
#: 2010-06-01 play on, logs from 2010-06-08 stop
TENPAIYAME_SINCE = "20100603"


def _tenpaiyame(game: dict[str, Any], rules: RuleConfig) -> bool:
    """Whether the log's table had tenpai-yame: by its date, or for an undated log, unless
    it plays on after a tenpai draw that tenpai-yame would have ended the match with."""
    ref = str(game.get("ref", ""))
    if ref[:8].isdigit():
        return ref[:8] >= TENPAIYAME_SINCE
    logs = game.get("log") or []
    last = rules.winds * rules.players - 1
    for raw in logs[:-1]:
        kyoku = engine_kyoku(raw[0][0], rules.players)
        result = raw[16]
        if kyoku < last or result[0] != "流局" or len(result) < 2:
            continue
        dealer = kyoku % rules.players
        after = [a + d for a, d in zip(raw[1], result[1], strict=False)][: rules.players]
        top = min(range(rules.players), key=lambda s: (-after[s], s))
        if result[1][dealer] > 0 and top == dealer and after[dealer] >= rules.target_points:
            return False
    return True


def _private(game: dict[str, Any]) -> bool:
    """A private lobby (its own uma): the lobby field or the ref's lobby part."""
    ref = str(game.get("ref", "")).split("-")
    return bool(game.get("lobby")) or (len(ref) > 2 and ref[2].strip("0") != "")


#: the uma of Tenhou's tonpuu tables in some 2009 logs (20/10 later)
OLD_TONPUU_UMA = (10, 5, -5, -10)


def _result_rules(rules: RuleConfig, sc: Sequence[float], private: bool) -> RuleConfig:
    """How the log's table turned final scores into results, which the JSON does not state:
    a result with tenths means no rounding (Tenhou since 2022); a 4-player tonpuu log whose
    results only fit the 10/5 uma (July 2009 and two undated logs) had that uma; a private
    lobby sets its own uma, read back from its results."""
    if not sc:
        return rules
    n = rules.players
    scores = tuple(int(x) for x in sc[0 : 2 * n : 2])
    results = [float(x) for x in sc[1 : 2 * n : 2]]
    if any(abs(x - round(x)) > 1e-9 for x in results):
        rules = msgspec.structs.replace(rules, round_points=False)
    if private:
        return msgspec.structs.replace(rules, uma=_lobby_uma(scores, results, rules))
    if n == 4 and rules.winds == 1 and not _fits(scores, results, rules):
        old = msgspec.structs.replace(rules, uma=OLD_TONPUU_UMA)
        if _fits(scores, results, old):
            return old
    return rules


def _lobby_uma(scores: tuple[int, ...], results: list[float], rules: RuleConfig) -> tuple[int, ...]:
    """The uma by rank that turns these scores into these results."""
    plain = msgspec.structs.replace(rules, uma=(0,) * len(scores))
    base = placement_points(scores, plain)
    ranks = placement_ranks(scores)
    uma = [0] * len(scores)
    for seat, rank in enumerate(ranks):
        uma[rank - 1] = round(results[seat] - base[seat])
    return tuple(uma)


def _fits(scores: tuple[int, ...], results: list[float], rules: RuleConfig) -> bool:
    points = placement_points(scores, rules)
    return all(abs(a - b) < 0.05 for a, b in zip(points, results, strict=True))


def read_game(game: dict[str, Any]) -> GameRecord:
    if mahjongsoul.is_mahjongsoul(game):
        return read_mahjongsoul(game)
    rules = rules_of(game)
    rounds = tuple(read_round(raw, rules) for raw in game["log"])
    return GameRecord(
        rules=rules,
        rounds=rounds,
        ref=str(game.get("ref", "")),
        names=tuple(game.get("name", ())),
        final=tuple(game.get("sc", ())),
        seed=_seed(game.get("seed")),
        commitment=str(game.get("commitment") or ""),
        salt=str(game.get("salt") or ""),
        practice=game.get("practice") is True,
        draw=_draw(game.get("draw")),
    )


def read_mahjongsoul(game: dict[str, Any]) -> GameRecord:
    """A Mahjong Soul export, under Mahjong Soul's rules, its yaku under Tenhou's names,
    and each round's deltas checked against the scores the next round starts with."""
    logs = game["log"]
    players = 3 if game.get("ratingc") == "PF3" or (logs and not logs[0][13]) else 4
    rules, notes = mahjongsoul.rules_of(game, players)
    final = tuple(game.get("sc") or ())
    results = [float(x) for x in final[1 : 2 * players : 2]]
    if notes and final:  # a host's table: its uma only the results tell
        scores = tuple(int(x) for x in final[0 : 2 * players : 2])
        rules = msgspec.structs.replace(rules, uma=_lobby_uma(scores, results, rules))
    rounds = [_soul_round(read_round(raw, rules), players) for raw in logs]
    rounds = [_carried(r, n, players) for r, n in zip(rounds, [*rounds[1:], None], strict=True)]
    return GameRecord(
        rules=rules,
        rounds=tuple(rounds),
        ref=str(game.get("ref", "")),
        names=tuple(game.get("name", ())),
        final=final,
        source="mahjongsoul",
        notes=notes,
        truncated=bool(results) and all(x == int(x) for x in results),
    )


def _soul_round(rec: RoundRecord, players: int) -> RoundRecord:
    """The round's wins with their yaku under Tenhou's names (seat and round wind known)."""
    wins = []
    for w in rec.end.wins:
        seat_wind = (w.who - rec.dealer) % players
        yaku = mahjongsoul.tenhou_yaku(w.yaku or (), seat_wind, rec.kyoku // 4 % 4)
        wins.append(msgspec.structs.replace(w, yaku=yaku))
    notes = rec.notes
    if rec.end.kind == "ryuukyoku" and rec.end.tenpai is None:
        notes = (*notes, "an exhaustive draw without payments: all tenpai or all noten, unsaid")
    end = msgspec.structs.replace(rec.end, wins=tuple(wins))
    return msgspec.structs.replace(rec, end=end, notes=notes)


def _carried(rec: RoundRecord, following: RoundRecord | None, players: int) -> RoundRecord:
    """Converters compute a round's deltas themselves (and have counted the stick of a
    riichi whose declaring tile was ronned); the scores the next round starts with are the
    game's own. Where they disagree, the round is checked against those scores."""
    if following is None or not rec.end.deltas:
        return rec
    sticks = [0] * players
    last = len(rec.steps) - 1
    for i, step in enumerate(rec.steps):
        if step.kind == StepKind.DISCARD and step.riichi:
            ronned = i == last and any(not w.tsumo for w in rec.end.wins)
            sticks[step.seat] += (
                0 if ronned or (i == last and rec.end.kind == "sanchahou") else 1000
            )
    carried = tuple(following.scores[s] - rec.scores[s] + sticks[s] for s in range(players))
    if carried == tuple(rec.end.deltas):
        return rec
    logged = list(rec.end.deltas)
    note = f"deltas {list(carried)} from the next round's scores, not the log's {logged}"
    end = msgspec.structs.replace(rec.end, deltas=carried)
    return msgspec.structs.replace(rec, end=end, notes=(*rec.notes, note))


def _seed(value: Any) -> int | None:
    """Our exports' shuffle seed (an int), None when the log has none."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayError(f"seed must be an integer, not {value!r}")
    return value


def _draw(value: Any) -> tuple[int, ...] | None:
    """Our exports' seat draw (engine.rules.bagime), None when the log has none."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ReplayError(f"draw must be a list of seats, not {value!r}")
    return tuple(value)


def read_round(raw: Sequence[Any], rules: RuleConfig) -> RoundRecord:
    players = rules.players
    kyoku, honba, kyotaku = raw[0]
    flow = TileFlow(rules.red, players)
    haipai = tuple(
        tuple(flow.draw(s, *tenhou_kind(c)) for c in raw[4 + 3 * s]) for s in range(players)
    )
    dora = tuple(flow.new(*tenhou_kind(c)) for c in raw[2])
    ura = tuple(flow.new(*tenhou_kind(c)) for c in raw[3])
    takes = [list(raw[5 + 3 * s]) for s in range(players)]
    discards = [list(raw[6 + 3 * s]) for s in range(players)]
    steps = _Order(flow, takes, discards, players).run(kyoku % 4)
    return RoundRecord(
        kyoku=kyoku,
        honba=honba,
        kyotaku=kyotaku,
        scores=tuple(raw[1][:players]),
        haipai=haipai,
        steps=tuple(steps),
        dora=dora,
        ura=ura,
        end=parse_result(raw[16], players),
    )


class _Order:
    """Walks the per-seat lists in play order, turning each entry into a Step."""

    def __init__(
        self, flow: TileFlow, takes: list[list[Any]], discards: list[list[Any]], players: int
    ) -> None:
        self.flow = flow
        self.takes = takes
        self.discards = discards
        self.players = players
        self.cursor = [0] * players
        self.steps: list[Step] = []
        self.pons: list[dict[int, Step]] = [{} for _ in range(players)]

    def run(self, dealer: int) -> list[Step]:
        self._play(dealer, False)
        return self.steps

    def _play(self, seat: int, rinshan: bool) -> None:
        """Play on from ``seat``'s take. Where a seat could call the discard, try the call
        first and, when the rest of the log then fails to fit, the pass (a seat may pass a
        tile and call a later copy of it)."""
        while True:
            i = self.cursor[seat]
            if i >= len(self.takes[seat]):
                break
            take = self.takes[seat][i]
            drawn = self._take(seat, take, rinshan)
            called = isinstance(take, str)
            self.cursor[seat] += 1
            if i < len(self.discards[seat]):
                act = self.discards[seat][i]
            elif called and parse_call(take).kind == StepKind.DAIMINKAN:
                act = 0  # trailing 0 dropped: the rinshan draw ends the round
            else:
                break  # tsumo or kyuushu: the round ends on this seat's turn
            rinshan = act == 0 or (isinstance(act, str) and not act.startswith("r"))
            if act == 0:
                continue
            if rinshan:
                self._self_call(seat, parse_call(act))
                continue
            tile = self._discard(seat, act, drawn)
            nexts = self._next_seats(seat, tile)
            for other in nexts[:-1]:
                saved = self._save()
                try:
                    self._play(other, False)
                    return
                except ReplayError:
                    self._restore(saved)
            seat = nexts[-1]
        self._check_consumed()

    def _save(self) -> tuple[Any, ...]:
        flow = self.flow
        return (
            {k: list(v) for k, v in flow.free.items()},
            [list(h) for h in flow.hands],
            list(self.cursor),
            len(self.steps),
            [dict(p) for p in self.pons],
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        self.flow.free, self.flow.hands, self.cursor, n, self.pons = saved
        del self.steps[n:]

    def _take(self, seat: int, take: Any, rinshan: bool) -> int:
        """A draw (returns its id) or a call on the last discard (returns -1)."""
        if isinstance(take, int):
            tile = self.flow.draw(seat, *tenhou_kind(take))
            self.steps.append(Step(seat, StepKind.DRAW, tile, rinshan=rinshan))
            return tile
        call = parse_call(take)
        last = self.steps[-1] if self.steps else None
        if (
            last is None
            or last.kind != StepKind.DISCARD
            or not self._calls(take, last.seat, seat, last.tile)
        ):
            raise ReplayError(f"seat {seat}: call {take!r} does not take the last discard")
        own = tuple(self.flow.take(seat, *tenhou_kind(c)) for c in call.own)
        step = Step(seat, call.kind, last.tile, own, from_seat=last.seat)
        self.steps.append(step)
        if call.kind == StepKind.PON:
            self.pons[seat][last.tile >> 2] = step
        return -1

    def _self_call(self, seat: int, call: Call) -> None:
        """Kakan, ankan or kita from the hand; the replacement draw follows."""
        if call.kind == StepKind.ANKAN:
            codes = [*call.own, call.tile]
            own = tuple(self.flow.take(seat, *tenhou_kind(c)) for c in codes)
            self.steps.append(Step(seat, StepKind.ANKAN, own[-1], own))
            return
        if call.kind not in (StepKind.KAKAN, StepKind.KITA):
            raise ReplayError(f"seat {seat}: {call.kind.name} where a discard was expected")
        tile = self.flow.take(seat, *tenhou_kind(call.tile))
        pon = self.pons[seat].get(tile >> 2) if call.kind == StepKind.KAKAN else None
        if call.kind == StepKind.KAKAN and pon is None:
            raise ReplayError(f"seat {seat}: kakan without a pon")
        own = (*pon.own, pon.tile) if pon is not None else ()
        self.steps.append(Step(seat, call.kind, tile, own))

    def _discard(self, seat: int, act: Any, drawn: int) -> int:
        """Record a discard; returns the tile."""
        riichi = isinstance(act, str)
        code = int(act[1:]) if riichi else int(act)
        if code == TSUMOGIRI:
            if drawn < 0:
                raise ReplayError(f"seat {seat}: tsumogiri right after a call")
            tile = self.flow.take_id(seat, drawn)
        else:
            tile = self.flow.take(seat, *tenhou_kind(code), avoid=drawn)
        gone = code == TSUMOGIRI
        self.steps.append(Step(seat, StepKind.DISCARD, tile, riichi=riichi, tsumogiri=gone))
        return tile

    def _next_seats(self, seat: int, tile: int) -> list[int]:
        """Who may take the turn after ``tile``: seats whose next take calls it (pon and kan
        before chii), and last the next seat's draw."""
        callers: list[int] = []
        for offset in range(1, self.players):
            other = (seat + offset) % self.players
            i = self.cursor[other]
            take = self.takes[other][i] if i < len(self.takes[other]) else None
            if isinstance(take, str) and self._calls(take, seat, other, tile):
                callers.insert(0 if parse_call(take).kind != StepKind.CHII else len(callers), other)
        return [*callers, (seat + 1) % self.players]

    def _calls(self, take: str, discarder: int, caller: int, tile: int) -> bool:
        """Whether call string ``take`` of ``caller`` takes ``tile`` from ``discarder``."""
        call = parse_call(take)
        if call.kind not in CALLS:
            return False
        source = (caller + call.offset) % 4
        return source == discarder and tenhou_kind(call.tile) == (tile >> 2, tile in self.flow.red)

    def _check_consumed(self) -> None:
        for s in range(self.players):
            left_t = len(self.takes[s]) - self.cursor[s]
            left_d = len(self.discards[s]) - self.cursor[s]
            if left_t > 0 or left_d > 0:
                raise ReplayError(
                    f"seat {s}: {left_t} takes and {left_d} discards never reached in play order"
                )
