"""The wall (yama): a documented seeded shuffle and the layout every round draws from.

Layout, the contract between the game, the replay importer and the tests:

* ``live``: the live wall in draw order. Haipai is dealt from its front, 13 tiles per seat,
  the dealer first and then counter-clockwise (seat ``(dealer + i) % players`` takes
  ``live[13*i : 13*i + 13]``); ordinary draws continue from there.
* ``rinshan``: replacement tiles for kans (and kita in sanma), in draw order. Sanma may need
  up to eight (``extra``): past the list they are the tiles the live wall gave up to the
  dead wall, ``live[-1]`` first.
* ``dora`` / ``ura``: the five dora and five ura indicators in reveal order.

Each kan or kita shortens the live wall by one from its end, so the dead wall stays
14 tiles, as at a real table: ``remaining`` counts what ordinary draws can still take.

The shuffle is Fisher-Yates driven by SHA-256 in counter mode over
``seed || round_index || counter`` (8-byte big-endian integers; a seed of 2**64 or more is
16 bytes, ``seed_bytes``), with rejection sampling for
uniformity. It depends on nothing but hashlib, so a seed reproduces the same walls on every
platform and Python version. The dead wall is the last 14 tiles of the shuffled 136 (108 in
sanma): ``rinshan`` = positions -14..-11, ``dora`` = -10..-6, ``ura`` = -5..-1.

A game commits to its seed before the first deal with ``seed_commitment`` (a SHA-256 of a
versioned text of the seed, salted since v2), published at once; the seed (and salt) is
revealed when the game ends, so anyone can check that the walls were fixed in advance and
follow from the seed.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence
from typing import Final

from engine.rules.tiles import NUM_TILES, SANMA_REMOVED

DEAD_WALL = 14
#: sanma replacement draws beyond the four rinshan tiles (four kita and four kans at most)
SANMA_EXTRA = 4
#: the domain tag of a seed commitment; a new commitment scheme gets a new version: v1 is
#: ``sha256("riichi-seed-v1:<seed>")`` (63-bit seeds, no salt), v2
#: ``sha256("riichi-seed-v2:<salt>:<seed>")`` (128-bit seeds and a random salt revealed with
#: the seed, so a small seed a player chose cannot be found from its commitment either)
COMMITMENT_TAG = "riichi-seed-v1"
COMMITMENT_TAG_V2 = "riichi-seed-v2"
#: the largest seed: 128 bits
SEED_BITS = 128
SEED_MASK = (1 << SEED_BITS) - 1

_unpack = struct.unpack


class Wall:
    """One round's tiles. Mutable: the game draws from it."""

    __slots__ = (
        "dora",
        "extra",
        "live",
        "live_end",
        "pos",
        "remaining",
        "rinshan",
        "rinshan_pos",
        "ura",
    )

    def __init__(
        self,
        live: Sequence[int],
        rinshan: Sequence[int],
        dora: Sequence[int],
        ura: Sequence[int],
        extra: int = 0,
    ) -> None:
        self.live = list(live)
        self.rinshan = list(rinshan)
        self.dora = list(dora)
        self.ura = list(ura)
        #: replacement draws allowed beyond ``rinshan`` (sanma: kita and kans need up to 8)
        self.extra = extra
        self.pos = 0
        self.live_end = len(self.live)
        #: ordinary draws still possible (0 means the last discard was haitei's), always
        #: ``live_end - pos``: kept as a field, as every turn reads it several times
        self.remaining = self.live_end
        self.rinshan_pos = 0

    @classmethod
    def from_shuffle(cls, tiles: Sequence[int], extra: int = 0) -> Wall:
        """Lay out a shuffled tile list: the last 14 are the dead wall."""
        body, dead = list(tiles[:-DEAD_WALL]), list(tiles[-DEAD_WALL:])
        return cls(body, dead[0:4], dead[4:9], dead[9:14], extra)

    def copy(self) -> Wall:
        """The same tiles, nothing drawn yet."""
        return Wall(self.live, self.rinshan, self.dora, self.ura, self.extra)

    def deal(self, players: int, dealer: int) -> list[list[int]]:
        """Haipai for every seat (index = seat), taken from the front of the live wall."""
        hands: list[list[int]] = [[] for _ in range(players)]
        for i in range(players):
            seat = (dealer + i) % players
            hands[seat] = self.live[self.pos : self.pos + 13]
            self.pos += 13
            self.remaining -= 13
        return hands

    def draw(self) -> int:
        if self.pos >= self.live_end:
            raise IndexError("the live wall is exhausted")
        tile = self.live[self.pos]
        self.pos += 1
        self.remaining -= 1
        return tile

    def draw_rinshan(self) -> int:
        """A replacement draw; the live wall gives up its last tile to the dead wall. Past
        the ``rinshan`` list (sanma's fifth replacement on) the dead wall hands out the
        tiles the live wall gave up, first given first: ``live[-1]``, ``live[-2]``, ..."""
        i = self.rinshan_pos
        tile = self.rinshan[i] if i < len(self.rinshan) else self.live[len(self.rinshan) - 1 - i]
        self.rinshan_pos += 1
        self.live_end -= 1
        self.remaining -= 1
        return tile

    @property
    def rinshan_left(self) -> int:
        return len(self.rinshan) + self.extra - self.rinshan_pos


def _stream(seed: bytes, round_index: int) -> Iterator[int]:
    """An endless stream of 64-bit words from SHA-256 in counter mode."""
    prefix = seed + round_index.to_bytes(8, "big")
    counter = 0
    while True:
        yield from _words(prefix, counter, 1)
        counter += 1


def _words(prefix: bytes, counter: int, blocks: int) -> tuple[int, ...]:
    """The words of ``blocks`` digests from ``counter`` on, four per digest, in stream order."""
    sha256 = hashlib.sha256
    data = b"".join(
        sha256(prefix + c.to_bytes(8, "big")).digest() for c in range(counter, counter + blocks)
    )
    return _unpack(f">{4 * blocks}Q", data)


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n) by rejection sampling."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        w = next(words)
        if w < limit:
            return w % n


#: the lowest rejection bound of the range sizes a shuffle draws from (see ``_below``): no
#: word under it is rejected by any swap, so one test clears the whole shuffle
_LOWEST_LIMIT = min((1 << 64) - (1 << 64) % n for n in range(2, NUM_TILES + 1))


#: the tiles in id order before a shuffle: (four players, sanma)
_UNSHUFFLED = (
    tuple(range(NUM_TILES)),
    tuple(t for t in range(NUM_TILES) if t >> 2 not in SANMA_REMOVED),
)


def seed_bytes(seed: int | str | bytes) -> bytes:
    """Normalise a user seed: ints below 2**64 as 8-byte big-endian (every seed before
    v2, so old games replay the same), larger ones as 16 bytes (masked to 128 bits),
    strings as UTF-8."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, str):
        return seed.encode()
    if 0 <= seed < 2**64:
        return seed.to_bytes(8, "big")
    return (seed & SEED_MASK).to_bytes(16, "big")


#: the counter of each digest a shuffle takes, as the 8 bytes it hashes
_COUNTERS: Final = tuple(c.to_bytes(8, "big") for c in range((NUM_TILES + 2) // 4))
#: [size] -> 2**32 % size: a word ``hi * 2**32 + lo`` is ``(hi % size * this + lo) % size``
#: modulo ``size``, all in machine ints (a 64-bit word is a big int to the compiled code)
_TWO32_MOD: Final = tuple((1 << 32) % n if n else 0 for n in range(NUM_TILES + 1))
#: a word whose high half is below this is below ``_LOWEST_LIMIT``: no swap rejects it
_BOUND_HIGH: Final = _LOWEST_LIMIT >> 32


def _halves(prefix: bytes, blocks: int) -> tuple[int, ...]:
    """The words of ``_words(prefix, 0, blocks)`` as 32-bit halves, each word's high half
    first: the same digests, unpacked as machine-sized ints."""
    sha256 = hashlib.sha256
    data = b"".join([sha256(prefix + c).digest() for c in _COUNTERS[:blocks]])
    return _unpack(f">{8 * blocks}I", data)


def shuffled_tiles(seed: int | str | bytes, round_index: int, sanma: bool = False) -> list[int]:
    """The shuffled physical tiles of round ``round_index`` of the game with ``seed``.

    The words ``_stream`` would give, hashed in one go (a generator step per word cost ~4% of
    self-play), as 32-bit halves (``_TWO32_MOD``); when one of them may be at or over the
    lowest rejection bound (``_BOUND_HIGH``: about one hand in 2**25) some swap may
    reject it, and the word-by-word reference shuffles instead."""
    tiles = list(_UNSHUFFLED[sanma])
    key = seed_bytes(seed)
    n = len(tiles)
    blocks = (n + 2) // 4  # one word per swap (one spare)
    halves = _halves(key + round_index.to_bytes(8, "big"), blocks)
    for k in range(0, 2 * (n - 1), 2):
        if halves[k] >= _BOUND_HIGH:  # this word may be rejected by its swap
            return _shuffled_slowly(key, round_index, sanma)
    two32 = _TWO32_MOD
    k = 0
    for i in range(n - 1, 0, -1):
        size = i + 1
        j = (halves[k] % size * two32[size] + halves[k + 1]) % size
        tiles[i], tiles[j] = tiles[j], tiles[i]
        k += 2
    return tiles


def _shuffled_slowly(seed: bytes, round_index: int, sanma: bool) -> list[int]:
    """The same shuffle word by word from the stream (the reference; after a rejection)."""
    tiles = list(_UNSHUFFLED[sanma])
    words = _stream(seed, round_index)
    for i in range(len(tiles) - 1, 0, -1):
        j = _below(words, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def seeded_wall(seed: int | str | bytes, round_index: int, sanma: bool = False) -> Wall:
    """The wall of round ``round_index`` (0, 1, 2… in play order, counting every hand)."""
    return Wall.from_shuffle(shuffled_tiles(seed, round_index, sanma), SANMA_EXTRA if sanma else 0)


def seed_commitment(seed: int, salt: str = "") -> str:
    """The hex SHA-256 commitment to a game's seed: published before the first deal, it binds
    the game to its walls without revealing them. With a ``salt`` (revealed with the seed)
    it is v2, else v1 (games recorded before v2)."""
    if salt:
        return hashlib.sha256(f"{COMMITMENT_TAG_V2}:{salt}:{seed:d}".encode()).hexdigest()
    return hashlib.sha256(f"{COMMITMENT_TAG}:{seed:d}".encode()).hexdigest()
