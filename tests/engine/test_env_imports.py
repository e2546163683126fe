"""Importing the engine or the server loads none of the [rl] extra's packages: every module of
both, imported in a fresh interpreter, leaves numpy, pettingzoo and gymnasium out of
``sys.modules`` (tests/server/test_layering.py checks the same on the source)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
rl = {"engine.env.aec", "engine.env.observation", "engine.env.single"}
imported = []
for package in ("engine", "server"):
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
        if info.name in rl or info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        importlib.import_module(info.name)
        imported.append(info.name)
loaded = [m for m in ("numpy", "pettingzoo", "gymnasium") if m in sys.modules]
if sys.argv[1:] == ["env"]:
    from engine.env import aec_env
    aec_env()
    loaded_after = [m for m in ("numpy", "pettingzoo", "gymnasium") if m in sys.modules]
else:
    loaded_after = []
print(json.dumps({"imported": imported, "loaded": loaded, "after": loaded_after}))
"""


def _probe(*args: str) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_no_engine_or_server_module_imports_the_rl_packages() -> None:
    result = _probe("env")
    assert {"engine.env", "engine.env.steps", "server.app", "engine.bot.strong"} <= set(
        result["imported"]
    )
    assert len(result["imported"]) > 150
    assert result["loaded"] == []
    # the probe can see them: building an environment loads all three
    assert result["after"] == ["numpy", "pettingzoo", "gymnasium"]
