"""What pyproject.toml cannot say: static/ ships inside the server package, and the engine's
hot modules are compiled by mypyc.

The browser client stays at the repository's top (``static/``, where its authors edit it),
while a plain, non-editable ``pip install .`` must still serve it: so the wheel maps it to
``server/static`` as package data (``server.app._packaged_static`` looks in both places).

mypyc (part of mypy, the standard compiler for type-checked Python) turns the modules
``engine/native.py`` and ``server/native.py`` list into C extensions, a group each; the build
records their source hashes in ``engine/_native_build.py`` and ``server/_native_build.py``,
which each package checks before it uses them. Without
mypyc, without a C compiler, or with ``RIICHI_COMPILE=0``, the engine installs as plain
Python and behaves the same. Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
#: the setup.py commands that build the extensions (a wheel, an editable install, a build)
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _load(path: str, name: str) -> ModuleType:
    """A module file on its own (importing its package here would run the package)."""
    spec = importlib.util.spec_from_file_location(name, HERE / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sets() -> list[Any]:
    """The compiled sets (engine/native.py's ``NativeSet``): the engine's and the server's,
    each built on its own, so neither depends on how the other runs."""
    engine = _load("engine/native.py", "_riichi_native")
    sys.modules["engine.native"] = engine  # server/native.py names it; not the package
    server = _load("server/native.py", "_riichi_server_native")
    del sys.modules["engine.native"]
    return [engine.ENGINE, server.SERVER]


def _stamp(native: Any) -> Path:
    return HERE / (str(native.stamp).replace(".", "/") + ".py")


def compiled_extensions() -> list[Any]:
    """The mypyc extensions of the hot modules, or none. The last build's extensions and
    stamps go first: what a build does not compile, it leaves interpreted (the checkout's
    extensions too: they may be older than its sources). pip's metadata steps (egg_info,
    dist_info) compile nothing and touch nothing."""
    if not BUILDS & set(sys.argv[1:]):
        return []
    sets = _sets()
    for native in sets:
        _stamp(native).unlink(missing_ok=True)
        old = [*HERE.glob(f"{native.package}/**/*.so"), *HERE.glob(f"{native.group}__mypyc*")]
        for path in old:
            path.unlink()
    if os.environ.get("RIICHI_COMPILE", "1") == "0":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not installed: the engine installs interpreted", file=sys.stderr)
        return []
    extensions: list[Any] = []
    for native in sets:
        paths = [str(native.source_path(m).relative_to(HERE)) for m in native.modules]
        try:
            built = mypycify(
                paths,
                group_name=native.group,
                opt_level="3",
                target_dir=f"build/{native.group}",
            )
        except SystemExit:  # a type error: mypyc refuses (the server's set, where the
            # build's environment lacks the libraries [build-system] requires names)
            print(f"mypyc refused {native.group}: it installs interpreted", file=sys.stderr)
            continue
        for extension in built:
            extension.optional = True  # no C compiler: a warning, and the set interprets
        hashes = "".join(f"    {m!r}: {h!r},\n" for m, h in native.source_hashes().items())
        _stamp(native).write_text(
            '"""Written by setup.py: the sources the compiled modules were built from."""\n\n'
            f"SOURCES = {{\n{hashes}}}\n"
        )
        extensions += built
    return extensions


setup(
    packages=[*find_packages(include=["engine*", "server*"]), "server.static"],
    package_dir={"server.static": "static"},
    package_data={"server.static": ["**/*"]},
    ext_modules=compiled_extensions(),
)
