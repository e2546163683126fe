"""Names that look alike: Unicode TS #39's confusable skeleton and its mixed-script test.

Two names collide when their skeletons are equal: every character replaced by the prototype
Unicode's ``confusables.txt`` gives it (Cyrillic ``а`` and Latin ``a``, ``I`` and ``l``,
``rn`` and ``m``), so ``CaroI`` and ``Cаrol`` are both ``Carol`` (``collision_keys``). The
data is the ``confusable_homoglyphs`` package's copy of confusables.txt and Scripts.txt
(pinned in pyproject.toml and requirements.lock), never a table of our own.

That package keeps each line of confusables.txt both ways (source -> prototype and back), so
the direction is read back from its shape: a source maps to one prototype only, so a
character (or string) with several neighbours is a prototype. A pair of single neighbours
(a prototype with one source) cannot say which is which; both then map to the smaller of the
two, which keeps the one property a collision needs: equal skeletons for the pair.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import categories, confusables

#: marks the package's data wraps right-to-left characters in (from confusables.txt's comments)
_MARKS = str.maketrans("", "", "\u200e\u200f")
#: scripts that go with any other (digits, punctuation, combining marks)
NEUTRAL = frozenset({"COMMON", "INHERITED"})
#: scripts written together (UTS #39 "highly restrictive"): Japanese, Chinese, Korean
TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each source character -> its prototype (a string: ``m`` -> ``rn``)."""
    graph: dict[str, set[str]] = {}
    for key, entries in confusables.confusables_data.items():
        node = key.translate(_MARKS)
        for entry in entries:
            other = str(entry["c"]).translate(_MARKS)
            if node and other and node != other:
                graph.setdefault(node, set()).add(other)
                graph.setdefault(other, set()).add(node)
    mapping: dict[str, str] = {}
    for node, neighbours in graph.items():
        if len(node) != 1 or len(neighbours) != 1:
            continue  # a string, or a character many others map to: a prototype
        (other,) = neighbours
        if len(graph[other]) > 1 or len(other) > 1:
            mapping[node] = other  # a source: its one neighbour is its prototype
        elif other < node:
            mapping[node] = other  # a lone pair: both become the smaller
    # a prototype's characters are prototypes, but one may be the larger of a lone pair
    return {k: "".join(mapping.get(ch, ch) for ch in v) for k, v in mapping.items()}


def skeleton(text: str) -> str:
    """TS #39's skeleton: NFD, each character its prototype, NFD again.

    >>> skeleton("CaroI") == skeleton("Carol") == skeleton("C\\u0430rol")
    True
    """
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=1 << 17)
def collision_keys(name: str) -> frozenset[str]:
    """What two names collide on (they do when these share one): after NFKC, the skeleton
    of the case-folded name, and the skeleton of the case-folded skeleton. The first makes
    ``ADMIN`` meet ``admin``; the second ``CaroI`` meet ``carol``, since ``I`` looks like
    ``l`` only before case folding makes it ``i``.

    >>> bool(collision_keys("CaroI") & collision_keys("carol"))
    True
    >>> bool(collision_keys("ADMIN") & collision_keys("admin"))
    True
    >>> bool(collision_keys("Caroi") & collision_keys("carol"))
    False
    """
    text = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(text.casefold()), skeleton(skeleton(text).casefold())})


def scripts(name: str) -> frozenset[str]:
    """The scripts of ``name``'s letters (Scripts.txt), the neutral ones left out."""
    return frozenset(categories.alias(ch).upper() for ch in name) - NEUTRAL


def mixed_script(name: str) -> bool:
    """More than one script, unless they are ones written together (Japanese kana and kanji
    with Latin, and the like).

    >>> mixed_script("C\\u0430rol"), mixed_script("Taro 太郎たろう"), mixed_script("Carol 2")
    (True, False, False)
    """
    found = scripts(name)
    return len(found) > 1 and not any(found <= allowed for allowed in TOGETHER)
