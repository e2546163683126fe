"""No import cycle in engine/ or server/, read from the source with ``ast``.

What counts as "a imports b" is what Python runs: an import inside a function counts (it runs
when the function does); one under ``if TYPE_CHECKING:`` does not (it never runs).
``from pkg import name`` runs ``pkg/__init__.py``, so it counts the package, and the
submodule ``pkg.name`` too when ``name`` is one. ``import a.b`` and ``from a.b import x``
count the deepest module of the path that exists. A cycle is a strongly connected component
of more than one module (Tarjan's algorithm).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.server.test_layering import type_checking_only

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "server")
#: modules the build writes (setup.py, gitignored) and a checkout may lack: absent, they are
#: still the module their importers name (a leaf importing nothing), never their package
GENERATED = ("engine._native_build", "server._native_build")


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under the packages (a package is its
    ``__init__``)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _base(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a (possibly relative) ``from ... import`` names."""
    if not node.level:
        return node.module or ""
    parts = name.split(".") if is_package else name.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def import_graph(
    root: Path, packages: Iterable[str], generated: Iterable[str] = ()
) -> dict[str, set[str]]:
    """Module -> the modules of the scanned packages it imports at run time; ``generated``
    modules count whether or not their file is there."""
    found_files = modules(root, packages)
    mods: dict[str, Path | None] = {**dict.fromkeys(generated), **found_files}

    def known(target: str) -> str | None:
        while target and target not in mods:
            target = target.rpartition(".")[0]
        return target or None

    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in found_files.items():
        tree = ast.parse(path.read_text(), str(path))
        skip = type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _base(name, path.name == "__init__.py", node)
                targets = [base] + [
                    f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in mods
                ]
            for target in targets:
                found = known(target)
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_engine_and_server_have_no_import_cycle() -> None:
    graph = import_graph(ROOT, PACKAGES, GENERATED)
    # the build's stamp is its own module, whether this checkout has it or not
    assert "engine._native_build" in graph["engine.native"]
    assert "server._native_build" in graph["server.native"]
    # the scan sees the imports it must: a package's re-export, a function-level import
    assert "engine.game.game" in graph["engine.game"]
    assert "engine.game.setup" in graph["engine.game"]
    assert "server.storage.postgres" in graph["server.storage.stores"]
    assert cycles(graph) == []


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_scan_catches_a_cycle(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            # a lazy import closes the cycle a <-> b
            "pkg/__init__.py": "",
            "pkg/a.py": "import pkg.b\n",
            "pkg/b.py": "def f():\n    from pkg.a import g\n",
            # ``from top import x`` runs top/__init__, which imports top.m
            "top/__init__.py": "from top.m import thing\n",
            "top/m.py": "from top import other\n",
            "top/other.py": "",
            # an import only the type checker sees is no cycle
            "typed/__init__.py": "",
            "typed/x.py": "import typed.y\n",
            "typed/y.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import typed.x\n"
            ),
        },
    )
    graph = import_graph(tmp_path, ("pkg", "top", "typed"))
    assert graph["top.m"] == {"top", "top.other"}
    assert cycles(graph) == [["pkg.a", "pkg.b"], ["top", "top.m"]]


def test_a_module_the_build_writes_is_no_cycle_when_absent(tmp_path: Path) -> None:
    """engine.native reads engine._native_build, which setup.py writes only when it compiles
    (a fresh clone, ``RIICHI_COMPILE=0``, no C compiler: no file). Unknown, it would count as
    its package, which imports engine.native: a cycle that Python never runs."""
    _write(
        tmp_path,
        {
            "eng/__init__.py": "from eng import native\n",
            "eng/native.py": "def built():\n    from eng._stamp import SOURCES\n",
        },
    )
    assert cycles(import_graph(tmp_path, ("eng",))) == [["eng", "eng.native"]]
    graph = import_graph(tmp_path, ("eng",), ("eng._stamp",))
    assert graph["eng.native"] == {"eng._stamp"} and graph["eng._stamp"] == set()
    assert cycles(graph) == []
