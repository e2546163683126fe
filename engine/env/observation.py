"""One seat's observation as a numpy array: a float32 view over its PlaneWriter's buffer.

engine/env/encoding.py writes the planes (pure Python, compiled with the engine's hot
modules); this module only lays ``np.frombuffer`` over them once per seat, so an observation
costs the writer's few changed cells and one copy.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from engine.bot.view import SeatView
from engine.env.encoding import HIGH, PlaneWriter, layout, planes
from engine.rules.config import RuleConfig

__all__ = ["HIGH", "Encoder", "layout", "planes"]


class Encoder:
    """One seat's observation array, kept current from the SeatViews it is shown."""

    def __init__(self, rules: RuleConfig, seat: int) -> None:
        self.writer = PlaneWriter(rules, seat)
        self.shape = self.writer.shape
        self.array: NDArray[np.float32] = np.frombuffer(self.writer.buffer, np.float32).reshape(
            self.shape
        )

    def update(self, view: SeatView, subject: int = -1, kind: str = "") -> NDArray[np.float32]:
        """The array for ``view`` (this seat's), with ``subject`` (a physical tile, -1 for
        none) and ``kind`` (a MahjongEnv step kind, "" when the seat is not to act). The
        array is the encoder's own, overwritten by the next call: copy it to keep it."""
        self.writer.update(view, subject, kind)
        return self.array
