"""An engine or server module's interpreted twin, for the few tests that look inside one.

A module engine.native compiles binds its own globals when it is built, so monkeypatching
one changes nothing it calls; its functions have no docstring examples doctest can find, and
its classes hold typed attributes only. A test that patches, doctests or poisons a module
does it to the twin: the same source, run by the interpreter. The corpus replays and
tests/engine/test_native.py check that the compiled modules play as the source does.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from engine import native
from server import native as server_native


def interpreted(module: ModuleType) -> ModuleType:
    """``module`` itself when it runs interpreted, else its twin (made once)."""
    compiled = (*native.COMPILED, *server_native.COMPILED)
    if module.__name__ not in compiled or str(module.__file__).endswith(".py"):
        return module
    name = f"{module.__name__}.__interpreted__"
    twin = sys.modules.get(name)
    if twin is None:
        spec = importlib.util.spec_from_file_location(name, native.source_path(module.__name__))
        assert spec is not None and spec.loader is not None
        twin = importlib.util.module_from_spec(spec)
        sys.modules[name] = twin  # dataclasses look their module up while the class is made
        spec.loader.exec_module(twin)
    return twin
