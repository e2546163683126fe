"""The store a tournament test's server runs on: SQLite in its data dir, or a fresh database
of a throwaway PostgreSQL (both, as every store-facing test here is run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.services import fresh_database, postgres_server


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """The server's environment for the store (empty: SQLite)."""
    if request.param == "sqlite":
        yield {}
        return
    with postgres_server() as url:
        yield {"RIICHI_DATABASE_URL": fresh_database(url, request.module.__name__.split(".")[-1])}
