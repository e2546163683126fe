"""Where the real Tenhou records are: ../shared/data next to the repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def files(folder: str) -> list[Path]:
    """Every game file of a data folder; skips (the one allowed skip) when it is absent."""
    path = DATA / folder
    if not path.is_dir():
        pytest.skip(f"no Tenhou corpus at {path}: it ships beside this repository's CI only")
    return sorted(path.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data
