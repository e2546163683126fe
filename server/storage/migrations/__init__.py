"""The schema's numbered steps: ``mNNNN_<name>.py`` modules, applied in number order.

Each step is a module with a docstring saying why and two scripts, ``SQLITE`` and
``POSTGRES``, the same change in each database's words. server/storage/migrate.py applies
the steps a database lacks, each in one transaction, and records them in ``schema_version``.
A step that was released (listed with its hash in ``RELEASED``) is never edited: a database
in the field has run it as it was, so a change is a new step (docs/architecture.md, storage).
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_NAME = re.compile(r"m(\d{4})_([a-z0-9_]+)")
HERE = Path(__file__).parent


@dataclass(frozen=True)
class Step:
    number: int
    name: str
    #: why the step exists (its module's docstring)
    why: str
    sqlite: str
    postgres: str
    #: the baseline's columns a database from before versioning may lack (table, column, type)
    adopted: tuple[tuple[str, str, str], ...] = ()


class BadStep(Exception):
    """A step module that breaks the rules: no docstring, a script missing, a number taken."""


def _step(module_name: str) -> Step:
    match = _NAME.fullmatch(module_name)
    assert match is not None
    module = importlib.import_module(f"{__name__}.{module_name}")
    sqlite, postgres = getattr(module, "SQLITE", None), getattr(module, "POSTGRES", None)
    if not (module.__doc__ or "").strip():
        raise BadStep(f"{module_name} has no docstring saying why")
    if not isinstance(sqlite, str) or not isinstance(postgres, str):
        raise BadStep(f"{module_name} needs SQLITE and POSTGRES scripts (str)")
    adopted = tuple(getattr(module, "ADOPTED", ()))
    return Step(int(match[1]), match[2], module.__doc__ or "", sqlite, postgres, adopted)


@cache
def steps() -> tuple[Step, ...]:
    """Every step in number order; BadStep for two steps of one number. A gap is allowed
    here (steps reserved for work in flight may land out of order: the runner applies the
    ones a database lacks) but not in a release (``check_numbers``, run by the tests)."""
    names = sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if _NAME.fullmatch(m.name))
    found = tuple(_step(name) for name in names)
    numbers = [s.number for s in found]
    if len(set(numbers)) != len(numbers):
        raise BadStep(f"two steps share a number: {numbers}")
    return found


def check_numbers(numbers: list[int]) -> None:
    """BadStep unless ``numbers`` are 1, 2, 3... (a gap is a step lost in a merge)."""
    if numbers != list(range(1, len(numbers) + 1)):
        raise BadStep(f"the steps must be numbered 1, 2, 3... without gaps: {numbers}")


def latest() -> int:
    """The schema version this code writes."""
    return steps()[-1].number


def file_hash(number: int) -> str:
    """sha256 of a step's module file, as ``RELEASED`` lists it."""
    (path,) = HERE.glob(f"m{number:04d}_*.py")
    return hashlib.sha256(path.read_bytes()).hexdigest()


def released() -> dict[int, str]:
    """The released steps' hashes by number (``RELEASED``: ``NNNN sha256`` lines)."""
    lines = (HERE / "RELEASED").read_text().splitlines()
    pairs = (line.split() for line in lines if line.strip() and not line.startswith("#"))
    return {int(number): digest for number, digest in pairs}
