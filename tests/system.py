"""The Debian programs some tests drive: Chromium (browser tests), redis-server and PostgreSQL
(scale-out tests), node (the client's unit tests). Where one is not installed, its tests skip
with the package to install, as the corpus tests do (tests/corpus.py); under ``CI=true``,
where .ci/run installs them all, its absence fails them. One ``apt-get install`` line in the
README lists them."""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"


def _missing(what: str, package: str) -> None:
    message = f"{what} is not installed (Debian: apt-get install {package})"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def chromium() -> str:
    """Debian's Chromium, which Playwright drives (its own download cannot work here)."""
    if not Path(CHROMIUM).is_file():
        _missing(CHROMIUM, "chromium")
    return CHROMIUM


def node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        _missing("node", "nodejs")
    assert found is not None
    return found


def redis() -> None:
    if shutil.which("redis-server") is None:
        _missing("redis-server", "redis-server")


def postgres() -> None:
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        _missing("PostgreSQL", "postgresql")
