"""Seeded self-play: privacy of every seat's stream, determinism, invariants."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import msgspec
import pytest

from engine.actions import ActionType as A
from engine.actions import MultiPlayerInquiry, SinglePlayerInquiry
from engine.centers import RandomCenter, ReplayCenter
from engine.driver import run_sync
from engine.events import AFTER, EventBase, late
from engine.game import Game, new_game
from engine.game.events import Draw, Haipai
from engine.rules.config import TENHOU_HANCHAN, TENHOU_TONPUU
from engine.rules.hand import shanten
from engine.rules.tiles import to_counts
from engine.rules.wall import Wall
from engine.view import project
from tests.engine.table import check_invariants

#: events that show hands on purpose (a win, the tenpai hands of a drawn hand)
REVEALS = {"Agari", "Ryuukyoku", "GameEnded", "RoundStarted", "BeginGame"}


def _tiles(event: Any) -> set[int]:
    """Every tile id an event carries in its tile fields."""
    out: set[int] = set()
    for name in ("tile", "tiles", "indicator", "dora_indicator"):
        value = getattr(event, name, None)
        if isinstance(value, int) and value >= 0:
            out.add(value)
        elif isinstance(value, tuple):
            out.update(value)
    meld = getattr(event, "meld", None)
    if meld is not None:
        out.update(meld.tiles)
    return out


class PrivacyCenter(RandomCenter):
    """Random answers; checks at delivery that no seat sees a tile still hidden from it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, wants_events=True)
        self.game: Game | None = None
        self.delivered = 0
        #: the hand's wall and where each of its live and replacement tiles lies
        self._wall: Wall | None = None
        self._live_at: dict[int, int] = {}
        self._rinshan_at: dict[int, int] = {}

    def on_event(self, seat: int | None, event: EventBase) -> None:
        if seat is None or self.game is None or event.name in REVEALS:
            return
        self.delivered += 1
        shown = _tiles(event)
        if shown:
            leaked = {t for t in shown if self._hidden(self.game, seat, t)}
            assert not leaked, (seat, event, leaked)
        if isinstance(event, Haipai):
            assert (event.tiles is not None) == (event.seat == seat)

    def _hidden(self, game: Game, seat: int, tile: int) -> bool:
        """Whether ``tile`` is still concealed from ``seat``: in another seat's hand, in the
        live or replacement wall past the draws, an unturned dora indicator or an ura
        indicator. Asked per tile an event shows (most show one or none), not by building
        every concealed tile's set for every event."""
        for p in game.players:  # a plain loop: this runs for every tile of every event
            if p.seat != seat and tile in p.hand:
                return True
        wall = game.wall
        if wall is not self._wall:  # a new hand: index its wall once
            self._wall = wall
            self._live_at = {t: i for i, t in enumerate(wall.live)}
            self._rinshan_at = {t: i for i, t in enumerate(wall.rinshan)}
        return (
            self._live_at.get(tile, -1) >= wall.pos
            or self._rinshan_at.get(tile, -1) >= wall.rinshan_pos
            or (tile in wall.dora and tile not in game.dora_indicators)
            or tile in wall.ura
        )


#: 1,000 games in CI (about 100 s of CPU), 100 in a local run; PRIVACY_GAMES=N for any count
PRIVACY_GAMES = int(os.environ.get("PRIVACY_GAMES", "1000" if os.environ.get("CI") else "100"))
PRIVACY_CHUNKS = 4


@pytest.mark.parametrize("chunk", range(PRIVACY_CHUNKS))
def test_no_seat_ever_sees_a_concealed_tile_of_another_in_seeded_games(chunk: int) -> None:
    """PRIVACY_GAMES seeded tonpuusen games, in four chunks so that parallel workers share
    them."""
    seeds = range(chunk, PRIVACY_GAMES, PRIVACY_CHUNKS)
    for seed in seeds:
        center = PrivacyCenter(seed)
        game = new_game(TENHOU_TONPUU, seed, center)
        center.game = game
        run_sync(game)
        assert game.over and center.delivered > 0
    print(f"privacy: {len(seeds)} seeded tonpuusen games checked")


@pytest.mark.parametrize("where", ["hand", "wall", "ura"])
def test_the_privacy_check_catches_a_concealed_tile_shown_to_another_seat(where: str) -> None:
    """The check above can fail: a tile of another seat's hand, the next live wall tile or
    an ura indicator, shown to the next seat at the first draw, is caught."""
    center = PrivacyCenter(0)
    game = new_game(TENHOU_TONPUU, 0, center)
    center.game = game

    def leak(ev: Draw) -> None:
        wall = game.wall
        tile = {"hand": ev.tile, "wall": wall.live[wall.pos], "ura": wall.ura[0]}[where]
        center.on_event((ev.seat + 1) % 4, Draw(seat=ev.seat, tile=tile))

    game.bus.subscribe(Draw, leak, late(AFTER))
    with pytest.raises(AssertionError, match="Draw"):
        run_sync(game)


def test_draw_tiles_reach_only_their_owner() -> None:
    center = RandomCenter(3, wants_events=True)
    run_sync(new_game(TENHOU_TONPUU, 3, center))
    draws = [(s, e) for s, e in center.events if type(e).__name__ == "Draw"]
    assert draws
    for seat, event in draws:
        assert (event.tile is not None) == (seat is None or seat == event.seat)


def test_seed_and_decisions_reproduce_the_game() -> None:
    for seed in range(3):
        first = new_game(TENHOU_HANCHAN, seed, RandomCenter(seed + 100))
        run_sync(first)
        again = new_game(TENHOU_HANCHAN, seed, ReplayCenter(first.decisions))
        run_sync(again)
        assert again.decisions == first.decisions
        assert msgspec.json.encode(again.rounds) == msgspec.json.encode(first.rounds)
        assert again.scores == first.scores


def test_invariants_hold_after_every_event_of_random_games() -> None:
    for seed in range(6):
        game = new_game(TENHOU_HANCHAN, seed, RandomCenter(seed))
        game.bus.subscribe(EventBase, check_invariants, late(AFTER))
        run_sync(game)
        assert game.over
        assert sum(game.scores) == 100000


class GreedyCenter(RandomCenter):
    """Wins, riichi and shanten-lowering discards, some random calls: hands that end in wins
    (uniform random play almost never wins)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.game: Game | None = None

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for seat in sorted(inquiry.players):
            if not inquiry.done:
                inquiry.respond(seat, *self._choose(inquiry.players[seat]))

    def _choose(self, single: SinglePlayerInquiry) -> tuple[int, int]:
        types = [a.type for a in single.actions]
        for want in (A.TSUMO, A.RON, A.RIICHI, A.NEXT_ROUND):
            if want in types:
                i = types.index(want)
                return i, self.rng.randrange(len(single.actions[i].options))
        calls = [i for i, t in enumerate(types) if t in (A.PON, A.CHII, A.DAIMINKAN, A.ANKAN)]
        if calls and self.rng.random() < 0.3:
            i = self.rng.choice(calls)
            return i, self.rng.randrange(len(single.actions[i].options))
        if A.DISCARD not in types:
            return single.default()
        i = types.index(A.DISCARD)
        assert self.game is not None
        hand = self.game.players[single.seat].hand
        scored = []
        for oi, option in enumerate(single.actions[i].options):
            rest = list(hand)
            rest.remove(option.tiles[0])
            scored.append((shanten(to_counts(rest)), self.rng.random(), oi))
        return i, min(scored)[2]


def test_invariants_hold_in_games_full_of_wins_calls_and_riichi() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(4):
        center = GreedyCenter(seed)
        game = new_game(TENHOU_TONPUU, seed, center)
        center.game = game
        game.bus.subscribe(EventBase, check_invariants, late(AFTER))
        run_sync(game)
        assert game.over
        kinds.update(r.kind for r in game.rounds)
    assert kinds["agari"] >= 5, kinds


def test_every_projected_event_encodes_as_json_tagged_with_its_type() -> None:
    center = GreedyCenter(11)
    center.wants_events = True
    game = new_game(TENHOU_TONPUU, 11, center)
    center.game = game
    run_sync(game)
    names = set()
    for _seat, event in center.events:
        data = msgspec.json.decode(msgspec.json.encode(event))
        assert data["type"] == type(event).__name__
        names.add(data["type"])
    assert {"RoundStarted", "Haipai", "Draw", "Discard", "Agari", "GameEnded"} <= names


def test_each_seat_gets_its_projection_and_seats_alike_share_one_object() -> None:
    """broadcast hands every seat ``project(event, seat)``, and all seats that see the same
    fields the same object, so the server encodes each visibility class once."""
    center = GreedyCenter(12)
    center.wants_events = True
    game = new_game(TENHOU_TONPUU, 12, center)
    center.game = game
    run_sync(game)
    shared = 0
    for at in range(0, len(center.events), game.n + 1):
        *seen, (god_seat, god) = center.events[at : at + game.n + 1]
        assert god_seat is None
        assert [s for s, _ in seen] == list(range(game.n))
        for seat, event in seen:
            assert msgspec.json.encode(event) == msgspec.json.encode(project(god, seat))
        distinct = {id(event) for _, event in seen}
        assert len(distinct) <= 2
        shared += len(distinct) == 2
    assert shared > 100  # private fields (draws, hands) were there to share
