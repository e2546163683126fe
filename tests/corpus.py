"""The one way tests reach the real Tenhou records at ../shared/data beside the repository.

The records are third-party: they may never be copied into this repository, so a fresh clone
has none. Outside CI a test that needs them skips with the reason; under ``CI=true``, where
they ship beside the clone, their absence fails the test. ``tests/test_corpus_access.py``
fails when a test file reaches the shared folder any other way.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def require(folder: str) -> Path:
    """A data folder; when it is absent, a skip outside CI and a failure under ``CI=true``."""
    path = DATA / folder
    if not path.is_dir():
        message = f"no Tenhou corpus at {path}: it ships beside this repository's CI only"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def files(folder: str) -> list[Path]:
    """Every game file of a data folder (see ``require``)."""
    return sorted(require(folder).glob("*.json"))


def game(folder: str, name: str) -> Path:
    """One named game file of a data folder (see ``require``)."""
    path = require(folder) / name
    if not path.is_file():
        pytest.fail(f"the corpus at {path.parent} lacks {name}")
    return path


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data
