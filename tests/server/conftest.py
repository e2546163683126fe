"""Fixtures shared by the server tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.http import TestClient, app_client
from tests.services import fresh_database, postgres_server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    yield from app_client(tmp_path)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """The environment of a server process's store, for a test run on both: empty (SQLite in
    its data dir), or a fresh database named after the test's module on a throwaway
    PostgreSQL."""
    if request.param == "sqlite":
        yield {}
        return
    with postgres_server() as url:
        yield {"RIICHI_DATABASE_URL": fresh_database(url, request.module.__name__.split(".")[-1])}
