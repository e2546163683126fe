"""``bench.bots`` prints both figures, the easy one last in its old form (scripts read it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EASY = re.compile(
    r"bots: strong avg rank \d\.\d\d, deal-in \d+\.\d%, win \d+\.\d% over 4 hanchan; "
    r"easy avg rank \d\.\d\d, deal-in \d+\.\d%, win \d+\.\d%"
)
BASELINE = re.compile(r"bots vs baseline: avg rank \d\.\d\d over 4 hanchan")


def _lines(*args: str) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-m", "bench.bots", "--games", "4", "--seed", "3", "--jobs", "1", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return run.stdout.strip().splitlines()


def test_the_last_line_is_the_easy_figure_and_the_baseline_figure_comes_just_before() -> None:
    lines = _lines()
    assert EASY.fullmatch(lines[-1]), lines[-1]
    assert BASELINE.fullmatch(lines[-2]), lines[-2]


def test_only_baseline_prints_the_baseline_figure_last() -> None:
    lines = _lines("--only", "baseline")
    assert BASELINE.fullmatch(lines[-1]), lines[-1]
    assert not any(line.startswith("bots: ") for line in lines)
