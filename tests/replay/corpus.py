"""Where the real Tenhou records are: ../shared/data next to the repository."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def require(folder: str) -> Path:
    """A data folder; when it is absent, a skip outside CI (the records may not be copied
    into this repository) and a failure under ``CI=true``, where it must be present."""
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


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data
