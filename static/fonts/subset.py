"""Rebuild the interface font subsets from Debian's fonts-noto-cjk (SIL OFL 1.1).

Every non-ASCII character the client's own files print (js/*.js, index.html) goes into one
woff2 per script: "Riichi UI JP" from the Japanese face of Noto Sans CJK, "Riichi UI SC" from
the Simplified Chinese face, so Japanese and Chinese labels render on machines without a CJK
font. Run from the repository root after changing a label:
    python3 static/fonts/subset.py
Needs `apt-get install fonts-noto-cjk` and `pip install fonttools brotli`.
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = Path(__file__).resolve().parent
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
#: face index in the collection -> (output file, family name)
FACES = {0: ("ui-jp.woff2", "Riichi UI JP"), 2: ("ui-sc.woff2", "Riichi UI SC")}


def characters() -> str:
    text = "".join(p.read_text() for p in sorted((HERE.parent / "js").glob("*.js")))
    text += (HERE.parent / "index.html").read_text()
    return "".join(sorted({c for c in text if ord(c) > 0x2FFF}))


def build() -> None:
    chars = characters()
    for index, (out, family) in FACES.items():
        # a fresh read per face: the collection's faces share tables a subset would change
        font = TTCollection(str(SOURCE)).fonts[index]
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = []
        options.hinting = False
        options.name_IDs = ["*"]
        sub = subset.Subsetter(options)
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


if __name__ == "__main__":
    build()
