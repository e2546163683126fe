"""Tests reach the shared Tenhou corpus (../shared/data) only through ``tests/corpus.py``,
the one place that skips outside CI and fails under ``CI=true`` when it is absent: a test
that opened the folder itself would raise ``FileNotFoundError`` in a fresh clone."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELPER = ROOT / "tests" / "corpus.py"
SELF = Path(__file__).resolve()  # its examples name the folder


def reaches_shared(source: str) -> list[int]:
    """The lines of a module's string constants that name the shared folder: ``"shared"`` as a
    path part, or a path through it (``../shared``, ``/work/shared/data``)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parts = node.value.replace("\\", "/").split("/")
            if "shared" in parts:
                lines.append(node.lineno)
    return lines


def test_no_test_file_reaches_the_shared_corpus_past_the_helper() -> None:
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path not in (HELPER, SELF)
        and (found := reaches_shared(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
    assert reaches_shared(HELPER.read_text(encoding="utf-8"))  # the helper itself is seen


def test_the_scan_sees_each_way_of_naming_the_folder() -> None:
    assert reaches_shared('ROOT.parent / "shared" / "data"\n') == [1]
    assert reaches_shared('x = 1\nopen("../shared/data/tenhou/a.json")\n') == [2]
    assert reaches_shared('Path("/work/shared/data")\n') == [1]
    assert reaches_shared('"""shared by two tests"""\nNAME = "shared_state"\n') == []
