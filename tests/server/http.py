"""Starlette's TestClient against a real app on a temporary data directory (no network)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

from server.app import create_app
from server.settings import Settings
from tests.server.live import GENEROUS

with warnings.catch_warnings():
    # Starlette asks for its httpx fork (httpx2); the installed httpx still works for tests.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

__all__ = ["TestClient", "app_client"]


def app_client(tmp_path: Path) -> Iterator[TestClient]:
    """An app with instant bots and no spectator delay, its lifespan running."""
    settings = Settings(
        data_dir=str(tmp_path), bot_think_s=0, bot_pace_s=0, spectator_delay_s=0, **GENEROUS
    )
    with TestClient(create_app(settings)) as c:
        yield c
