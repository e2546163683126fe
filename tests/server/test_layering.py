"""The layers stay honest: engine never imports server; inside the engine each inner layer
imports only the layers below it (engine.rules nothing else of engine, engine.events only
rules, engine.actions only rules and events). Checked on the source (AST), so a lazy import
inside a function counts too; an import under ``if TYPE_CHECKING:`` does not run, so the
inner-layer checks skip those (the engine-never-imports-server check counts even them)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the nodes under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                skip |= {id(sub) for sub in ast.walk(stmt)}
    return skip


def _imports(folder: Path, *, runtime: bool = False) -> list[tuple[Path, str]]:
    """(file, module) for every absolute import in ``folder``; ``runtime`` leaves out the
    imports only the type checker sees."""
    found: list[tuple[Path, str]] = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        skip = type_checking_only(tree) if runtime else set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found += [(path, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.append((path, node.module))
    return found


def _offending(folder: Path, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, name in _imports(folder)
        if any(name == b or name.startswith(b + ".") for b in banned)
    ]


def _outside(layer: str, allowed: tuple[str, ...]) -> list[str]:
    """Run-time imports of engine modules by ``engine/<layer>`` outside ``allowed``."""
    folder = ROOT / "engine" / layer
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, name in _imports(folder, runtime=True)
        if (name == "engine" or name.startswith("engine."))
        and not any(name == a or name.startswith(a + ".") for a in allowed)
    ]


def test_engine_imports_nothing_from_the_server() -> None:
    assert _imports(ROOT / "engine"), "the scan found no imports at all"
    assert _offending(ROOT / "engine", ("server", "starlette", "uvicorn", "websockets")) == []


def test_the_rules_core_imports_nothing_from_the_event_engine() -> None:
    banned = ("engine.events", "engine.actions", "engine.game", "engine.view", "engine.driver")
    assert _offending(ROOT / "engine" / "rules", banned) == []


def test_the_rules_import_nothing_else_of_the_engine() -> None:
    assert _outside("rules", ("engine.rules",)) == []


def test_the_events_import_only_the_rules() -> None:
    assert _outside("events", ("engine.events", "engine.rules")) == []


def test_the_actions_import_only_the_rules_and_the_events() -> None:
    assert _outside("actions", ("engine.actions", "engine.rules", "engine.events")) == []


def test_the_scan_catches_a_forbidden_import(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def f():\n    from server.app import create_app\n")
    assert _imports(tmp_path) == [(tmp_path / "bad.py", "server.app")]


def test_the_run_time_scan_skips_type_checking_blocks_only(tmp_path: Path) -> None:
    (tmp_path / "typed.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from engine.game.game import Game\n"
        "else:\n"
        "    import engine.view\n"
        "def f():\n"
        "    import engine.driver\n"
    )
    runtime = [name for _path, name in _imports(tmp_path, runtime=True)]
    assert runtime == ["typing", "engine.view", "engine.driver"]
    assert "engine.game.game" in [name for _path, name in _imports(tmp_path)]
