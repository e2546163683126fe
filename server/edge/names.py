"""Player names as other players will see them: no control or bidi characters, a bounded
number of characters the eye sees.

A name is shown to every seat and spectator, so a name that reverses the text after it
(U+202E), hides itself (zero-width characters) or stacks a hundred combining marks would
mislead or break other people's screens. ``clean_name`` keeps letters, marks, numbers,
punctuation, symbols and plain spaces; it counts a base character with its combining marks
as one (a grapheme, near enough for names) and keeps at most ``MAX_MARKS`` marks on each.
"""

from __future__ import annotations

import unicodedata

#: characters the eye sees, at most
MAX_LENGTH = 16
#: combining marks kept on one base character (Vietnamese needs two)
MAX_MARKS = 2
#: Unicode categories dropped: controls, formats (bidi, zero-width), surrogates, private
#: use, unassigned, and line/paragraph separators
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_name(raw: str) -> str:
    """``raw`` made safe to show: NFC, dropped categories removed, runs of spaces as one,
    trimmed, at most MAX_LENGTH graphemes ('' when nothing is left)."""
    out: list[str] = []
    graphemes = 0
    marks = 0
    for ch in unicodedata.normalize("NFC", raw):
        category = unicodedata.category(ch)
        if category in DROPPED:
            continue
        if category.startswith("Z"):  # any space becomes one plain space
            if not out or out[-1] == " ":
                continue
            ch = " "
        if category in ("Mn", "Me", "Mc"):
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
            out.append(ch)
            continue
        if graphemes >= MAX_LENGTH:
            break
        graphemes += 1
        marks = 0
        out.append(ch)
    return "".join(out).strip()
