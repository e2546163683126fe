"""Environments over the engine: the integer step API, and PettingZoo/Gymnasium ones.

``MahjongEnv`` (engine.env.steps) is pure Python and what the rest of the engine and the
server may use. ``aec_env`` and ``gym_env`` build the reinforcement-learning environments
(docs/env.md); they need numpy, pettingzoo and gymnasium (``pip install -e '.[rl]'``), so
those modules are imported only when one is called: importing ``engine.env`` (or the server)
never imports numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.env.steps import (
    ACTION_DIM,
    ANKAN,
    CHII_LEFT,
    CHII_MIDDLE,
    CHII_RED,
    CHII_RIGHT,
    DAIMINKAN,
    KAKAN,
    KITA,
    KYUUSHU,
    NO_RIICHI,
    PASS,
    PON,
    PON_RED,
    RIICHI,
    RON,
    TSUMO,
    MahjongEnv,
)

if TYPE_CHECKING:
    from engine.env.aec import MahjongAECEnv
    from engine.env.single import MahjongGymEnv

__all__ = [
    "ACTION_DIM",
    "ANKAN",
    "CHII_LEFT",
    "CHII_MIDDLE",
    "CHII_RED",
    "CHII_RIGHT",
    "DAIMINKAN",
    "KAKAN",
    "KITA",
    "KYUUSHU",
    "NO_RIICHI",
    "PASS",
    "PON",
    "PON_RED",
    "RIICHI",
    "RON",
    "TSUMO",
    "MahjongEnv",
    "aec_env",
    "gym_env",
]


def aec_env(preset: str = "tenhou-hanchan", **options: Any) -> MahjongAECEnv:
    """A PettingZoo AEC environment of one match under ``preset`` (a key of
    engine.rules.config.PRESETS): agents ``player_0``.. as seats 0.. (docs/env.md);
    ``options`` go to ``MahjongAECEnv`` (render_mode, walls, max_rounds)."""
    from engine.env.aec import MahjongAECEnv

    return MahjongAECEnv(preset, **options)


def gym_env(preset: str = "tenhou-hanchan", *, seat: int = 0, bot: str = "strong") -> MahjongGymEnv:
    """A Gymnasium single-agent environment: the learner plays ``seat``, the built-in ``bot``
    ("strong" or "easy") every other seat, from each seat's own view (docs/env.md)."""
    from engine.env.single import make_env

    return make_env(preset, seat, bot)
