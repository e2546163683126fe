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
from collections.abc import Callable, Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the modules a self-play decision spends most of its time in (docs/perf-notes.md)
COMPILED = (
    "engine.actions.inquiry",
    "engine.actions.types",
    "engine.bot.seen",
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
#: the environment variable that asks for the interpreted engine (and server)
INTERPRETED_ENV = "RIICHI_INTERPRETED"

_ROOT = Path(__file__).resolve().parent.parent


class NativeSet:
    """One package's compiled modules (``modules``, in mypyc group ``group``), used all
    together or not at all: the build stamps their sources' hashes in ``stamp``, and
    ``install`` puts the source first for every module of ``package`` while that set cannot
    be used (and for those outside it always). The engine has one; the server has its own
    (server/native.py), built apart, so either runs compiled beside the other interpreted."""

    def __init__(
        self,
        package: str,
        modules: Sequence[str],
        group: str,
        stamp: str,
        read_stamp: Callable[[], Mapping[str, str]],
    ) -> None:
        """``read_stamp``: the stamp's ``SOURCES`` (raises ImportError when not built)."""
        self.package = package
        self.read_stamp = read_stamp
        self.modules = tuple(modules)
        self.group = group
        self.stamp = stamp
        self._reason: str | None = None
        self._decided = False

    def source_path(self, module: str) -> Path:
        """The ``.py`` file of a module of the package."""
        return _ROOT.joinpath(*module.split(".")).with_suffix(".py")

    def source_hashes(self) -> dict[str, str]:
        """The SHA-256 of every compiled module's source, as the build records them."""
        return {
            m: hashlib.sha256(self.source_path(m).read_bytes()).hexdigest() for m in self.modules
        }

    def _built(self) -> dict[str, str] | None:
        """The hashes the last compiling build recorded; None when nothing was compiled."""
        try:
            return dict(self.read_stamp())
        except ImportError:
            return None

    def _extension_present(self, module: str) -> bool:
        spec = importlib.machinery.PathFinder.find_spec(
            module.rpartition(".")[2], [str(self.source_path(module).parent)]
        )
        return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)

    def why_interpreted(self) -> str | None:
        """Why the compiled modules cannot be used now, None when they can."""
        if os.environ.get(INTERPRETED_ENV, "") not in ("", "0"):
            return f"{INTERPRETED_ENV} is set"
        built = self._built()
        if built is None:
            return "not compiled: pip install compiles it where mypyc and a C compiler are"
        if built != self.source_hashes():
            return "a compiled module's source changed since the build: pip install again"
        if importlib.util.find_spec(f"{self.group}__mypyc") is None or not all(
            self._extension_present(m) for m in self.modules
        ):
            return "a compiled module is missing: pip install again"
        return None

    @property
    def reason(self) -> str | None:
        """Why this process runs the set interpreted; None: it runs the compiled modules.
        Decided once, when first asked (``install``)."""
        if not self._decided:
            self._reason, self._decided = self.why_interpreted(), True
        return self._reason

    def install(self) -> None:
        """Put the source first for every module of the package but the compiled set in use
        (called by the package's ``__init__``, before any of them is imported)."""
        if not any(isinstance(f, _SourceFirst) and f.native is self for f in sys.meta_path):
            sys.meta_path.insert(0, _SourceFirst(self))

    def describe(self) -> str:
        """One line for benchmarks and logs: which code this process runs."""
        if self.reason is None:
            return f"compiled by mypyc ({len(self.modules)} hot modules)"
        return f"interpreted ({self.reason})"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports a package's modules from their ``.py`` files, past any extension beside them:
    all of them while its compiled set cannot be used, else those outside the set (an
    extension left from an older build never loads)."""

    def __init__(self, native: NativeSet) -> None:
        self.native = native
        self.prefix = native.package + "."
        self.compiled = frozenset(native.modules if native.reason is None else ())

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(self.prefix) or fullname in self.compiled:
            return None
        source = self.native.source_path(fullname)
        if not source.is_file():  # a package: its __init__.py is never compiled
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _stamp() -> Mapping[str, str]:
    from engine._native_build import SOURCES  # type: ignore[import-not-found,unused-ignore]

    return dict(SOURCES)


ENGINE = NativeSet("engine", COMPILED, GROUP, "engine._native_build", _stamp)


def source_path(module: str) -> Path:
    """The ``.py`` file of an engine module."""
    return ENGINE.source_path(module)


#: why this process runs the interpreted engine; None: it runs the compiled modules. Decided
#: once, when the engine is first imported.
REASON = ENGINE.reason


def install() -> None:
    """Put the source first for every engine module but the compiled set in use (called by
    ``engine/__init__.py``, before any of them is imported)."""
    ENGINE.install()


def describe() -> str:
    """One line for benchmarks and logs: which engine this process runs."""
    return ENGINE.describe()
