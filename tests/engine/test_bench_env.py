"""bench.env: its figures and last line, a peer's failure printed as an error, and our
environment's games checked as finished matches scored by their match points."""

from __future__ import annotations

import re

import pytest

from bench import env as bench

LAST = re.compile(r"^env steps/s vs riichienv: \d+\.\d\d x \(ours \d+/s, riichienv \d+/s\)$")


def test_the_last_line_is_the_riichienv_ratio_of_the_runs_medians() -> None:
    results: dict[str, list[bench.Run] | str] = {
        "ours": [bench.Run(1000, 1.0), bench.Run(3000, 1.0), bench.Run(2000, 1.0)],
        "riichienv": [bench.Run(4000, 1.0), bench.Run(4000, 1.0), bench.Run(4000, 1.0)],
        "pymahjong": [bench.Run(1000, 1.0), bench.Run(1000, 2.0), bench.Run(1000, 1.0)],
    }
    lines = bench.report(results)
    assert LAST.match(lines[-1]), lines[-1]
    assert lines[-1] == "env steps/s vs riichienv: 0.50 x (ours 2000/s, riichienv 4000/s)"
    # the ratio is the median of each run's ratio (1, 6, 2), not a ratio of medians
    assert lines[-2] == "env steps/s vs pymahjong: 2.00 x (ours 2000/s, pymahjong 1000/s)"


def test_a_failing_peer_prints_its_error_not_a_figure() -> None:
    def broken(games: int, seed: int) -> bench.Run:
        raise ImportError("No module named 'riichienv'")

    results = bench.measure({"ours": lambda g, s: bench.Run(10, 0.5), "riichienv": broken}, 1, 2, 0)
    assert results["riichienv"] == "ImportError: No module named 'riichienv'"
    lines = bench.report(results)
    assert "riichienv   error: ImportError: No module named 'riichienv'" in lines
    assert lines[-1] == "env steps/s vs riichienv: n/a (ImportError: No module named 'riichienv')"
    assert not any(LAST.match(line) for line in lines)


def test_our_environment_plays_whole_checked_matches() -> None:
    run = bench.ours(1, 5)
    assert run.steps > 500 and run.seconds > 0


def test_a_match_whose_rewards_are_not_its_points_stops_the_bench() -> None:
    class Game:
        over = True
        rounds = [object()] * 8
        scores = (25000, 25000, 25000, 25000)

    with pytest.raises(SystemExit, match="not the match points"):
        bench._check_ours(Game(), {f"player_{s}": 0.0 for s in range(4)})
