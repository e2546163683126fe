"""The integer step API: complete games, exact masks, refusals, determinism (docs/env.md)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.actions import ActionType
from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.env import ACTION_DIM, MahjongEnv
from engine.game import new_game
from engine.rules import tiles
from engine.rules.config import TENHOU_HANCHAN
from engine.rules.meld import MeldType
from engine.rules.wall import Wall

#: the engine action type an index stands for (second-step indices 48/52 included)
_TYPES = {
    **dict.fromkeys(range(37), ActionType.DISCARD),
    **dict.fromkeys(range(37, 43), ActionType.CHII),
    43: ActionType.PON,
    44: ActionType.PON,
    45: ActionType.ANKAN,
    46: ActionType.DAIMINKAN,
    47: ActionType.KAKAN,
    48: ActionType.RIICHI,
    49: ActionType.RON,
    50: ActionType.TSUMO,
    51: ActionType.KYUUSHU,
    52: ActionType.DISCARD,
    53: ActionType.SKIP,
}


def _index_of_tile(tile: int) -> int:
    return 34 + (tile >> 2) // 9 if tile in TENHOU_HANCHAN.red else tile >> 2


def _play(env: MahjongEnv, seed: int, choose: random.Random, limit: int | None = None) -> list[int]:
    """Random legal play from reset(seed); returns the indices chosen."""
    env.reset(seed)
    chosen: list[int] = []
    while not env.done and (limit is None or len(chosen) < limit):
        legal = env.legal_actions()
        chosen.append(legal[choose.randrange(len(legal))])
        env.step(chosen[-1])
    return chosen


def _wall(hands: list[str | None], draws: str = "") -> Callable[[int], Wall]:
    """A wall dealing ``hands`` (dealer first, mpsz; None = filled from the rest) and then
    ``draws``; the unused tiles follow in id order, the last 14 the dead wall."""
    named = [h for h in hands if h is not None]
    fixed = tiles.parse("".join(named) + draws)
    rest = [t for t in range(136) if t not in set(fixed)]
    dealt: list[int] = []
    pos = 0
    for h in hands:
        if h is None:
            dealt += rest[:13]
            rest = rest[13:]
        else:
            dealt += fixed[pos : pos + 13]
            pos += 13
    order = dealt + fixed[pos:] + rest
    return lambda _round: Wall.from_shuffle(order)


def _scripted(hands: list[str | None], draws: str = "") -> MahjongEnv:
    env = MahjongEnv(max_rounds=1, walls=_wall(hands, draws))
    env.reset(0)
    return env


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("seed", [3, 11])
def test_random_agents_finish_a_hanchan_with_every_mask_a_real_choice(seed: int) -> None:
    env = MahjongEnv()
    choose = random.Random(seed)
    env.reset(seed)
    steps = 0
    while not env.done:
        mask = env.action_mask()
        legal = env.legal_actions()
        assert len(mask) == ACTION_DIM
        assert legal == [i for i in range(ACTION_DIM) if mask[i]]
        assert len(legal) >= 2
        env.step(legal[choose.randrange(len(legal))])
        steps += 1
    assert env.current_player == -1
    assert sum(env.scores) == 100_000
    assert len(env.game.rounds) >= 8 or min(env.scores) < 0
    assert steps > 50 * len(env.game.rounds)


def _offered(env: MahjongEnv) -> set[tuple[ActionType, tuple[tuple[int, bool], ...]]]:
    """The current seat's engine answers, copies of one kind (and redness) merged."""
    inquiry = env.game.inquiry
    assert inquiry is not None
    return {
        (action.type, tuple(sorted((t >> 2, t in TENHOU_HANCHAN.red) for t in option.tiles)))
        for action in inquiry.players[env.current_player].actions
        for option in action.options
    }


def _check_answer(index: int, kind: str, action: ActionType, tiles: tuple[int, ...]) -> None:
    """The engine answer a stepped index produced is the one the table names."""
    if kind == "kan":
        assert action in (ActionType.ANKAN, ActionType.KAKAN) and tiles[0] >> 2 == index
    elif index < 37:
        assert action in (ActionType.DISCARD, ActionType.RIICHI)
        assert _index_of_tile(tiles[0]) == index
    elif action is not ActionType.NEXT_ROUND:
        assert action is _TYPES[index], (index, action)


@pytest.mark.parametrize("seed", [5, 45])
def test_indices_and_engine_answers_match_both_ways(seed: int) -> None:
    """Every index stepped becomes the engine answer it names, and every distinct engine
    answer is a leaf of the index tree (first step plus followups). Seeds 5 and 45 happen to
    reach a riichi and an ambiguous-kan second step; the scripted tables below pin those."""
    env = MahjongEnv()
    choose = random.Random(seed)
    env.reset(seed)
    seen: set[str] = set()
    while not env.done:
        seat, kind, legal = env.current_player, env.step_kind, env.legal_actions()
        inquiry = env.game.inquiry
        assert inquiry is not None
        single = inquiry.players[seat]
        if kind in ("turn", "response"):
            leaves = sum(max(1, len(env.followups(i))) for i in legal)
            assert leaves == len(_offered(env)), (legal, single.actions)
        index = legal[choose.randrange(len(legal))]
        env.step(index)
        seen.add(kind)
        if env.current_player == seat and env.step_kind in ("riichi", "kan"):
            continue  # the engine hears the answer after the second step
        got = single.chosen
        assert got is not None
        _check_answer(index, kind, got[0].type, got[1].tiles)
    assert {"turn", "response"} <= seen


def test_env_decisions_replay_through_the_plain_engine() -> None:
    env = MahjongEnv()
    _play(env, 21, random.Random(21))
    replayed = run_sync(new_game(TENHOU_HANCHAN, 21, ReplayCenter(env.game.decisions)))
    assert replayed.scores == env.game.scores
    assert [r.deltas for r in replayed.rounds] == [r.deltas for r in env.game.rounds]


# ---------------------------------------------------------------- refusals and determinism


def test_illegal_index_raises_and_the_game_goes_on_unchanged() -> None:
    reference = MahjongEnv()
    choices = _play(reference, 4, random.Random(4))
    env = MahjongEnv()
    env.reset(4)
    for n, index in enumerate(choices):
        if n % 50 == 0:
            before = (env.current_player, env.step_kind, env.legal_actions())
            illegal = [i for i in range(-1, ACTION_DIM + 2) if i not in before[2]]
            for bad in illegal[:: max(1, len(illegal) // 8)]:
                with pytest.raises(ValueError, match="not legal"):
                    env.step(bad)
            assert (env.current_player, env.step_kind, env.legal_actions()) == before
        env.step(index)
    assert env.done
    assert env.game.decisions == reference.game.decisions
    assert env.scores == reference.scores


def test_step_for_another_seat_or_after_the_end_is_refused() -> None:
    env = MahjongEnv()
    env.reset(2)
    other = (env.current_player + 1) % 4
    with pytest.raises(ValueError, match=f"seat {other} is not to act"):
        env.step(env.legal_actions()[0], seat=other)
    _play(env, 2, random.Random(0))
    with pytest.raises(ValueError, match="game is over"):
        env.step(0)


def test_same_seed_and_choices_make_the_same_game_another_seed_another() -> None:
    first, second, third = MahjongEnv(), MahjongEnv(), MahjongEnv()
    a = _play(first, 9, random.Random(1), limit=400)
    b = _play(second, 9, random.Random(1), limit=400)
    _play(third, 10, random.Random(1), limit=400)
    assert a == b
    assert first.game.decisions == second.game.decisions
    assert first.game.players[0].river == second.game.players[0].river
    assert first.game.players[0].river != third.game.players[0].river


# ---------------------------------------------------------------- scripted tables


def test_riichi_is_a_discard_then_48_and_52_discards_without_declaring() -> None:
    hands: list[str | None] = [
        "123m456p789s1122z",
        "234567m234567p23s",
        "345678m345678s4p",
        "88m88p88s99m99p16z",
    ]
    env = _scripted(hands, draws="3z")
    assert env.current_player == 0 and env.step_kind == "turn"
    west = tiles.parse("3z")[0] >> 2
    assert env.legal_actions() == [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 28, west]
    assert env.followups(west) == [48, 52]
    assert all(env.followups(i) == [] for i in env.legal_actions() if i != west)
    env.step(west)
    assert (env.current_player, env.step_kind, env.legal_actions()) == (0, "riichi", [48, 52])
    env.step(48)
    assert env.game.players[0].riichi

    dama = _scripted(hands, draws="3z")
    dama.step(west)
    dama.step(52)
    assert not dama.game.players[0].riichi
    assert [t >> 2 for t in dama.game.players[0].river] == [west]


def test_chii_left_middle_right_with_and_without_red_then_pon_is_asked_next() -> None:
    hands: list[str | None] = [
        "4m789p789s1235z66z",
        "23056m258p369s44z",
        "1177m44m135p135s7z",
        "88m88p88s99m6p6s234z",
    ]
    env = _scripted(hands, draws="7z")
    env.step(3)  # dealer discards 4m
    assert (env.current_player, env.step_kind) == (1, "response")
    assert env.legal_actions() == [37, 38, 39, 40, 41, 53]
    env.step(40)  # chii 4m with own 0m6m: the called tile leftmost, a red five
    assert (env.current_player, env.legal_actions()) == (2, [43, 53])
    env.step(53)
    assert env.current_player == 1 and env.step_kind == "turn"
    meld = env.game.players[1].melds[0]
    assert meld.type is MeldType.CHII
    assert tiles.to_str(meld.tiles) == "406m"


def test_two_ankan_kinds_open_a_second_step_naming_the_kind() -> None:
    env = _scripted(["1111m2222m345p67p", None, None, None], draws="9s")
    assert env.followups(45) == [0, 1]
    env.step(45)
    assert (env.step_kind, env.legal_actions()) == ("kan", [0, 1])
    env.step(1)
    melds = env.game.players[0].melds
    assert [(m.type, m.tiles[0] >> 2) for m in melds] == [(MeldType.ANKAN, 1)]


def test_pon_with_and_without_own_red_five_and_daiminkan_are_distinct_indices() -> None:
    hands: list[str | None] = [
        "5p789p789s1235z66z",
        "23467m147p369s44z",
        "055p1177m135s7z44m",
        "88m88p88s99m6p6s234z",
    ]
    env = _scripted(hands, draws="7z")
    env.step(13)  # dealer discards a plain 5p
    assert (env.current_player, env.legal_actions()) == (2, [43, 44, 46, 53])
    env.step(44)
    meld = env.game.players[2].melds[0]
    assert meld.type is MeldType.PON
    assert tiles.to_str(meld.tiles) == "055p"


def test_a_kind_held_and_drawn_is_discarded_as_the_drawn_copy() -> None:
    env = _scripted(["123m456p789s1122z", None, None, None], draws="1z")
    drawn = env.game.players[0].drawn
    assert drawn >> 2 == 27 and any(t >> 2 == 27 and t < drawn for t in env.game.players[0].hand)
    env.step(27)
    env.step(52)  # discarding it leaves tenpai: the riichi question comes first
    assert env.game.players[0].river == [drawn]


def test_stop_at_forced_also_stops_at_single_answers_and_plays_the_same_hand() -> None:
    quick, every = MahjongEnv(max_rounds=2), MahjongEnv(max_rounds=2, stop_at_forced=True)
    quick.reset(6)
    every.reset(6)
    singles = 0
    while not every.done:
        legal = every.legal_actions()
        if len(legal) == 1:
            singles += 1
            every.step(legal[0])
            continue
        assert (every.current_player, legal) == (quick.current_player, quick.legal_actions())
        every.step(legal[len(legal) // 2])
        quick.step(legal[len(legal) // 2])
    assert quick.done
    assert singles > 0
    assert every.game.decisions == quick.game.decisions


def test_observe_gives_each_seat_its_own_deal_and_hides_the_others() -> None:
    env = MahjongEnv(observe=True, max_rounds=1)
    env.reset(3)
    for seat in range(4):
        dealt = {e.seat: e for e in env.events(seat) if type(e).__name__ == "Haipai"}
        assert sorted(dealt) == [0, 1, 2, 3]  # a private event reaches others written as null
        assert all(e.tiles is None for s, e in dealt.items() if s != seat)
        assert sorted(dealt[seat].tiles) == sorted(env.game.players[seat].hand[:13])
