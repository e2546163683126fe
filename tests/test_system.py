"""A missing Debian program skips its tests with the package to install, and fails them under
CI=true (tests/system.py)."""

from __future__ import annotations

import shutil

import pytest

from tests import system


def test_a_missing_program_skips_outside_ci_and_fails_under_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"apt-get install redis-server"):
        system.redis()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install nodejs"):
        system.node()


def test_a_present_program_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    assert system.node() == "/usr/bin/node"
    system.redis()
