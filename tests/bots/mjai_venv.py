"""The ``mjai`` package (mjai.app's submission format) in its own virtual environment.

The package pins an old ``mahjong`` and ships ``mlibriichi`` (Mortal's libriichi), so it
lives apart from ours, under /tmp, made once per machine and shared by the tests that run
code on it (tests/bots/test_mjai_package.py, tests/bots/test_mjai_package_seat.py).
"""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

VENV = Path("/tmp/riichi-mjai-venv")


def package_python() -> Path:
    """The venv's python (the venv made and ``mjai`` installed first if need be)."""
    python = VENV / "bin" / "python"
    if not (VENV / "installed").exists():
        venv.create(VENV, with_pip=True, clear=True)
        pip = [str(python), "-m", "pip", "install", "-q", "mjai"]
        subprocess.run(pip, check=True, capture_output=True, timeout=900)
        (VENV / "installed").write_text("mjai\n")
    return python
