"""Account names: what may be registered, and the key two names collide on.

An account name is shown everywhere the player plays, so it follows the table-name rules (no
control, bidi or zero-width characters, at most 16 visible characters) and is refused, not
silently repaired, when it breaks them: the name a player types is the name they log in with.
Two names that look alike to a reader (width, case, compatibility forms) share one ``name_key``,
so nobody can register a look-alike of someone else's name.
"""

from __future__ import annotations

import unicodedata

#: visible characters, at most (as table names)
MAX_LENGTH = 16
#: combining marks on one base character, at most
MAX_MARKS = 2
#: controls, formats (bidi, zero-width), surrogates, private use, unassigned, separators
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: names the server itself shows (deleted accounts, guests, bots): never registrable
RESERVED = frozenset({"anonymous", "guest", "bot", "admin", "operator", "system"})


class NameRefused(ValueError):
    """Why a name cannot be registered, in words the player can act on."""


def name_key(name: str) -> str:
    """The form two names collide on: NFKC (full-width, ligatures), case folded.

    >>> name_key("Ｔａｒｏ") == name_key("taro")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def _graphemes(name: str) -> int:
    """Base characters, each with its marks (near enough for names); raises past MAX_MARKS."""
    count = marks = 0
    for ch in name:
        if unicodedata.category(ch) in ("Mn", "Me", "Mc"):
            marks += 1
            if count == 0 or marks > MAX_MARKS:
                raise NameRefused("too many accents on one character")
            continue
        count += 1
        marks = 0
    return count


def check_name(raw: str) -> str:
    """``raw`` in NFC when it may be registered; NameRefused otherwise.

    >>> check_name("Taro")
    'Taro'
    >>> try:
    ...     check_name("a\\u202eb")
    ... except NameRefused as why:
    ...     print(why)
    invisible or control characters are not allowed
    """
    name = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch) in DROPPED for ch in name):
        raise NameRefused("invisible or control characters are not allowed")
    if any(ch.isspace() and ch != " " for ch in name) or "  " in name:
        raise NameRefused("only single plain spaces are allowed")
    if name != name.strip():
        raise NameRefused("no spaces at the start or end")
    length = _graphemes(name)
    if not 1 <= length <= MAX_LENGTH:
        raise NameRefused(f"a name has 1 to {MAX_LENGTH} characters")
    if name_key(name) in RESERVED:
        raise NameRefused("this name is reserved")
    return name
