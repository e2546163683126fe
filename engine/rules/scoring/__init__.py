"""Scoring a winning hand, in the order a reader meets it.

* ``yaku``: every yaku once, with its Tenhou name, its han closed and open, and what it
  means as one small predicate over a plain reading of the hand (``decomposition``).
* ``spec``: ``spec_score``, the slow and obvious scorer built from those predicates: every
  reading tried, fu counted group by group, points from ``points.base_points``. It is the
  specification the fast scorer is tested against (tests/rules/test_spec_vs_fast.py).
* ``score``: ``score_hand``, the fast scorer. The hand becomes two machine-word codes and
  each part's readings come from ``tables`` with their features packed; yaku are bits of a mask
  (``hand_mask`` for those of the tiles and the situation, ``reading_mask`` for those of one
  reading); ``fu``, ``points`` and ``result`` turn the best reading into a ``HandResult``;
  ``ties`` says which reading wins when two are worth the same.
* ``preview``: the guaranteed minimum a waiting hand shows before it wins.

Adding a yaku is three edits: its class in ``yaku`` (name, Tenhou name, han, predicate), its
place in ``yaku.REGULAR`` or ``yaku.YAKUMAN``, and its test in the fast path (``hand_mask`` or
``reading_mask``); tests/rules/test_spec_vs_fast.py stays red until the two scorers agree.
"""

from __future__ import annotations

from engine.rules.scoring.result import HandResult, WinContext, YakuHan
from engine.rules.scoring.score import score_hand

__all__ = ["HandResult", "WinContext", "YakuHan", "score_hand"]
