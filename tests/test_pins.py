"""The test tools are pinned exactly, so a release of pytest, mypy, ruff, playwright or redis-py
cannot change the suite's verdict on the day it comes out (redis 8.2's new type hints once made
two ``type: ignore`` comments unused and mypy fail on a fresh install); the packages the image
runs too (requirements.lock) are pinned at the lock's versions, which ``scripts/lock.sh``
keeps in step."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, requires, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def exact(lines: list[str]) -> dict[str, str]:
    """Name -> version of requirements pinned with one ``==``; a bound fails."""
    pins: dict[str, str] = {}
    for line in lines:
        requirement = Requirement(line)
        specs = list(requirement.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"{line} is not an exact pin"
        pins[str(canonicalize_name(requirement.name))] = specs[0].version
    return pins


def locked(lock: str) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", (ROOT / lock).read_text(), re.M)
    return {str(canonicalize_name(name)): v for name, v in found}


def test_the_test_extra_pins_every_tool_and_agrees_with_the_locks() -> None:
    test = exact(PROJECT["project"]["optional-dependencies"]["test"])
    lock = locked("requirements.lock")
    shared = {name: (pin, lock[name]) for name, pin in test.items() if name in lock}
    assert {"redis", "psycopg"} <= shared.keys()
    assert {name: pin for name, (pin, _) in shared.items()} == {
        name: in_lock for name, (_, in_lock) in shared.items()
    }
    # the mypy that checks the engine is the one that compiles it (mypyc)
    requires: list[str] = PROJECT["build-system"]["requires"]
    build = {str(canonicalize_name(Requirement(r).name)): r for r in requires}
    assert build["mypy"] == f"mypy=={test['mypy']}"
    assert locked("requirements-build.lock")["mypy"] == test["mypy"]


def test_the_installed_tools_are_the_pinned_ones() -> None:
    """What runs this suite is what ``pip install -e '.[test]'`` installs: else reinstall."""
    test = exact(PROJECT["project"]["optional-dependencies"]["test"])
    assert {name: version(name) for name in test} == test


def test_the_rl_extra_is_pinned_installed_and_kept_out_of_the_image() -> None:
    """numpy, pettingzoo and gymnasium (the environment tests' [rl] extra, which the README's
    test command installs beside [test]) are pinned exactly and installed at those pins; the
    image's lock holds none of them (the server never imports them: tests/engine/
    test_env_imports.py)."""
    rl = exact(PROJECT["project"]["optional-dependencies"]["rl"])
    assert set(rl) == {"numpy", "pettingzoo", "gymnasium"}
    assert {name: version(name) for name in rl} == rl
    assert set(rl) & set(locked("requirements.lock")) == set()


def test_a_bound_is_refused() -> None:
    assert exact(["ruff==0.17.6", "psycopg[binary]==3.3.9"]) == {
        "ruff": "0.17.6",
        "psycopg": "3.3.9",
    }
    for loose in ("ruff>=0.6", "ruff", "ruff==0.17.6,<1"):
        try:
            exact([loose])
        except AssertionError:
            continue
        raise AssertionError(f"{loose} passed as an exact pin")


def test_the_lock_holds_what_its_packages_need_on_debians_python() -> None:
    """The image may run Debian bookworm's Python 3.11.2 (its base made from Debian packages
    where no registry answers), while the lock is compiled on a newer 3.11: a dependency
    marked for older Pythons (redis-py's async-timeout, below 3.11.3) must be in it too, or
    the scale-out nodes cannot import redis.asyncio there."""
    lock = locked("requirements.lock")
    debian = {"python_full_version": "3.11.2", "python_version": "3.11", "extra": ""}
    needed: dict[str, str] = {}
    for name in lock:
        try:
            wanted = requires(name) or []
        except PackageNotFoundError:
            continue
        for line in wanted:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(debian):
                needed[str(canonicalize_name(requirement.name))] = name
    assert "async-timeout" in needed  # the case this guards
    assert {dep: by for dep, by in needed.items() if dep not in lock} == {}
