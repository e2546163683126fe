"""The state of one hand lives in one record (engine.game.kyoku.Kyoku) that the start of the
next hand replaces whole, and each seat's per-hand fields are all reset by Player.new_round:
nothing set during one hand can survive into the next."""

from __future__ import annotations

import dataclasses

import engine.game.player as player_module
from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.events import AFTER, EXECUTE
from engine.game import new_game
from engine.game.events import NextRound, RoundStarted
from engine.game.game import Game
from engine.game.kyoku import Kyoku
from engine.rules.config import TENHOU_HANCHAN
from engine.rules.kinds import HandEnd
from engine.rules.meld import Meld, MeldType
from engine.rules.wall import Wall
from tests.interpreted import interpreted

#: what the deal itself sets; every other field starts at its default
DEALT = {"wall", "dora_indicators", "turn", "scores", "kyotaku"}
#: the Game's own fields: the match around the hands (a per-hand field belongs in Kyoku)
MATCH_FIELDS = {
    "rules",
    "seed",
    "center",
    "walls",
    "max_rounds",
    "n",
    "bus",
    "resolvers",
    "queue",
    "players",
    "others",
    "kyoku",
    "honba",
    "kyotaku",
    "round_index",
    "round",
    "inquiry",
    "inquiry_ids",
    "decisions",
    "rounds",
    "over",
}


#: a value of each field's own type that no hand ever sets: found in a new hand, it leaked
#: from the last (typed: a Kyoku compiled by mypyc holds nothing but its fields' types; a
#: flag's marker is its non-default value, which ``_leaks`` reports anyway)
POISON: dict[str, object] = {
    "wall": Wall([-7], [], [], []),
    "dora_indicators": [-7],
    "pending_dora": -7,
    "kan_seats": [-7],
    "turn": -7,
    "any_call": True,
    "last_discard": -7,
    "first_discards": [-7],
    "suukaikan_pending": True,
    "kan_meld": Meld(MeldType.KITA, (-7,)),
    "scores": (-7,),
    "kyotaku": -7,
    "renchan": True,
    "end": HandEnd.SUUKAIKAN,
}


def _poisoned(name: str, value: object) -> bool:
    marker = POISON[name]
    return value is marker or (type(value) is type(marker) and value == marker)


def _poison(ev: NextRound) -> None:
    """Between hands, every field of the finished hand becomes a leftover marker."""
    for f in dataclasses.fields(Kyoku):
        setattr(ev.game.round, f.name, POISON[f.name])


def _leaks(game: Game) -> list[str]:
    fresh = Kyoku()
    out = []
    for f in dataclasses.fields(Kyoku):
        value = getattr(game.round, f.name)
        if _poisoned(f.name, value):
            out.append(f.name)
        elif f.name not in DEALT and value != getattr(fresh, f.name):
            out.append(f"{f.name}={value!r}")
    return out


def _fields(game: Game) -> set[str]:
    """The attributes a Game holds: its ``__dict__`` interpreted, its declared fields
    compiled (a native class has no ``__dict__``; mypyc lists every attribute any method
    sets)."""
    attrs: tuple[str, ...] | None = getattr(type(game), "__mypyc_attrs__", None)
    return set(vars(game)) if attrs is None else set(attrs)


def test_no_field_of_one_hand_survives_into_the_next() -> None:
    game = new_game(TENHOU_HANCHAN, 5, RandomCenter(5))
    seen: list[Kyoku] = []
    leaks: list[str] = []

    def check(ev: RoundStarted) -> None:
        assert all(game.round is not old for old in seen), "the last hand's record was reused"
        seen.append(game.round)
        leaks.extend(_leaks(game))

    game.bus.subscribe(NextRound, _poison, EXECUTE)
    game.bus.subscribe(RoundStarted, check, AFTER)
    run_sync(game)
    assert len(seen) >= 8 and game.over
    assert leaks == []


def test_the_leak_check_sees_a_field_reset_by_hand_instead_of_replaced() -> None:
    """The check above fails when the next hand only resets what it remembers to."""
    game = new_game(TENHOU_HANCHAN, 5, RandomCenter(5))
    reset = DEALT | {"any_call", "pending_dora"}  # an old-style partial reset
    for f in dataclasses.fields(Kyoku):
        setattr(game.round, f.name, getattr(Kyoku(), f.name) if f.name in reset else POISON[f.name])
    game.round.kan_seats = [0]  # a value set during the hand, not a marker
    expected = {f.name for f in dataclasses.fields(Kyoku)} - reset - {"kan_seats"}
    assert set(_leaks(game)) == expected | {"kan_seats=[0]"}


def test_the_game_keeps_no_per_hand_field_of_its_own() -> None:
    game = new_game(TENHOU_HANCHAN, 1, RandomCenter(1))
    run_sync(game)
    extra = _fields(game) - MATCH_FIELDS
    assert not extra, f"per-hand state goes in engine.game.kyoku.Kyoku: {sorted(extra)}"


class Poison:
    """A value no seat ever holds (the interpreted Player takes any object)."""

    def __repr__(self) -> str:
        return "<left over from the last hand>"


def test_a_new_hand_resets_every_field_of_a_seat() -> None:
    # the interpreted Player: a compiled one types its fields, so it cannot hold a Poison
    player = interpreted(player_module).Player
    used = player(1, 25000)
    for name in player.__slots__:
        if name not in ("seat", "score", "karaten_melds"):  # the seat and the rules
            setattr(used, name, Poison())
    hand = list(range(0, 52, 4))
    used.new_round(list(hand))
    fresh = player(1, 25000)
    fresh.new_round(list(hand))
    differ = [n for n in player.__slots__ if getattr(used, n) != getattr(fresh, n)]
    assert differ == []
    assert used.score == 25000 and used.seat == 1
