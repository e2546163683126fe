"""mypyc type-checks the compiled sets (setup.py) in pip's build environment, which holds only
what ``[build-system] requires`` names: every library the compiled modules reach, through the
project's modules mypy follows from them, must be named there, or that set fails its check
and installs interpreted (a fresh install and the image compiled the engine alone until the
server's libraries were named). The Docker build fails outright when either set runs
interpreted; this finds the missing name without a build."""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from engine.native import ENGINE
from server.native import SERVER

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = ("engine", "server")
OVERRIDES = PYPROJECT["tool"]["mypy"]["overrides"]
#: modules mypy does not follow into, libraries it may miss (pyproject's mypy overrides)
SKIPPED = {m for o in OVERRIDES if o.get("follow_imports") == "skip" for m in o["module"]}
MAY_MISS = {
    m.removesuffix(".*") for o in OVERRIDES if o.get("ignore_missing_imports") for m in o["module"]
}


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports, absolutely, ``TYPE_CHECKING`` blocks too (mypy reads them)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _source(module: str) -> Path | None:
    base = ROOT / module.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def libraries_reached(modules: tuple[str, ...]) -> set[str]:
    """Top-level names of the third-party libraries mypy meets from ``modules``."""
    seen: set[str] = set()
    todo = list(modules)
    found: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        top = module.split(".")[0]
        if module in SKIPPED or top in MAY_MISS:
            continue
        if top in PROJECT:
            path = _source(module)
            if path is not None:
                parts = module.split(".")
                todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # its packages
                todo += sorted(_imports(path))
        elif top not in sys.stdlib_module_names and top != "__future__":
            found.add(top)
    return found


def test_the_build_requires_every_library_the_compiled_sets_reach() -> None:
    requires = PYPROJECT["build-system"]["requires"]
    named = {str(canonicalize_name(Requirement(r).name)) for r in requires}
    reached = libraries_reached((*ENGINE.modules, *SERVER.modules))
    assert {"anyio", "starlette", "msgspec"} <= reached  # the walk reaches them: it can fail
    missing = {str(canonicalize_name(n)) for n in reached} - named
    assert not missing, f"[build-system] requires lacks {sorted(missing)}"
