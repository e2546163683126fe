"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, for 4 players and
sanma, and what they do not check: the action table is MahjongEnv's, rewards are the
preset's match points at the end and 0 before, a refused index changes nothing."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from engine.env import MahjongEnv, aec_env
from engine.env.aec import MahjongAECEnv
from engine.rules.config import PRESETS
from engine.rules.scoring.points import placement_points

PRESET_4P, PRESET_3P = "tenhou-hanchan", "tenhou-sanma-hanchan"
#: what api_test says of any dict observation (the issue asks for exactly that dict) and of
#: its Dict space; every other warning it can give fails these tests
DICT_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def _random_play(env: MahjongAECEnv, seed: int) -> list[tuple[str, int]]:
    """A whole match of uniform legal picks through the AEC API; the (agent, index) pairs."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    played: list[tuple[str, int]] = []
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        played.append((agent, int(legal[rng.randrange(len(legal))])))
        env.step(played[-1][1])
    return played


@pytest.mark.parametrize("preset", [PRESET_4P, PRESET_3P])
def test_pettingzoo_api_test_passes(preset: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(preset), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


@pytest.mark.parametrize("preset", [PRESET_4P, PRESET_3P])
def test_pettingzoo_seed_test_passes(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(lambda: aec_env(preset), num_cycles=1000)


@pytest.mark.parametrize(("preset", "players", "mask"), [(PRESET_4P, 4, 54), (PRESET_3P, 3, 55)])
def test_agents_spaces_and_masks(preset: str, players: int, mask: int) -> None:
    env = aec_env(preset)
    env.reset(seed=5)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]
    assert env.agents == env.possible_agents
    for agent in env.agents:
        seen = env.observe(agent)
        assert seen["action_mask"].dtype == np.int8 and seen["action_mask"].shape == (mask,)
        assert seen["observation"].shape == env.observation_space(agent)["observation"].shape
        assert env.observation_space(agent).contains(seen)
        # only the agent to act has legal indices
        assert seen["action_mask"].any() == (agent == env.agent_selection)


def test_the_mask_and_the_moves_are_the_step_apis() -> None:
    """Replaying the AEC env's choices through MahjongEnv meets, at every step, the same seat
    with the same legal indices: one action table, one engine."""
    env = aec_env(PRESET_4P)
    played = _random_play(env, 11)
    steps = MahjongEnv(PRESETS[PRESET_4P])
    steps.reset(11)
    for agent, index in played:
        assert agent == f"player_{steps.current_player}"
        steps.step(index)
    assert steps.done and steps.scores == env.env.scores
    assert len(played) > 300


def test_rewards_are_zero_until_the_end_then_the_presets_match_points() -> None:
    env = aec_env(PRESET_4P)
    env.reset(seed=3)
    rng = random.Random(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        assert not truncated
        if terminated:
            finals[agent] = reward
            env.step(None)
            continue
        assert reward == 0.0 and all(r == 0.0 for r in env.rewards.values())
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        for a, r in env.rewards.items():
            totals[a] += r
    expected = placement_points(env.env.game.scores, PRESETS[PRESET_4P])
    assert env.env.game.over
    assert finals == {f"player_{s}": float(p) for s, p in enumerate(expected)}
    assert totals == finals
    assert sum(finals.values()) == pytest.approx(0.0)
    assert env.agents == []


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_a_whole_match_scored_by_its_own_points(preset: str) -> None:
    """Every preset (M-League's tenpai declarations, WRC's split ties, Mahjong Soul's sanma
    included) runs to its end through the AEC API, each observation inside its space."""
    env = aec_env(preset)
    rng = random.Random(17)
    env.reset(seed=17)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        assert env.observation_space(agent).contains(observation)
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    game = env.env.game
    assert game.over and len(finals) == PRESETS[preset].players
    points = placement_points(game.scores, PRESETS[preset])
    assert finals == {f"player_{s}": float(p) for s, p in enumerate(points)}


def test_a_refused_index_changes_nothing() -> None:
    env = aec_env(PRESET_4P)
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="None"):
        env.step(None)
    after = env.observe(agent)
    assert env.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_a_seed_is_the_engines_game_seed_and_seedless_resets_follow_it() -> None:
    """reset(seed=s) deals the wall a server table with seed s deals; reset() after it plays
    the same sequence of matches every time."""
    env = aec_env(PRESET_4P)
    env.reset(seed=123)
    assert env.env.game.seed == 123
    env.reset()
    first = env.env.game.seed
    env.reset(seed=123)
    env.reset()
    assert env.env.game.seed == first != 123


def test_max_rounds_truncates_instead_of_terminating() -> None:
    env = aec_env(PRESET_4P, max_rounds=1)
    env.reset(seed=4)
    rng = random.Random(4)
    while env.agents:
        observation, _r, terminated, truncated, _i = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert len(env.env.game.rounds) == 1 and not env.env.game.over


def test_an_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="tenhou-hanchan"):
        aec_env("tenhou-yonma")
