"""Environment speed: our PettingZoo AEC env beside pymahjong's and riichienv's environments.

Every environment plays uniform-random legal actions, one agent decision at a time, and each
step builds what a learner is given: the acting agent's observation tensor and its action
mask. Ours: ``env.last()`` (the observation and the int8 mask, docs/env.md) then
``env.step``; riichienv (Rust): each asked player's ``Observation.encode()`` (74x34 float32)
and ``mask()``, then one ``env.step`` with every asked player's answer, full Tenhou-rule
hanchan; pymahjong (C++): its gymnasium ``MahjongEnv`` one hand per ``reset``, ``get_obs``
(93x34) and ``get_valid_actions(nhot=True)`` before each ``step``. A step is one agent's
decision (an observation built, an action taken); all three play forced moves themselves
(a seat with one legal answer is not asked), so a step is a real choice. Time is this
process's CPU time, the environments taking turns game by game so that a shared machine's
drift hits all alike; each figure is the median over ``--runs`` runs, and a ratio the
median of the runs' ratios.

    python3 -m bench.env [--games 2] [--runs 5] [--seed 1]

The peers come with ``pip install -e '.[bench]'``; one that is missing or fails prints its
error instead of a figure. The last line is exactly
``env steps/s vs riichienv: R x (ours S/s, riichienv T/s)``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from engine import native
from engine.env import aec_env
from engine.rules.config import PRESETS
from engine.rules.scoring.points import placement_points

#: hands per pymahjong "game" (its env plays one hand per reset): a hanchan's worth
PYMAHJONG_HANDS = 10


class Run(NamedTuple):
    """One environment's batch: agent steps taken and the CPU seconds they took."""

    steps: int
    seconds: float


def ours(games: int, seed: int) -> Run:
    """Full Tenhou hanchan through ``aec_env`` with random legal actions from the mask."""
    env = aec_env("tenhou-hanchan")
    rng = random.Random(seed)
    steps = 0
    seconds = 0.0
    for g in range(games):
        start = time.process_time()
        env.reset(seed=seed + g)
        finals: dict[str, float] = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                finals[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        seconds += time.process_time() - start
        _check_ours(env.env.game, finals)
    return Run(steps, seconds)


def _check_ours(game: Any, finals: dict[str, float]) -> None:
    """A played match is a finished hanchan whose rewards are its match points."""
    if not game.over or (len(game.rounds) < 8 and min(game.scores) >= 0):
        raise SystemExit(f"ours: the match stopped after {len(game.rounds)} hands, not over")
    points = placement_points(game.scores, PRESETS["tenhou-hanchan"])
    if finals != {f"player_{s}": float(p) for s, p in enumerate(points)}:
        raise SystemExit(f"ours: rewards {finals} are not the match points {points}")


def riichienv(games: int, seed: int) -> Run:
    """Full Tenhou-rule hanchan on riichienv; every asked player encodes its observation."""
    from riichienv import GameRule, GameType, RiichiEnv

    rule = GameRule.default_tenhou()
    rng = random.Random(seed)
    steps = 0
    seconds = 0.0
    for g in range(games):
        start = time.process_time()
        env = RiichiEnv(
            game_mode=GameType.YON_HANCHAN, skip_mjai_logging=True, seed=seed + g, rule=rule
        )
        obs = env.reset()
        while not env.done():
            answers = {}
            for pid, ob in obs.items():
                legal = ob.legal_actions()
                if legal:
                    np.frombuffer(ob.encode(), dtype=np.float32)
                    np.frombuffer(ob.mask(), dtype=np.uint8)
                    answers[pid] = legal[rng.randrange(len(legal))]
                    steps += 1
            obs = env.step(answers)
        seconds += time.process_time() - start
        if sum(env.scores()) > 100_000 or sum(env.scores()) % 1000:
            raise SystemExit(f"riichienv: impossible final scores {env.scores()}")
    return Run(steps, seconds)


def pymahjong(games: int, seed: int) -> Run:
    """pymahjong's gymnasium env, PYMAHJONG_HANDS hands a game (one hand per reset)."""
    import pymahjong as pm

    env = pm.MahjongEnv()
    rng = random.Random(seed)
    steps = 0
    seconds = 0.0
    for _ in range(games):
        start = time.process_time()
        for hand in range(PYMAHJONG_HANDS):
            env.reset(oya=hand % 4, game_wind="east")
            while not env.is_over():
                player = env.get_curr_player_id()
                env.get_obs(player)
                mask = env.get_valid_actions(nhot=True)
                legal = np.flatnonzero(mask)
                env.step(player, int(legal[rng.randrange(len(legal))]))
                steps += 1
        seconds += time.process_time() - start
    return Run(steps, seconds)


ENVS: dict[str, Callable[[int, int], Run]] = {
    "ours": ours,
    "riichienv": riichienv,
    "pymahjong": pymahjong,
}


def measure(
    envs: dict[str, Callable[[int, int], Run]], games: int, runs: int, seed: int
) -> dict[str, list[Run] | str]:
    """Per environment: one Run per run, or the error that stopped it."""
    results: dict[str, list[Run] | str] = {name: [] for name in envs}
    for r in range(runs):
        played: dict[str, list[Run]] = {name: [] for name in envs}
        for g in range(games):
            for name, play in envs.items():
                if isinstance(results[name], str):
                    continue
                try:
                    played[name].append(play(1, seed + 1000 * r + g))
                except (ImportError, RuntimeError, ValueError, AttributeError, TypeError) as e:
                    results[name] = f"{type(e).__name__}: {e}"
        for name, parts in played.items():
            found = results[name]
            if isinstance(found, list):
                found.append(Run(sum(p.steps for p in parts), sum(p.seconds for p in parts)))
    return results


def report(results: dict[str, list[Run] | str]) -> list[str]:
    """The table and the ratio lines, riichienv's last."""
    lines = [f"{'environment':<12}{'steps/s':>10}{'steps/run':>11}"]
    rate: dict[str, float] = {}
    for name, found in results.items():
        if isinstance(found, str):
            lines.append(f"{name:<12}error: {found}")
            continue
        rate[name] = statistics.median(run.steps / run.seconds for run in found)
        steps = statistics.median(r.steps for r in found)
        lines.append(f"{name:<12}{rate[name]:>10.0f}{steps:>11.0f}")
    ours_runs = results["ours"]
    for peer in ("pymahjong", "riichienv"):
        found = results.get(peer, "not measured")
        if isinstance(ours_runs, str) or isinstance(found, str):
            why = ours_runs if isinstance(ours_runs, str) else found
            lines.append(f"env steps/s vs {peer}: n/a ({why})")
            continue
        pairs = zip(ours_runs, found, strict=True)
        ratio = statistics.median((a.steps / a.seconds) / (b.steps / b.seconds) for a, b in pairs)
        lines.append(
            f"env steps/s vs {peer}: {ratio:.2f} x "
            f"(ours {rate['ours']:.0f}/s, {peer} {rate[peer]:.0f}/s)"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per environment per run")
    parser.add_argument("--runs", type=int, default=5, help="runs; figures are medians")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # one untimed game each first: lazily built tables, imports, caches
    warm = measure(ENVS, 1, 1, args.seed - 1)
    envs = {name: play for name, play in ENVS.items() if not isinstance(warm[name], str)}
    results = {**warm, **measure(envs, args.games, args.runs, args.seed)}
    print(f"{args.runs} runs x {args.games} games per environment, uniform-random legal play")
    print(f"our engine: {native.describe()}")
    for line in report(results):
        print(line)


if __name__ == "__main__":
    main()
