"""The engine's hot modules, compiled by mypyc or interpreted: the same code either way.

``pip install`` compiles ``COMPILED`` to C extensions with mypyc when it can (setup.py; a
machine without a C compiler, or ``RIICHI_COMPILE=0``, installs them as plain Python). The
build writes each module's source hash to ``engine/_native_build.py``. At import,
``install()`` keeps the compiled modules only while every one of them still has the source
it was built from, and all of them are there: compiled modules call each other directly,
past module attributes, so an edited or checked-out source makes the whole set interpreted,
never a mix. ``RIICHI_INTERPRETED=1`` asks for the interpreted engine (a profiler, a tracer
or a debugger sees its frames).

The rest of the engine stays interpreted: its cost is not on the hot path.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the modules a self-play decision spends most of its time in (docs/perf-notes.md)
COMPILED = (
    "engine.actions.inquiry",
    "engine.actions.types",
    "engine.env.encoding",
    "engine.env.steps",
    "engine.events.bus",
    "engine.events.queue",
    "engine.game.asking",
    "engine.game.claims",
    "engine.game.game",
    "engine.game.kyoku",
    "engine.game.melds",
    "engine.game.offers",
    "engine.game.player",
    "engine.game.registry",
    "engine.game.turn",
    "engine.rules.calls",
    "engine.rules.hand",
    "engine.rules.scoring.fu",
    "engine.rules.scoring.hand_mask",
    "engine.rules.scoring.points",
    "engine.rules.scoring.preview",
    "engine.rules.scoring.reading_mask",
    "engine.rules.scoring.score",
    "engine.rules.scoring.tables",
    "engine.rules.scoring.ties",
    "engine.rules.tiles",
    "engine.rules.wall",
)
#: mypyc's group: the shared library of the compiled modules is ``<GROUP>__mypyc``
GROUP = "engine_native"
#: the environment variable that asks for the interpreted engine
INTERPRETED_ENV = "RIICHI_INTERPRETED"

_ROOT = Path(__file__).resolve().parent.parent


def source_path(module: str) -> Path:
    """The ``.py`` file of an engine module."""
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_hashes() -> dict[str, str]:
    """The SHA-256 of every compiled module's source, as the build records them."""
    return {m: hashlib.sha256(source_path(m).read_bytes()).hexdigest() for m in COMPILED}


def _built() -> dict[str, str] | None:
    """The hashes the last compiling build recorded; None when nothing was compiled."""
    try:
        from engine._native_build import SOURCES  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return dict(SOURCES)


def _extension_present(module: str) -> bool:
    spec = importlib.machinery.PathFinder.find_spec(
        module.rpartition(".")[2], [str(source_path(module).parent)]
    )
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def why_interpreted() -> str | None:
    """Why the compiled modules cannot be used now, None when they can."""
    if os.environ.get(INTERPRETED_ENV, "") not in ("", "0"):
        return f"{INTERPRETED_ENV} is set"
    built = _built()
    if built is None:
        return "not compiled: pip install compiles it where mypyc and a C compiler are"
    if built != source_hashes():
        return "a compiled module's source changed since the build: pip install again"
    if importlib.util.find_spec(f"{GROUP}__mypyc") is None or not all(
        _extension_present(m) for m in COMPILED
    ):
        return "a compiled module is missing: pip install again"
    return None


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports engine modules from their ``.py`` files, past any extension beside them: all
    of them while the compiled set cannot be used, else those outside ``COMPILED`` (an
    extension left from an older build never loads)."""

    def __init__(self, compiled: frozenset[str]) -> None:
        self.compiled = compiled

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("engine.") or fullname in self.compiled:
            return None
        source = source_path(fullname)
        if not source.is_file():  # a package: its __init__.py is never compiled
            return None
        return importlib.util.spec_from_file_location(fullname, source)


#: why this process runs the interpreted engine; None: it runs the compiled modules. Decided
#: once, when the engine is first imported.
REASON = why_interpreted()


def install() -> None:
    """Put the source first for every engine module but the compiled set in use (called by
    ``engine/__init__.py``, before any of them is imported)."""
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(frozenset(COMPILED if REASON is None else ())))


def describe() -> str:
    """One line for benchmarks and logs: which engine this process runs."""
    if REASON is None:
        return f"compiled by mypyc ({len(COMPILED)} hot modules)"
    return f"interpreted ({REASON})"
