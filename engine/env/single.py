"""The Gymnasium single-agent environment: one learner seat, a built-in bot at every other.

The learner sees what the AEC environment's agent sees (the same observation and mask); the
other seats are played by ``engine.bot`` from their own SeatView between the learner's
decisions. Rewards are 0 until the match ends, then the learner's final match points.
``action_space.sample()`` ignores the mask, and Gymnasium's checker steps with such samples,
so an index the mask does not offer is not an error here: the seat plays its fallback (pass,
no riichi, the drawn tile, else the lowest legal index) and ``info["illegal_action"]`` says so.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from engine.bot import Bot, make, seat_view
from engine.env.aec import Observation, action_mask, observation_space, rules_of
from engine.env.observation import Encoder
from engine.env.steps import NO_RIICHI, PASS, MahjongEnv
from engine.rules.scoring.points import placement_points

#: the Gymnasium id: ``gymnasium.make(ENV_ID, preset=..., seat=..., bot=...)``
ENV_ID = "RiichiMahjong-v0"


class MahjongGymEnv(gym.Env[dict[str, Any], np.int64]):
    """One match: the learner at ``seat``, ``bot`` ("strong" or "easy") everywhere else."""

    # gymnasium.Env declares it an instance attribute; gymnasium.make reads it on the class
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        preset: str = "tenhou-hanchan",
        *,
        seat: int = 0,
        bot: str = "strong",
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules_of(preset)
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat {seat} is not at a table of {self.rules.players}")
        self.seat = seat
        self.render_mode = render_mode
        self.env = MahjongEnv(self.rules)
        self.bots: list[Bot] = [make(bot) for _ in range(self.rules.players)]
        self.observation_space = observation_space(self.rules)
        self.action_space = gym.spaces.Discrete(self.env.action_dim)
        self._encoder = Encoder(self.rules, seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new match; ``seed`` is the engine's game seed (as in the AEC env), without one
        the next comes from ``self.np_random``."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(1 << 63))
        self.env.reset(game_seed)
        self._encoder = Encoder(self.rules, self.seat)
        self._bots_play()
        return self._observe(), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the bots until the learner is to act again."""
        env = self.env
        if self._over():
            raise ValueError("the match is over: reset() starts a new one")
        legal = env.legal_set()
        index = int(action)
        info: dict[str, Any] = {}
        if index not in legal:
            index = fallback(env, legal)
            info["illegal_action"] = True
        env.step(index)
        self._bots_play()
        reward = 0.0
        over = self._over()
        if over:
            reward = float(placement_points(tuple(env.game.scores), self.rules)[self.seat])
        return self._observe(), reward, over, False, info

    def _over(self) -> bool:
        return self.env.done

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.env.game
        return f"kyoku {game.kyoku} honba {game.honba} scores {list(game.scores)}"

    def _bots_play(self) -> None:
        """Let the bots answer until the learner is to act or the match is over."""
        env = self.env
        while not env.done and env.current_player != self.seat:
            seat = env.current_player
            inquiry = env.game.inquiry
            assert inquiry is not None
            pair = self.bots[seat].choose(inquiry.players[seat], seat_view(env.game, seat))
            env.answer(*pair)

    def _observe(self) -> Observation:
        env = self.env
        view = seat_view(env.game, self.seat)
        if env.done:
            array = self._encoder.update(view)
        else:
            array = self._encoder.update(view, env.subject_tile(), env.step_kind)
        return {"observation": array.copy(), "action_mask": action_mask(env, not env.done)}


def fallback(env: MahjongEnv, legal: set[int]) -> int:
    """What the seat plays for an index the mask does not offer: pass, no riichi, the
    drawn tile, else the lowest legal index."""
    for index in (PASS, NO_RIICHI):
        if index in legal:
            return index
    drawn = env.game.drawn_tile(env.current_player)
    if drawn is not None:
        index = env.index_of(drawn)
        if index in legal:
            return index
    return min(legal)


def make_env(preset: str, seat: int, bot: str) -> MahjongGymEnv:
    """The environment as ``gymnasium.make`` builds it, without its wrappers: its ``spec``
    names the id and arguments, so ``spec.make(render_mode=...)`` builds a twin."""
    env = gym.make(ENV_ID, preset=preset, seat=seat, bot=bot).unwrapped
    assert isinstance(env, MahjongGymEnv)
    return env


# as every Gymnasium environment package does: importing the module registers its id
if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="engine.env.single:MahjongGymEnv")
