"""docs/env.md's promises: its training loop runs as pasted, and its observation tables are
the encoder's constants."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from engine.env import encoding

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "env.md").read_text()


def training_loop() -> str:
    """The python block after the ``training-loop`` marker."""
    found = re.search(r"<!-- training-loop -->\n```python\n(.*?)```", DOC, re.S)
    assert found is not None, "docs/env.md lost its training loop"
    return found.group(1)


def test_the_training_loop_runs_as_pasted_and_learns_from_the_match_points() -> None:
    code = training_loop()
    ast.parse(code)
    assert 15 <= len(code.strip().splitlines()) <= 35
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["0", "1", "2"]
    for line in lines:
        results = ast.literal_eval(line.split(" ", 1)[1])
        assert set(results) == {f"player_{s}" for s in range(4)}
        assert abs(sum(results.values())) < 1e-6 and len(set(results.values())) > 1


def test_the_layout_tables_are_the_encoders() -> None:
    e = encoding
    base = e.OWN_PLANES
    per = e.SEAT_PLANES
    assert f"| 6 + {per}r + {e.RIVER}..{e.RIVER + 3} |" in DOC and base == 6
    for offset in (e.RIICHI_TILE, e.LAST_DISCARD, e.RED_SHOWN):
        assert f"| 6 + {per}r + {offset} |" in DOC
    assert f"| 6 + {per}r + {e.MELDS}..{e.MELDS + 3} |" in DOC
    assert (e.HAND, e.DRAWN, e.RED_HELD) == (0, 4, 5)
    assert (e.INDICATORS, e.DORA, e.SUBJECT, e.SCALARS) == (0, 1, 2, 3)  # P-4 .. P-1
    assert e.planes(4) == 54 and e.planes(3) == 43 and "P = 54 with four players, 43" in DOC
    columns = {
        e.STEP_KIND: "| 0-4 | the step",
        e.ROUND_WIND: "| 5-8 | round wind",
        e.SEAT_WIND: "| 9-12 | own seat wind",
        e.DEALER: "| 13-16 | the dealer",
        e.IN_RIICHI: "| 17-20 | relative seat r is in riichi",
        e.SCORE: "| 21-24 | relative seat r's points",
        e.KITA_COUNT: "| 25-28 | relative seat r's kita",
        e.HONBA: "| 29 | honba",
        e.KYOTAKU: "| 30 | riichi sticks",
        e.REMAINING: "| 31 | ordinary draws left",
        e.PROGRESS: "| 32 | how far",
        e.SUBJECT_RED: "| 33 | the decision's tile is a red five",
    }
    for column, row in columns.items():
        assert row in DOC and row.startswith(f"| {column}"), row
