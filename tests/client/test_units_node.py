"""The client's pure modules (model, events, fair, net's constants, decide, interaction) under
node's own test runner, so they are checked without a browser; see tests/client/js/."""

from __future__ import annotations

import subprocess

from tests import system
from tests.client.conftest import ROOT


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
