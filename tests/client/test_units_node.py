"""The client's pure modules (model, events, fair, net's constants, decide, interaction) under
node's own test runner, so they are checked without a browser; see tests/client/js/."""

from __future__ import annotations

import shutil
import subprocess

from tests.client.conftest import ROOT


def test_the_pure_client_modules_pass_their_node_unit_tests() -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "node is needed for the client's unit tests (Debian: apt-get install nodejs)"
    run = subprocess.run(
        [node, "--test", "tests/client/js/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
