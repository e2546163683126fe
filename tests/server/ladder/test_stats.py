"""Stats from games the engine's bots play in process, checked against a recount written here
from the game's tenhou.net/6 export (a different reading of the same game: the JSON the
Tenhou viewer loads, parsed by its layout and score texts, not by the record's types)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine.bot import make
from engine.centers import BotCenter
from engine.driver import run_sync
from engine.game.setup import new_game
from engine.replay.export import record_game
from engine.replay.record import GameRecord
from engine.replay.tenhou_write import write_game
from engine.rules.config import (
    TENHOU_HANCHAN,
    TENHOU_SANMA_HANCHAN,
    TENHOU_TONPUU,
    RuleConfig,
)
from server.ladder.stats import SeatStats, game_stats

GAMES = [(TENHOU_HANCHAN, s) for s in (1, 2, 3)] + [
    (TENHOU_TONPUU, 4),
    (TENHOU_SANMA_HANCHAN, 5),
    (TENHOU_SANMA_HANCHAN, 6),
]
FIELDS = SeatStats.__struct_fields__


def play(rules: RuleConfig, seed: int) -> GameRecord:
    center = BotCenter([make("easy" if s % 2 else "strong") for s in range(rules.players)])
    game = new_game(rules, seed, center)
    center.game = game
    return record_game(run_sync(game))


def _value(text: str, players: int) -> int:
    """A Tenhou score text's hand value: ``1000点`` (ron), ``300-500点`` (others-dealer
    tsumo shares), ``500点∀`` (a dealer's tsumo, everyone the same)."""
    m = re.search(r"(\d+)(?:-(\d+))?点(∀?)$", text)
    assert m, text
    a, b, every = int(m[1]), m[2], m[3]
    if b is not None:
        return a * (players - 2) + int(b)
    return a * (players - 1) if every else a


def recount(log: dict[str, Any], players: int) -> list[dict[str, int]]:
    out = [dict.fromkeys(FIELDS, 0) for _ in range(players)]
    scores = log["sc"][0::2][:players]
    order = sorted(range(players), key=lambda s: (-scores[s], s))
    names = ("first", "second", "third", "fourth")
    for place, seat in enumerate(order):
        out[seat][names[place]] = 1
        out[seat]["games"] = 1
    for rnd in log["log"]:
        result = rnd[16]
        dealt: set[int] = set()
        for seat in range(players):
            takes, discards = rnd[5 + 3 * seat], rnd[6 + 3 * seat]
            stat = out[seat]
            stat["rounds"] += 1
            stat["riichi"] += any(isinstance(d, str) and d.startswith("r") for d in discards)
            stat["calls"] += any(isinstance(t, str) for t in takes)
        if result[0] == "和了":
            for info in result[2::2]:
                who, frm, text = info[0], info[1], info[3]
                value = _value(text, players)
                out[who]["wins"] += 1
                out[who]["win_points"] += value
                out[who]["tsumo"] += who == frm
                if who != frm:
                    out[frm]["deal_in_points"] += value
                    dealt.add(frm)
        elif result[0] in ("流局", "全員聴牌", "全員不聴"):
            deltas = result[1] if len(result) > 1 else [0] * 4
            for seat in range(players):
                out[seat]["draws"] += 1
                tenpai = result[0] == "全員聴牌" or deltas[seat] > 0
                out[seat]["draw_tenpai"] += tenpai
        for seat in dealt:
            out[seat]["deal_ins"] += 1
    return out


@pytest.mark.parametrize(("rules", "seed"), GAMES)
def test_stats_equal_a_recount_from_the_tenhou_export(rules: RuleConfig, seed: int) -> None:
    record = play(rules, seed)
    log = json.loads(json.dumps(write_game(record), ensure_ascii=False))
    got = [{f: getattr(s, f) for f in FIELDS} for s in game_stats(record)]
    assert got == recount(log, rules.players)


def test_player_stats_are_sums_of_game_stats_and_rates_derive() -> None:
    records = [play(rules, seed) for rules, seed in GAMES[:4]]
    per_game = [game_stats(r)[0] for r in records]
    total = SeatStats()
    for s in per_game:
        total = total + s
    for f in FIELDS:
        assert getattr(total, f) == sum(getattr(s, f) for s in per_game)
    assert total.games == 4 and sum(total.placements) == 4
    assert total.rounds > 20 and total.wins > 0  # the bots did play and win hands
    assert total.win_rate == total.wins / total.rounds
    assert total.tsumo_rate == (total.tsumo / total.wins if total.wins else None)
    assert total.average_placement is not None and 1 <= total.average_placement <= 4
    assert SeatStats().win_rate is None and SeatStats().average_deal_in is None


def test_an_unfinished_record_has_no_stats() -> None:
    record = play(TENHOU_TONPUU, 9)
    cut = GameRecord(rules=record.rules, rounds=record.rounds[:2])
    with pytest.raises(ValueError):
        game_stats(cut)
