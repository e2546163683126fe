"""The PettingZoo AEC environment: one match, agents ``player_0``.. as seats 0.. (docs/env.md).

A thin layer over ``MahjongEnv``: the same 54-index action table (55 with kita), the same
rule checks (the engine's), the same skipping of forced moves (a seat with one legal index
is never asked), so ``agent_selection`` is always a seat with a real choice. Each
observation is built by the seat's ``Encoder`` from ``seat_view(game, seat)``: what that
seat may see and nothing else. Rewards are 0 until the match ends, then each seat's final
match points under the preset (``placement_points``: thousands above the return with uma and
oka, as the lobby's results show them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from engine.bot.seen import seat_view
from engine.env.observation import HIGH, Encoder
from engine.env.steps import MahjongEnv
from engine.rules.config import PRESETS, RuleConfig
from engine.rules.scoring.points import placement_points
from engine.rules.wall import Wall

Observation = dict[str, NDArray[Any]]


def rules_of(preset: str) -> RuleConfig:
    """The preset's rules; KeyError naming the known presets."""
    try:
        return PRESETS[preset]
    except KeyError:
        raise KeyError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})") from None


def observation_space(rules: RuleConfig) -> spaces.Dict:
    """The space of one seat's observation under ``rules`` (a new object per call)."""
    n = MahjongEnv(rules).action_dim
    shape = Encoder(rules, 0).shape
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, HIGH, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        }
    )


def action_mask(env: MahjongEnv, acting: bool = True) -> NDArray[np.int8]:
    """The int8 mask of the current player's legal indices (all zeros if not ``acting``)."""
    cells = env.mask_cells() if acting else bytearray(env.action_dim)
    return np.frombuffer(cells, np.int8)


class MahjongAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """One match of the engine as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "riichi_mahjong_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "tenhou-hanchan",
        render_mode: str | None = None,
        *,
        walls: Callable[[int], Wall] | None = None,
        max_rounds: int | None = None,
    ) -> None:
        """``walls`` and ``max_rounds`` as ``MahjongEnv`` takes them: scripted walls, and a
        match cut after that many hands (its agents are then truncated, not terminated)."""
        super().__init__()
        self.preset = preset
        self.rules = rules_of(preset)
        self.render_mode = render_mode
        self.env = MahjongEnv(self.rules, walls=walls, max_rounds=max_rounds)
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.rules) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.env.action_dim) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self._encoders = [Encoder(self.rules, s) for s in range(n)]
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: ``seed`` is the engine's game seed (the same wall as
        ``MahjongEnv().reset(seed)`` or a server table with that seed); without one the
        next seed comes from a generator seeded by the last seed given (OS entropy if
        none ever was)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            game_seed = int(self._rng.integers(1 << 63))
        self.env.reset(game_seed)
        self._encoders = [Encoder(self.rules, s) for s in range(self.rules.players)]
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.env.current_player]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation now; the mask is all zeros unless it is to act."""
        seat = self.agent_name_mapping[agent]
        env = self.env
        encoder = self._encoders[seat]
        view = seat_view(env.game, seat)
        acting = seat == env.current_player
        if acting:
            encoder.writer.update(view, env.subject_tile(), env.step_kind)
        else:
            encoder.writer.update(view)
        return {"observation": encoder.array.copy(), "action_mask": action_mask(env, acting)}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an index of the mask) for ``agent_selection``; ValueError, with
        nothing changed, for an index the mask does not offer."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        env = self.env
        env.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        if not env.done:  # rewards stay 0 until the end: nothing to accumulate
            self.agent_selection = self.possible_agents[env.current_player]
            return
        points = placement_points(tuple(env.game.scores), self.rules)
        ended = self.terminations if env.game.over else self.truncations
        for a, s in self.agent_name_mapping.items():
            self.rewards[a] = float(points[s])
            ended[a] = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        """A one-line text of the table ("ansi"), None without a render mode."""
        if self.render_mode is None:
            return None
        game = self.env.game
        return (
            f"kyoku {game.kyoku} honba {game.honba} scores {list(game.scores)} "
            f"to act: {self.agent_selection} ({self.env.step_kind or 'over'})"
        )

    def close(self) -> None:
        """Nothing to release: the match is plain Python objects."""
