"""The client's pure modules (model, events, fair, net's constants, decide, interaction) under
node's own test runner, so they are checked without a browser; see tests/client/js/."""

from __future__ import annotations

import json
import subprocess

from tests import system
from tests.client.conftest import ROOT, to_fixed


def test_the_pure_client_modules_pass_their_node_unit_tests() -> None:
    node = system.node()
    run = subprocess.run(
        [node, "--test", "tests/client/js/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout


def test_to_fixed_rounds_as_the_page_does() -> None:
    """The tests' ``to_fixed`` is node's ``toFixed`` on percentages of small fractions (match
    rates are such: exact ties like 13/80 among them) and on some plain numbers."""
    values = [100 * k / n for n in (7, 40, 80, 200, 333) for k in range(n + 1)]
    values += [0.05, 0.15, 2.675, 1.005, 99.95, 16.25]
    script = "for (const x of JSON.parse(process.argv[1])) console.log(x.toFixed(1));"
    run = subprocess.run(
        [system.node(), "-e", script, json.dumps(values)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    shown = run.stdout.split()
    assert len(shown) == len(values)
    assert [to_fixed(x) for x in values] == shown
    assert sum(f"{x:.1f}" != s for x, s in zip(values, shown, strict=True)) > 0  # the ties
