"""The Gymnasium single-agent environment: Gymnasium's own checker with either bot at the
other seats, a whole match scored as the AEC env scores it, and the fallback for an index
the mask does not offer."""

from __future__ import annotations

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from engine.env import gym_env
from engine.env.single import ENV_ID, MahjongGymEnv
from engine.rules.config import PRESETS
from engine.rules.scoring.points import placement_points


@pytest.mark.parametrize("bot", ["strong", "easy"])
@pytest.mark.parametrize("preset", ["tenhou-hanchan", "tenhou-sanma-hanchan"])
def test_gymnasium_check_env_passes(preset: str, bot: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker reports most of its findings as warnings
        check_env(gym_env(preset, bot=bot))


def test_a_whole_match_pays_the_learner_its_match_points_at_the_end() -> None:
    env = gym_env("tenhou-hanchan", seat=2, bot="easy")
    observation, _ = env.reset(seed=9)
    rng = random.Random(9)
    rewards: list[float] = []
    terminated = False
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) >= 2  # forced moves are the env's
        observation, reward, terminated, truncated, info = env.step(
            int(legal[rng.randrange(len(legal))])
        )
        assert not truncated and "illegal_action" not in info
        rewards.append(float(reward))
    game = env.env.game
    assert game.over and len(game.rounds) >= 4 and any(r.wins for r in game.rounds)
    expected = placement_points(game.scores, PRESETS["tenhou-hanchan"])[2]
    assert rewards[-1] == expected and not any(rewards[:-1])
    assert not observation["action_mask"].any()


def test_an_index_the_mask_does_not_offer_plays_the_fallback_and_says_so() -> None:
    env = gym_env("tenhou-hanchan", bot="easy")
    observation, _ = env.reset(seed=1)
    mask = observation["action_mask"]
    assert env.env.step_kind == "turn" and not mask[53]
    drawn = env.env.game.drawn_tile(0)
    assert drawn is not None
    _obs, _r, _t, _tr, info = env.step(53)  # pass, on a turn: not offered
    assert info == {"illegal_action": True}
    discarded = env.env.game.players[0].river[0]
    assert discarded == drawn  # tsumogiri


def test_gymnasium_make_builds_it_by_id() -> None:
    env = gym.make(ENV_ID, preset="tenhou-sanma-hanchan", bot="easy")
    assert isinstance(env.unwrapped, MahjongGymEnv)
    observation, _ = env.reset(seed=3)
    assert observation["action_mask"].shape == (55,)


def test_a_seat_off_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="seat 3"):
        MahjongGymEnv("tenhou-sanma-hanchan", seat=3)
