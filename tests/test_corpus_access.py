"""Tests reach the Tenhou corpus beside the repository only through ``tests/corpus.py``,
the one place that skips outside CI and fails under ``CI=true`` when it is absent: a test
that opened the folder itself would raise ``FileNotFoundError`` in a fresh clone."""

from __future__ import annotations

import ast
from pathlib import Path

from tests import corpus

ROOT = Path(__file__).resolve().parents[1]
HELPER = ROOT / "tests" / "corpus.py"
SELF = Path(__file__).resolve()
#: the corpus folder's name, as the helper has it (this file never spells it)
FOLDER = corpus.DATA.parent.name


def reaches_corpus(source: str) -> list[int]:
    """The lines of a module's string constants that name the corpus folder (``FOLDER``) as a
    path part, alone or in a path through it."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parts = node.value.replace("\\", "/").split("/")
            if FOLDER in parts:
                lines.append(node.lineno)
    return lines


def test_no_test_file_reaches_the_corpus_past_the_helper() -> None:
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path not in (HELPER, SELF)
        and (found := reaches_corpus(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
    assert reaches_corpus(HELPER.read_text(encoding="utf-8"))  # the helper itself is seen


def test_the_scan_sees_each_way_of_naming_the_folder() -> None:
    assert reaches_corpus(f'ROOT.parent / "{FOLDER}" / "data"\n') == [1]
    assert reaches_corpus(f'x = 1\nopen("../{FOLDER}/data/tenhou/a.json")\n') == [2]
    assert reaches_corpus(f'Path("/work/{FOLDER}/data")\n') == [1]
    assert reaches_corpus(f'"""{FOLDER} by two tests"""\nNAME = "{FOLDER}_state"\n') == []
