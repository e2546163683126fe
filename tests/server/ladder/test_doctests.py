"""The examples in the ladder's and accounts' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "server.ladder.placement",
    "server.ladder.tenhou_dan",
    "server.ladder.rating",
    "server.ladder.stable_dan",
    "server.ladder.majsoul",
    "server.ladder.standing",
    "server.accounts.names",
    "server.accounts.budget",
    "server.accounts.sessions",
    "server.accounts.lookalike",
    "server.accounts.devices",
    "server.edge.web",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
