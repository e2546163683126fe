"""Account names: what may be registered, the key a login finds it by, and the key two
names collide on.

An account name is shown everywhere the player plays, so it follows the table-name rules (no
control, bidi or zero-width characters, at most 16 visible characters) and is refused, not
silently repaired, when it breaks them: the name a player types is the name they log in with.
It holds no invisible character (Unicode's default-ignorables: U+034F, variation selectors,
the Hangul fillers; and the blank U+2800) and letters of one script (or of scripts written
together: server/accounts/lookalike.py). Registration and login find an account by one
``name_key`` (width, case, compatibility forms) with one bound, ``KEY_MAX``; a new name must
also differ in its confusable skeleton (``lookalike.collision_keys``) from every account's
and from every name the server itself shows (``reserved``).
"""

from __future__ import annotations

import functools
import unicodedata

from server.accounts import lookalike
from server.storage.sqlite import Store

#: visible characters, at most (as table names)
MAX_LENGTH = 16
#: combining marks on one base character, at most
MAX_MARKS = 2
#: controls, formats (bidi, zero-width), surrogates, private use, unassigned, separators
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: the lookup key's characters, at most: registration and login share it
KEY_MAX = 64
#: names the server itself shows (deleted accounts, guests, bots): never registrable
RESERVED = frozenset({"anonymous", "guest", "bot", "admin", "operator", "system", "mjai"})
#: what a bot seat shows (server/session/rooms.py ``Seat.seat_bot``: ``Bot 1``..``Bot 4``),
#: and its forms with other numbers or no space
BOTS = frozenset({f"bot {n}" for n in range(100)} | {f"bot{n}" for n in range(100)})
#: Default_Ignorable_Code_Point (Unicode 15.1 DerivedCoreProperties.txt) beyond the format
#: characters ``DROPPED`` already refuses: drawn as nothing, or as blank space
IGNORABLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0x1D173, 0x1D17A),  # musical symbol formats
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
#: blank as a space but neither a space nor ignorable
BLANK = frozenset({"\u2800"})


class NameRefused(ValueError):
    """Why a name cannot be registered, in words the player can act on."""


def name_key(name: str) -> str:
    """The form a login finds an account by (and two names collide on exactly): NFKC
    (full-width, ligatures), case folded.

    >>> name_key("Ｔａｒｏ") == name_key("taro")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def lookup_key(name: str) -> str | None:
    """``name_key`` within ``KEY_MAX``, None past it: no such name can be registered, so a
    login for it is a wrong name (and ``check_name`` refuses it with the same bound).

    >>> lookup_key("\ufdfa" * 4) is None  # four characters, 72 in NFKC
    True
    """
    key = name_key(name)
    return key if len(key) <= KEY_MAX else None


def invisible(ch: str) -> bool:
    """Drawn as nothing or blank: a format or other dropped character, an ignorable one."""
    if unicodedata.category(ch) in DROPPED or ch in BLANK:
        return True
    point = ord(ch)
    return any(low <= point <= high for low, high in IGNORABLE)


def reserved(name: str) -> bool:
    """``name`` is, or looks like, one the server itself shows (``Bot 2``, ``аdmin``)."""
    return not lookalike.collision_keys(name).isdisjoint(_reserved_keys())


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset().union(*(lookalike.collision_keys(n) for n in RESERVED | BOTS))


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
    if any(invisible(ch) for ch in name):
        raise NameRefused("invisible or control characters are not allowed")
    if any(ch.isspace() and ch != " " for ch in name) or "  " in name:
        raise NameRefused("only single plain spaces are allowed")
    if name != name.strip():
        raise NameRefused("no spaces at the start or end")
    length = _graphemes(name)
    if not 1 <= length <= MAX_LENGTH or lookup_key(name) is None:
        raise NameRefused(f"a name has 1 to {MAX_LENGTH} characters")
    if lookalike.mixed_script(name):
        raise NameRefused("a name is written in one script (kana and kanji may go with Latin)")
    if reserved(name):
        raise NameRefused("this name is reserved")
    return name


def alike(store: Store, name: str) -> list[tuple[int, str]]:
    """(id, name) of every account whose name looks like ``name`` (a shared collision key).

    Every name is compared, not a stored column: accounts registered before the skeleton
    existed keep working, and the CLI sees all of them (``collision_keys`` is memoised, so a
    scan of 100,000 names is a dictionary lookup each)."""
    keys = lookalike.collision_keys(name)
    rows = store.query("SELECT id, name FROM accounts", ())
    return [
        (int(str(r[0])), str(r[1]))
        for r in rows
        if not keys.isdisjoint(lookalike.collision_keys(str(r[1])))
    ]
