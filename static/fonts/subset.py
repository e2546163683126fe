"""Rebuild the interface font subsets: every character the client can print, in fonts it ships.

What the client can print (``characters``): every non-ASCII character of its own files
(``static/js/*.js``, ``static/index.html``, in every language) and of the strings the server
sends it (every string constant of ``engine/`` and ``server/`` outside docstrings: preset
labels, yaku and result names, record headers). Each goes into the face that has it:
"Riichi UI JP" and "Riichi UI SC" from the Japanese and Simplified Chinese faces of Noto Sans
CJK Regular (Debian ``fonts-noto-cjk``, SIL OFL 1.1), and what Noto lacks (symbols such as ⚙)
into "Riichi UI Symbols" from DejaVu Sans (Debian ``fonts-dejavu-core``, Bitstream Vera
licence). A character in no source font stops the script (change the text). The
``unicode-range`` of each face in ``css/app.css`` is rewritten to exactly what it holds.

``tests/client/test_fonts.py`` fails when a character is missing, so after adding or changing
any label (a merge included) run, from the repository's root:

    python3 static/fonts/subset.py

It needs ``fonttools`` and ``brotli`` (the test extra pins both) and the two Debian font
files. Installing ``fonts-noto-cjk`` would give the machine a system CJK font, which the
browser glyph test must run without; unpack the package instead and point the script at it:

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb /tmp/noto
    RIICHI_NOTO_CJK=/tmp/noto/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc \
        python3 static/fonts/subset.py
"""

from __future__ import annotations

import ast
import os
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
STATIC = HERE.parent
ROOT = STATIC.parent
CSS = STATIC / "css" / "app.css"
NOTO = Path(
    os.environ.get("RIICHI_NOTO_CJK", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
)
DEJAVU = Path(os.environ.get("RIICHI_DEJAVU", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
#: output file -> (family name, source font, face index in a collection)
FACES = {
    "ui-jp.woff2": ("Riichi UI JP", "noto", 0),
    "ui-sc.woff2": ("Riichi UI SC", "noto", 2),
    "ui-symbols.woff2": ("Riichi UI Symbols", "dejavu", 0),
}


def _python_strings(path: Path) -> str:
    """The string constants of a module that are not docstrings (those never reach a client)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return "".join(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    )


def client_text() -> str:
    """Every text the client can show: its own files and the server's string constants."""
    parts = [p.read_text(encoding="utf-8") for p in sorted((STATIC / "js").glob("*.js"))]
    parts.append((STATIC / "index.html").read_text(encoding="utf-8"))
    for package in ("engine", "server"):
        parts += [_python_strings(p) for p in sorted((ROOT / package).rglob("*.py"))]
    return "".join(parts)


def characters() -> str:
    """The non-ASCII characters the client can print, sorted (spaces and controls aside)."""
    return "".join(sorted({c for c in client_text() if ord(c) > 0x7E and c.isprintable()}))


def ranges(chars: str) -> str:
    """A CSS ``unicode-range`` value naming exactly ``chars``."""
    points = sorted({ord(c) for c in chars})
    spans: list[list[int]] = []
    for p in points:
        if spans and spans[-1][1] == p - 1:
            spans[-1][1] = p
        else:
            spans.append([p, p])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in spans)


def _source(kind: str, index: int) -> Any:
    from fontTools.ttLib import TTCollection, TTFont

    if kind == "noto":  # a fresh read per face: the collection's faces share tables
        return TTCollection(str(NOTO)).fonts[index]
    return TTFont(str(DEJAVU))


def split(chars: str) -> dict[str, str]:
    """Output file -> the characters it holds: the CJK faces take what Noto has, the symbol
    face what Noto lacks and DejaVu has; exits naming any character in neither."""
    noto = {f: set(_source("noto", i).getBestCmap()) for f, (_, k, i) in FACES.items() if k == "noto"}
    dejavu = set(_source("dejavu", 0).getBestCmap())
    out = {f: "".join(c for c in chars if ord(c) in have) for f, have in noto.items()}
    rest = [c for c in chars if not any(ord(c) in have for have in noto.values())]
    out["ui-symbols.woff2"] = "".join(c for c in rest if ord(c) in dejavu)
    lost = [c for c in rest if ord(c) not in dejavu]
    if lost:
        sys.exit(f"no shipped font source has {' '.join(lost)}: use other characters")
    return out


def subset(out: str, chars: str) -> None:
    from fontTools import subset as fontsubset

    family, kind, index = FACES[out]
    font = _source(kind, index)
    options = fontsubset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.hinting = False
    options.name_IDs = ["*"]
    sub = fontsubset.Subsetter(options)
    sub.populate(text=chars)
    sub.subset(font)
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = family
        elif record.nameID == 6:
            record.string = family.replace(" ", "")
    font.flavor = "woff2"
    font.save(str(HERE / out))
    print(out, len(chars), "characters", (HERE / out).stat().st_size, "bytes")


def write_ranges(held: dict[str, str]) -> None:
    """Each face's ``unicode-range`` in app.css: what it holds, no more."""
    css = CSS.read_text(encoding="utf-8")
    for out, chars in held.items():
        line = re.compile(rf'(url\("\.\./fonts/{re.escape(out)}"\)[^}}]*unicode-range: )[^;]*;')
        css, n = line.subn(lambda m, c=chars: f"{m[1]}{ranges(c)};", css)
        if n != 1:
            sys.exit(f"{CSS}: no @font-face with a unicode-range for {out}")
    CSS.write_text(css, encoding="utf-8")


def build() -> None:
    held = split(characters())
    for out, chars in held.items():
        subset(out, chars)
    write_ranges(held)


if __name__ == "__main__":
    build()
