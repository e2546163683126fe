"""Every character the client can print is in a font it ships (static/fonts/): the subset
script's own list of them (``characters``: the client's files in every language and the
strings the server sends) against each shipped face's cmap and its ``unicode-range`` in
app.css; and every font stack of app.css falls back to those faces. After adding a label, run
``python3 static/fonts/subset.py`` (static/fonts/README.md)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "static" / "fonts"
CSS = (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
#: the faces each page language's stack reaches (``--ui-fonts``)
STACKS = {"en/ja": ("ui-jp.woff2", "ui-symbols.woff2"), "zh": ("ui-sc.woff2", "ui-symbols.woff2")}


def _subset() -> ModuleType:
    spec = importlib.util.spec_from_file_location("riichi_font_subset", FONTS / "subset.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUBSET = _subset()


def _range(out: str) -> set[int]:
    """The code points app.css's ``unicode-range`` routes to the face of file ``out``."""
    found = re.search(rf'url\("\.\./fonts/{re.escape(out)}"\)[^}}]*unicode-range: ([^;]*);', CSS)
    assert found, out
    points: set[int] = set()
    for part in found[1].split(","):
        low, _, high = part.strip().removeprefix("U+").partition("-")
        points.update(range(int(low, 16), int(high or low, 16) + 1))
    return points


def _shown(out: str) -> set[int]:
    """What a face can draw: in its cmap and in its range."""
    return set(TTFont(str(FONTS / out)).getBestCmap()) & _range(out)


def test_every_character_the_client_prints_is_in_a_shipped_face_it_reaches() -> None:
    chars = SUBSET.characters()
    # the script reads what the lobby and tables print: labels in ja and zh, the server's
    # preset labels (雀魂, Mリーグ), punctuation (、・（）): once missing from the subsets
    assert set("、・型我次类轮類（）グ雀魂麻⚙×…") <= set(chars)
    for stack, faces in STACKS.items():
        drawn = set().union(*(_shown(out) for out in faces))
        missing = "".join(c for c in chars if ord(c) not in drawn)
        assert missing == "", f"{stack}: run python3 static/fonts/subset.py ({missing})"


def test_every_font_stack_falls_back_to_the_shipped_faces() -> None:
    rules = re.sub(r"@font-face\s*\{[^}]*\}", "", re.sub(r"/\*.*?\*/", "", CSS, flags=re.S))
    stacks = re.findall(r"(?:font-family|font)\s*:\s*([^;}]*)", rules)
    families = [s for s in stacks if s.strip() != "inherit"]
    assert len(families) >= 6  # the root's, zh's, the language menu's, the monospace ones
    for stack in families:
        assert "var(--ui-fonts)" in stack or '"Riichi UI SC", "Riichi UI Symbols"' in stack, stack
    for lang in ("", ":lang(zh)"):
        root = re.search(rf":root{re.escape(lang)} \{{[^}}]*--ui-fonts: ([^;]*);", rules)
        assert root, lang
        assert '"Riichi UI Symbols"' in root[1] and "Riichi UI" in root[1].split(",")[0]


def test_the_script_reads_the_servers_strings_but_not_its_docstrings(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""説明"""\nLABEL = "雀魂"\n\n\ndef f() -> None:\n    """文書"""\n')
    assert SUBSET._python_strings(module) == "雀魂"
    assert SUBSET.ranges("abcz") == "U+61-63, U+7A"
