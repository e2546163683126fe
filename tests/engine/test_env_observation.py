"""The observation encoder: what each plane holds, read back against the SeatView it came
from, the incremental array equal at every step to one written afresh, and the env's view
builder equal to the bots' one."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from numpy.typing import NDArray

from engine.actions.types import ActionType
from engine.bot import make
from engine.bot.seen import seat_view
from engine.bot.view import SeatView
from engine.env import NO_RIICHI, RIICHI, MahjongEnv, aec_env
from engine.env.aec import MahjongAECEnv
from engine.env.encoding import (
    DEALER,
    DORA,
    DRAWN,
    HAND,
    HONBA,
    IN_RIICHI,
    INDICATORS,
    KITA_COUNT,
    LAST_DISCARD,
    MELDS,
    OWN_PLANES,
    RED_HELD,
    RED_SHOWN,
    RIICHI_TILE,
    RIVER,
    ROUND_WIND,
    SCALARS,
    SCORE,
    SEAT_PLANES,
    SEAT_WIND,
    STEP_KIND,
    STEP_KINDS,
    SUBJECT,
    layout,
    planes,
)
from engine.env.observation import Encoder
from engine.rules.meld import MeldType
from engine.rules.tiles import dora_of


def _thresholds(tiles: list[int]) -> NDArray[np.float32]:
    """Four planes: count of each kind >= 1, 2, 3, 4."""
    counts = np.bincount(np.array(tiles, dtype=np.int64) >> 2, minlength=34)
    return np.stack([(counts > level).astype(np.float32) for level in range(4)])


def _one_hot(kinds: list[int]) -> NDArray[np.float32]:
    out = np.zeros(34, np.float32)
    out[kinds] = 1.0
    return out


def _check_planes(array: NDArray[np.float32], view: SeatView, subject: int, kind: str) -> None:
    """Every plane of ``array`` read back against ``view``, written independently of the
    encoder (numpy on whole tile lists, not its per-tile updates)."""
    n = view.players
    red = view.rules.red
    assert np.array_equal(array[HAND : HAND + 4], _thresholds(list(view.hand)))
    drawn = [view.drawn >> 2] if view.drawn is not None else []
    assert np.array_equal(array[DRAWN], _one_hot(drawn))
    assert np.array_equal(array[RED_HELD], _one_hot([t >> 2 for t in view.hand if t in red]))
    for r in range(n):
        s = (view.seat + r) % n
        block = array[OWN_PLANES + SEAT_PLANES * r :]
        river = list(view.rivers[s])
        melds = [m for m in view.melds[s] if m.type != MeldType.KITA]
        meld_tiles = [t for m in melds for t in m.tiles]
        assert np.array_equal(block[RIVER : RIVER + 4], _thresholds(river))
        assert np.array_equal(block[MELDS : MELDS + 4], _thresholds(meld_tiles))
        riichi = view.riichi[s]
        riichi_tile = [river[riichi] >> 2] if riichi >= 0 else []
        assert np.array_equal(block[RIICHI_TILE], _one_hot(riichi_tile))
        assert np.array_equal(block[LAST_DISCARD], _one_hot([river[-1] >> 2] if river else []))
        shown = [t >> 2 for t in river + meld_tiles if t in red]
        assert np.array_equal(block[RED_SHOWN], _one_hot(shown))
    table = array[OWN_PLANES + SEAT_PLANES * n :]
    indicators = [t >> 2 for t in view.dora_indicators]
    expected = np.bincount(np.array(indicators, dtype=np.int64), minlength=34)
    assert np.array_equal(table[INDICATORS], expected.astype(np.float32))
    dora = [dora_of(k, view.rules.sanma) for k in indicators]
    assert np.array_equal(table[DORA], np.bincount(dora, minlength=34).astype(np.float32))
    assert np.array_equal(table[SUBJECT], _one_hot([subject >> 2] if subject >= 0 else []))
    row = table[SCALARS]
    assert row[STEP_KIND : STEP_KIND + 5].tolist() == [float(k == kind) for k in STEP_KINDS]
    assert row[ROUND_WIND + view.round_wind - 27] == 1.0 == row[ROUND_WIND : ROUND_WIND + 4].sum()
    assert row[SEAT_WIND + view.seat_wind - 27] == 1.0 == row[SEAT_WIND : SEAT_WIND + 4].sum()
    assert row[DEALER + (view.dealer - view.seat) % n] == 1.0
    for r in range(n):
        s = (view.seat + r) % n
        assert row[IN_RIICHI + r] == float(view.riichi[s] >= 0)
        assert row[SCORE + r] == pytest.approx(max(view.scores[s], 0) / 100_000)
        kita = sum(1 for m in view.melds[s] if m.type == MeldType.KITA)
        assert row[KITA_COUNT + r] == kita / 4
    assert row[HONBA] == pytest.approx(min(view.honba, 10) / 10)


def _bot_move(env: MahjongEnv) -> int | None:
    """The easy bot's answer for the current seat; a discard that may declare riichi goes
    through the env's two steps, the first one here: the second's index is returned (so
    the "riichi" step is observed before it is played). The rest is played as the pair."""
    seat = env.current_player
    inquiry = env.game.inquiry
    assert inquiry is not None
    single = inquiry.players[seat]
    ai, oi = make("easy").choose(single, seat_view(env.game, seat))
    action = single.actions[ai]
    if action.type in (ActionType.DISCARD, ActionType.RIICHI):
        index = env.index_of(action.options[oi].tiles[0])
        if env.followups(index) == [RIICHI, NO_RIICHI]:
            env.step(index)
            return RIICHI if action.type is ActionType.RIICHI else NO_RIICHI
    env.answer(ai, oi)
    return None


def _walk(env: MahjongAECEnv, seed: int, every: int = 1, bot: bool = False) -> Counter[str]:
    """Random play (or the easy bot's, which reaches riichi and wins); at every
    ``every``-th step each seat's observation is checked plane by plane and against a fresh
    encoder's. Counts the steps checked, each step kind and the views with a riichi."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    inner = env.env
    seen: Counter[str] = Counter()
    step = 0
    second: int | None = None
    while not inner.done:
        if step % every == 0:
            seen[inner.step_kind] += 1
            for agent, seat in env.agent_name_mapping.items():
                acting = seat == inner.current_player
                subject = inner.subject_tile() if acting else -1
                kind = inner.step_kind if acting else ""
                array = env.observe(agent)["observation"]
                view = seat_view(inner.game, seat)
                fresh = Encoder(env.rules, seat).update(view, subject, kind)
                assert np.array_equal(array, fresh), (seed, step, agent)
                _check_planes(array, view, subject, kind)
                seen["riichi declared"] += any(r >= 0 for r in view.riichi)
            seen["checked"] += 1
        step += 1
        if second is not None:
            inner.step(second)
            second = None
        elif bot:
            second = _bot_move(inner)
        else:
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    return seen


@pytest.mark.parametrize("preset", ["tenhou-hanchan", "tenhou-sanma-hanchan"])
def test_every_plane_matches_the_view_and_the_incremental_array_a_fresh_one(preset: str) -> None:
    assert _walk(aec_env(preset), seed=21)["checked"] > 300


def test_random_calls_and_kans_over_several_matches() -> None:
    """Random play calls a lot (chii, pon, daiminkan, kakan) and never wins: a sparser
    check over three matches keeps it short."""
    env = aec_env("tenhou-hanchan")
    for seed in range(3):
        _walk(env, seed=100 + seed, every=7)


@pytest.mark.parametrize("preset", ["tenhou-hanchan", "tenhou-sanma-hanchan"])
def test_riichi_wins_and_hand_changes_under_the_easy_bot(preset: str) -> None:
    """The easy bot declares riichi (through the env's riichi step), wins and moves the
    match on hand after hand: riichi planes, scores and new hands are checked."""
    env = aec_env(preset)
    seen = _walk(env, seed=21, bot=True)
    game = env.env.game
    assert len(game.rounds) >= 4 and any(r.wins for r in game.rounds)
    assert seen["riichi"] > 0 and seen["riichi declared"] > 0 and seen["response"] > 0


def test_the_layout_covers_every_plane_once() -> None:
    for n in (3, 4):
        starts = [first for first, _ in layout(n)]
        assert starts == sorted(starts) and starts[0] == 0
        assert planes(n) - starts[-1] == 1  # the scalar row is the last plane
        assert len(starts) == 3 + 5 * n + 4


def test_every_step_kind_and_a_red_subject_have_their_cells() -> None:
    """Random play never reaches a kan second step or an M-League tenpai declaration: their
    cells are checked on a real view, the kinds in turn on one writer (each clears the last)."""
    env = aec_env("mleague")
    env.reset(seed=2)
    view = seat_view(env.env.game, 0)
    encoder = Encoder(env.rules, 0)
    red_five = min(env.rules.red)
    for kind in (*STEP_KINDS, "", "turn"):
        for subject in (-1, red_five, 100):
            array = encoder.update(view, subject, kind)
            _check_planes(array, view, subject, kind)
            row = array[-1]
            assert row[33] == float(subject == red_five)
