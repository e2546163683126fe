"""Bagime (場決め): the seats of a game, drawn from its seed.

At a real table the players draw wind tiles to sit; here the seed, committed to before the
first deal (``engine.rules.wall.seed_commitment``), draws them, so the draw was fixed before
anyone joined and anyone can check it once the seed is revealed.

The players of a room take *places* 0, 1, 2... in the order they sat down (the creator's is
place 0; bots take the last places). ``bagime(seed, players)`` is the tuple ``draw`` with
``draw[place]`` = the seat (0 = the first dealer, East) that place plays. It is a
Fisher-Yates shuffle of ``[0, 1, ..., players - 1]`` (``i`` from ``players - 1`` down to 1,
swap ``i`` with ``j`` uniform in ``[0, i]``) driven by 64-bit big-endian words of

    SHA-256(f"riichi-bagime-v1:{seed}:{counter}")   counter = 0, 1, 2...

(four words per digest, in order; ``{seed}`` is the seed in decimal, as the commitment writes
it), each ``j`` by rejection sampling: a word ``w`` at or over ``2**64 - 2**64 % (i + 1)`` is
skipped, else ``j = w % (i + 1)``. The labelled hash of the seed's text makes the draw
independent of the seed's width and of the walls' stream (``wall._stream``); a new scheme gets
a new label.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator

#: the domain label of the seat draw; a new derivation gets a new version
BAGIME_TAG = "riichi-bagime-v1"


def seed_text(seed: int | str | bytes) -> str:
    """The seed as the draw hashes it: an int in decimal (any width), a str as it is, bytes
    in hex (engine tests play with str and bytes seeds; the server's are ints)."""
    if isinstance(seed, bytes):
        return seed.hex()
    if isinstance(seed, str):
        return seed
    return f"{seed:d}"


def _words(seed: int | str | bytes) -> Iterator[int]:
    """The endless stream of 64-bit words the draw reads."""
    prefix = f"{BAGIME_TAG}:{seed_text(seed)}:"
    counter = 0
    while True:
        digest = hashlib.sha256(f"{prefix}{counter}".encode()).digest()
        yield from struct.unpack(">4Q", digest)
        counter += 1


def bagime(seed: int | str | bytes, players: int) -> tuple[int, ...]:
    """``draw[place]``: the seat the player in ``place`` (join order) plays (see above)."""
    draw = list(range(players))
    words = _words(seed)
    for i in range(players - 1, 0, -1):
        size = i + 1
        limit = (1 << 64) - (1 << 64) % size
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % size
        draw[i], draw[j] = draw[j], draw[i]
    return tuple(draw)
