"""The checker checks the match end too: the engine must end the match where the log ends,
with the log's final scores and results (Tenhou's ``sc``), and not before."""

from __future__ import annotations

import copy
import json
from typing import Any

import msgspec

from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.game.setup import new_game
from engine.replay.check import check_game
from engine.replay.export import to_tenhou
from engine.replay.tenhou_read import read_game, rules_of
from engine.rules.config import TENHOU_HANCHAN, TENHOU_TONPUU
from engine.rules.scoring.points import placement_points


def _log(seed: int = 3) -> dict[str, Any]:
    game = run_sync(new_game(TENHOU_TONPUU, seed, RandomCenter(seed)))
    assert game.over
    data: dict[str, Any] = json.loads(json.dumps(to_tenhou(game), ensure_ascii=False))
    return data


def test_a_whole_game_ends_where_its_log_ends() -> None:
    verdicts = check_game(read_game(_log()))
    assert all(v.matched for v in verdicts), [v for v in verdicts if not v.matched]
    assert [v.final for v in verdicts] == [False] * (len(verdicts) - 1) + [True]


def test_a_log_cut_short_fails_on_its_new_last_round() -> None:
    log = _log()
    cut = copy.deepcopy(log)
    cut["log"] = cut["log"][:-1]
    cut["sc"] = log["sc"]
    last = check_game(read_game(cut))[-1]
    assert last.reason == "the log's match ends here; the engine plays on"


def test_a_log_that_plays_on_after_the_end_fails_where_the_engine_stopped() -> None:
    log = _log()
    longer = copy.deepcopy(log)
    longer["log"] = [*log["log"], log["log"][-1]]
    verdicts = check_game(read_game(longer))
    assert verdicts[-2].reason == "engine ended the match; the log goes on"


def test_wrong_final_scores_or_results_fail() -> None:
    log = _log()
    bad = copy.deepcopy(log)
    bad["sc"][0] += 1000
    assert (check_game(read_game(bad))[-1].reason or "").startswith("final scores")
    bad = copy.deepcopy(log)
    bad["sc"][1] += 1.0
    bad["sc"][3] -= 1.0
    assert (check_game(read_game(bad))[-1].reason or "").startswith("placement points")


def test_tenhou_rounds_to_thousands_half_away_from_zero_and_the_top_takes_the_rest() -> None:
    # 2018060200gm-00a9-0000-2001561c: -1500 is -2 thousand, 35700 is 6 (log: -52 -15 16 51)
    assert placement_points((-1500, 25300, 35700, 40500), TENHOU_HANCHAN) == (-52, -15, 16, 51)
    # 2020010115gm-00a9-0000-79d5fec4: 28700 rounds to 29, -500 to -1
    assert placement_points((29700, -500, 28700, 42100), TENHOU_HANCHAN) == (10, -51, -11, 52)
    exact = msgspec.structs.replace(TENHOU_HANCHAN, round_points=False)
    assert placement_points((33000, 23800, 30700, 12500), exact) == (43.0, -16.2, 10.7, -37.5)


def test_the_reader_takes_the_result_rules_from_the_log() -> None:
    base = {"rule": {"disp": "鳳南喰赤", "aka": 1}, "log": []}
    decimal = rules_of({**base, "sc": [33000, 43.0, 23800, -16.2, 30700, 10.7, 12500, -37.5]})
    assert not decimal.round_points
    early = rules_of({**base, "ref": "2010060106gm-00a9-0000-30d6de3b"})
    late = rules_of({**base, "ref": "2010060800gm-0061-0000-6d767860"})
    assert not early.tenpaiyame and late.tenpaiyame
    private = rules_of(
        {
            **base,
            "ref": "2019020120gm-0009-10011-215330df",
            "sc": [19400, -10.6, -700, -100.7, 67400, 87.4, 33900, 23.9],
        }
    )
    assert private.uma == (30, 20, 0, -70)  # and oka 20 to the top and not private.round_points
