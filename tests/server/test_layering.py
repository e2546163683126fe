"""The layers stay honest: engine never imports server; the rules core imports nothing of
the event engine above it. Checked on the source (AST), so a lazy import counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(folder: Path) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
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


def test_engine_imports_nothing_from_the_server() -> None:
    assert _imports(ROOT / "engine"), "the scan found no imports at all"
    assert _offending(ROOT / "engine", ("server", "starlette", "uvicorn", "websockets")) == []


def test_the_rules_core_imports_nothing_from_the_event_engine() -> None:
    banned = ("engine.events", "engine.actions", "engine.game", "engine.view", "engine.driver")
    assert _offending(ROOT / "engine" / "rules", banned) == []


def test_the_scan_catches_a_forbidden_import(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def f():\n    from server.app import create_app\n")
    assert _imports(tmp_path) == [(tmp_path / "bad.py", "server.app")]
