"""Fixtures shared by the server tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.http import TestClient, app_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    yield from app_client(tmp_path)
