"""Hand analysis against Tenhou's own verdicts in real game records.

Each seat's concealed hand is rebuilt from its haipai, takes and discards alone (the format
needs no turn order for that, see FORMAT.md). Tenhou then tells us three things per round:
a riichi discard leaves a tenpai hand; a winner's hand plus the winning tile is complete and
that tile was one of its waits; after an exhaustive draw, the seats that received tenpai
payments are exactly the tenpai ones (this is where the four-copies rule would show).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.rules import hand as H
from engine.rules.tiles import tenhou_kind
from tests.corpus import files, load


def kind(code: int) -> int:
    return tenhou_kind(code)[0]


def codes(text: str) -> list[int]:
    return [int(text[i : i + 2]) for i in range(0, len(text), 2)]


@dataclass
class Seat:
    """One seat's concealed counts as its takes and discards are applied in order."""

    counts: list[int]
    melds: int = 0
    riichi_ready: list[bool] = field(default_factory=list)
    last_take: int = 0
    last_out: int = -1  # kind of the last tile this seat let go (ron / chankan target)

    def take(self, item: int | str) -> None:
        if isinstance(item, int):
            self.last_take = item
            self.counts[kind(item)] += 1
            return
        at = next(i for i, ch in enumerate(item) if ch.isalpha())
        for code in codes(item[:at] + item[at + 3 :]):  # own tiles: all but the called one
            self.counts[kind(code)] -= 1
        self.melds += 1

    def discard(self, item: int | str) -> None:
        if isinstance(item, int):
            if item:
                self._out(self.last_take if item == 60 else item)
            return
        letter = next(ch for ch in item if ch.isalpha())
        at = item.index(letter)
        if letter == "r":
            self._out(self.last_take if item[1:] == "60" else int(item[1:]))
            self.riichi_ready.append(H.is_tenpai(self.counts))
        elif letter == "a":  # ankan: four own tiles
            for code in codes(item[:at] + item[at + 1 :]):
                self.counts[kind(code)] -= 1
            self.melds += 1
            self.last_out = kind(int(item[at + 1 : at + 3]))
        elif letter in "kf":  # kakan adds one own tile to a pon; kita sets one north aside
            self._out(int(item[at + 1 : at + 3]))

    def _out(self, code: int) -> None:
        self.last_out = kind(code)
        self.counts[self.last_out] -= 1


def play_round(rnd: list[Any], players: int) -> list[Seat]:
    seats = []
    for s in range(players):
        seat = Seat([0] * 34)
        for code in rnd[4 + 3 * s]:
            seat.counts[kind(code)] += 1
        takes, discards = rnd[5 + 3 * s], rnd[6 + 3 * s]
        for i, item in enumerate(takes):
            seat.take(item)
            if i < len(discards):
                seat.discard(discards[i])
        seats.append(seat)
    return seats


@dataclass
class Tally:
    riichi: int = 0
    wins: int = 0
    draws: int = 0
    failures: list[str] = field(default_factory=list)


def check_round(label: str, rnd: list[Any], players: int, tally: Tally) -> None:
    seats = play_round(rnd, players)
    result = rnd[16]
    for s, seat in enumerate(seats):
        tally.riichi += len(seat.riichi_ready)
        if not all(seat.riichi_ready):
            tally.failures.append(f"{label} seat {s}: riichi on a hand we call noten")
    if result[0] == "和了":
        for info in result[2::2]:
            who, source = info[0], info[1]
            hand = seats[who].counts.copy()
            if who == source:
                win = kind(seats[who].last_take)
                hand[win] -= 1
            else:
                win = seats[source].last_out
            tally.wins += 1
            full = hand.copy()
            full[win] += 1
            if win not in H.waits(hand) or not H.is_agari(full):
                tally.failures.append(f"{label}: seat {who} won on {win}, waits {H.waits(hand)}")
    elif result[0] in ("流局", "全員聴牌", "全員不聴"):
        if result[0] == "流局":
            paid = result[1][:players]
            ready = [d > 0 for d in paid]
        else:
            ready = [result[0] == "全員聴牌"] * players
        ours = [H.is_tenpai(seat.counts) for seat in seats]
        tally.draws += 1
        if ours != ready:
            tally.failures.append(f"{label}: tenpai {ours}, Tenhou paid {ready}")


@pytest.mark.parametrize(("folder", "players"), [("tenhou", 4), ("tenhou-sanma", 3)])
def test_tenhou_verdicts_on_riichi_wins_and_draws(folder: str, players: int) -> None:
    tally = Tally()
    for path in files(folder):
        game = load(path)
        for i, rnd in enumerate(game["log"]):
            check_round(f"{path.name} round {i}", rnd, players, tally)
    assert tally.failures == []
    assert tally.riichi > 1000 and tally.wins > 1000 and tally.draws > 100, tally
