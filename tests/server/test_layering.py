"""The layers stay honest: engine never imports server; inside the engine each inner layer
imports only the layers below it (engine.rules nothing else of engine, engine.events only
rules, engine.actions only rules and events); inside the server each subpackage imports only
the ones docs/architecture.md draws below it (``SERVER_LAYERS``). Checked on the source
(AST), so a lazy import inside a function counts too; an import under ``if TYPE_CHECKING:``
does not run, so the engine's inner-layer checks skip those (the engine-never-imports-server
check and the server's layers count even them: a type-only import still ties two packages).
"""

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


#: server's subpackages and what each may import of server (docs/architecture.md draws it);
#: accounts, ladder and review are reserved for the packages the next issues add
SERVER_LAYERS: dict[str, frozenset[str]] = {
    "edge": frozenset({"settings"}),
    "storage": frozenset({"settings"}),
    "session": frozenset({"edge", "storage", "settings"}),
    "accounts": frozenset({"edge", "storage", "settings"}),
    "ladder": frozenset({"edge", "storage", "settings", "accounts"}),
    "tournament": frozenset({"edge", "storage", "settings", "accounts"}),
    "review": frozenset({"edge", "storage", "settings"}),
    "seats": frozenset({"edge", "session", "settings"}),
    "runtime": frozenset({"edge", "session", "settings"}),
    "cluster": frozenset({"edge", "settings"}),
    "routes": frozenset(
        {
            "edge",
            "storage",
            "session",
            "settings",
            "accounts",
            "ladder",
            "review",
            "tournament",
            "version",
        }
    ),
    "upkeep": frozenset(
        {"edge", "storage", "session", "settings", "accounts", "ladder", "runtime"}
    ),
}
#: the modules at server's top level: the wiring (app, __main__) may import every package;
#: settings and version (the release, server/version.py) import nothing of server; native
#: (which server modules run compiled) only the build's stamp, and the package's
#: ``__init__`` only it; ``_native_build`` is the stamp a compiling build writes
SERVER_MODULES: dict[str, frozenset[str] | None] = {
    "__init__": frozenset({"native"}),
    "native": frozenset({"_native_build"}),
    "_native_build": frozenset(),
    "settings": frozenset(),
    "version": frozenset(),
    "app": None,
    "__main__": None,
}


def _server_imports(root: Path) -> list[tuple[Path, str]]:
    """(file, module) for every import of server in ``root/server``, type-only ones too;
    a relative import is made absolute, and ``from server import x`` names ``server.x``."""
    found: list[tuple[Path, str]] = []
    for path in sorted((root / "server").rglob("*.py")):
        package = list(path.relative_to(root).parent.parts)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                names = [f"{module}.{alias.name}" for alias in node.names]
            else:
                continue
            found += [(path, name) for name in names if name.startswith("server.")]
    return found


def server_layering(root: Path) -> list[str]:
    """Every import in ``root/server`` against SERVER_LAYERS, and every file where no
    layer is drawn for it (a new subpackage or top-level module must be placed first)."""
    wrong: list[str] = []
    for path, name in _server_imports(root):
        parts = path.relative_to(root / "server").with_suffix("").parts
        mine = parts[0]
        allowed = (
            SERVER_LAYERS.get(mine) if len(parts) > 1 else SERVER_MODULES.get(mine, frozenset())
        )
        if allowed is None:  # the wiring
            continue
        theirs = name.split(".")[1]
        if theirs != mine and theirs not in allowed:
            wrong.append(f"{path.relative_to(root)} imports {name}")
    for path in sorted((root / "server").rglob("*.py")):
        parts = path.relative_to(root / "server").with_suffix("").parts
        known = SERVER_LAYERS if len(parts) > 1 else SERVER_MODULES
        if parts[0] not in known and parts[0] != "static":
            wrong.append(f"{path.relative_to(root)} is in no layer of docs/architecture.md")
    return wrong


def test_server_packages_import_only_the_layers_below_them() -> None:
    assert len(_server_imports(ROOT)) > 100, "the scan found too few server imports"
    assert server_layering(ROOT) == []


def test_session_and_cluster_never_import_each_other() -> None:
    both = ("server.session", "server.cluster")
    assert _offending(ROOT / "server" / "session", both[1:]) == []
    assert _offending(ROOT / "server" / "cluster", both[:1]) == []


def test_server_top_level_holds_four_modules_beside_its_packages() -> None:
    top = {p.stem for p in (ROOT / "server").glob("*.py")} - {"_native_build"}  # a build's
    assert top == {"__init__", "app", "settings", "version", "__main__", "native"}
    packages = {p.name for p in (ROOT / "server").iterdir() if (p / "__init__.py").exists()}
    assert packages <= set(SERVER_LAYERS), packages - set(SERVER_LAYERS)


def test_the_server_scan_catches_a_reverse_import(tmp_path: Path) -> None:
    """A type-only import of the cluster from session, a lazy one of the routes from the
    edge, a relative one of session from storage: each is reported."""
    for package in ("session", "edge", "storage", "cluster"):
        (tmp_path / "server" / package).mkdir(parents=True)
        (tmp_path / "server" / package / "__init__.py").write_text("")
    (tmp_path / "server" / "session" / "hub.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from server.edge import messaging\n"
        "if TYPE_CHECKING:\n"
        "    from server.cluster.node import Cluster\n"
    )
    (tmp_path / "server" / "edge" / "web.py").write_text(
        "def f():\n    import server.routes.rooms\n"
    )
    (tmp_path / "server" / "storage" / "rows.py").write_text("from ..session import rooms\n")
    (tmp_path / "server" / "cluster" / "node.py").write_text("from server.storage import x\n")
    assert server_layering(tmp_path) == [
        "server/cluster/node.py imports server.storage.x",
        "server/edge/web.py imports server.routes.rooms",
        "server/session/hub.py imports server.cluster.node.Cluster",
        "server/storage/rows.py imports server.session.rooms",
    ]


#: the optional [rl] extra (pyproject.toml): only the reinforcement-learning environments
#: import it, so the engine core and the server run without numpy
RL_PACKAGES = ("numpy", "pettingzoo", "gymnasium")
RL_MODULES = ("engine/env/aec.py", "engine/env/observation.py", "engine/env/single.py")


def _function_imports(tree: ast.AST) -> set[int]:
    """ids of the import nodes inside a function body (they run when it is called)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside |= {
                id(sub) for sub in ast.walk(node) if isinstance(sub, ast.Import | ast.ImportFrom)
            }
    return inside


def rl_leaks(root: Path) -> list[str]:
    """Imports of the [rl] packages outside RL_MODULES, and imports of RL_MODULES that run
    on a plain import (anywhere but inside a function of engine/env/__init__.py, or under
    ``if TYPE_CHECKING:``)."""
    wrong = [
        line
        for folder in ("engine", "server")
        for line in _offending_in(root, root / folder, RL_PACKAGES)
        if line.split(" imports ")[0] not in RL_MODULES
    ]
    rl = tuple(m.removesuffix(".py").replace("/", ".") for m in RL_MODULES)
    for path in sorted((root / "engine").rglob("*.py")):
        where = str(path.relative_to(root))
        if where in RL_MODULES:
            continue
        tree = ast.parse(path.read_text(), where)
        lazy = type_checking_only(tree)
        if where == "engine/env/__init__.py":
            lazy |= _function_imports(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and id(node) not in lazy:
                if node.module in rl or node.module.startswith(rl):
                    wrong.append(f"{where} imports {node.module} at import time")
            elif isinstance(node, ast.Import) and id(node) not in lazy:
                wrong += [
                    f"{where} imports {a.name} at import time" for a in node.names if a.name in rl
                ]
    return wrong


def _offending_in(root: Path, folder: Path, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(root)} imports {name}"
        for path, name in _imports(folder)
        if any(name == b or name.startswith(b + ".") for b in banned)
    ]


def test_numpy_pettingzoo_and_gymnasium_stay_in_the_rl_environments() -> None:
    assert {line.split(" imports ")[0] for line in _offending(ROOT / "engine", RL_PACKAGES)} == set(
        RL_MODULES
    ), "the scan no longer sees the RL modules' own imports"
    assert rl_leaks(ROOT) == []


def test_the_rl_scan_catches_a_leak(tmp_path: Path) -> None:
    (tmp_path / "engine" / "env").mkdir(parents=True)
    (tmp_path / "server").mkdir()
    (tmp_path / "engine" / "env" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from engine.env.single import MahjongGymEnv\n"
        "from engine.env.aec import MahjongAECEnv\n"
        "def aec_env():\n    from engine.env.aec import MahjongAECEnv\n"
    )
    (tmp_path / "engine" / "env" / "aec.py").write_text("import numpy\n")
    (tmp_path / "engine" / "review.py").write_text("def f():\n    import numpy as np\n")
    (tmp_path / "server" / "app.py").write_text("from gymnasium import spaces\n")
    assert rl_leaks(tmp_path) == [
        "engine/review.py imports numpy",
        "server/app.py imports gymnasium",
        "engine/env/__init__.py imports engine.env.aec at import time",
    ]
