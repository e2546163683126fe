"""Peer engines driven by uniform-random legal agents, measured the same way as ours.

Each adapter plays whole games with a seeded random choice at every decision point, on one
core, in this process, and returns a `SelfPlay` tally. Only the engine's own work is timed:
the adapters use each peer's cheapest public decision API (no observation tensors, no logs).

What each peer plays:

* riichienv (Rust): `RiichiEnv(YON_HANCHAN, rule=GameRule.default_tenhou())`, full hanchan
  with its own West extension and endings.
* jansou (pure Python): `Environment(preset("tenhou")).play()`, full hanchan.
* pymahjong (C++): its `Table` plays one hand per `game_init_with_config`; a hanchan is
  chained here, hand by hand, carrying scores, honba and riichi sticks, rotating the dealer
  unless the result says renchan, ending after South 4 (West extension while nobody has
  30,000, at most to West 4) or when someone is below zero. No agari-yame. The chaining
  costs microseconds per hand.

A *decision* is one seat asked to answer (some engines ask a seat whose only answer is
"pass");
a *choice* is a decision with at least two legal answers, the figure comparable across
engines.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import NamedTuple

START = 25000
TARGET = 30000


class SelfPlay(NamedTuple):
    """What a batch of self-play games did and how long the engine took."""

    games: int
    rounds: int
    decisions: int
    choices: int
    seconds: float
    #: rounds played in each game, for sanity checks (a hanchan is 8 or more)
    rounds_per_game: tuple[int, ...]
    #: final scores of each game
    scores: tuple[tuple[int, ...], ...]


class Tally:
    """One engine's games as an adapter plays them. Per-decision counts stay local ints in
    each adapter's timed loop (a call there would slow the engine being measured)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.per_game: list[int] = []
        self.scores: list[tuple[int, ...]] = []

    def game(self, rounds: int, scores: tuple[int, ...], seconds: float) -> None:
        """Record one finished game: its rounds, final scores and engine CPU seconds."""
        self.per_game.append(rounds)
        self.scores.append(scores)
        self.seconds += seconds

    def result(self, decisions: int, choices: int) -> SelfPlay:
        games = tuple(self.per_game)
        return SelfPlay(
            len(games), sum(games), decisions, choices, self.seconds, games, tuple(self.scores)
        )


def riichienv_selfplay(games: int, seed: int) -> SelfPlay:
    """Full Tenhou-rule hanchan on riichienv, random legal actions for every seat asked."""
    from riichienv import GameRule, GameType, RiichiEnv

    rule = GameRule.default_tenhou()
    rng = random.Random(seed)
    tally = Tally()
    decisions = choices = 0
    for g in range(games):
        start = time.process_time()
        env = RiichiEnv(
            game_mode=GameType.YON_HANCHAN, skip_mjai_logging=True, seed=seed + g, rule=rule
        )
        obs = env.reset()
        seen: set[tuple[int, int, int]] = set()
        while not env.done():
            seen.add((env.round_wind, env.kyoku_idx, env.honba))
            answers = {}
            for pid, ob in obs.items():
                legal = ob.legal_actions()
                if legal:
                    decisions += 1
                    choices += len(legal) > 1
                    answers[pid] = legal[rng.randrange(len(legal))]
            obs = env.step(answers)
        tally.game(len(seen), tuple(env.scores()), time.process_time() - start)
    return tally.result(decisions, choices)


def jansou_selfplay(games: int, seed: int) -> SelfPlay:
    """Full Tenhou-preset hanchan on jansou through its generator API."""
    from jansou.core.rules import preset
    from jansou.game.environment import Environment

    rules = preset("tenhou")
    rng = random.Random(seed)
    tally = Tally()
    decisions = choices = 0
    for g in range(games):
        start = time.process_time()
        env = Environment(rules, seed=seed + g)
        play = env.play()
        request = next(play)
        while True:
            actions = request.actions
            decisions += 1
            choices += len(actions) > 1
            try:
                request = play.send(actions[rng.randrange(len(actions))])
            except StopIteration as stop:
                result = stop.value
                break
        tally.game(len(env.records), tuple(result.scores), time.process_time() - start)
    return tally.result(decisions, choices)


def _pymahjong_next(
    wind: int, oya: int, renchan: bool, scores: list[int]
) -> tuple[int, int] | None:
    """The next hand's (round wind, dealer), or None when the hanchan is over."""
    if min(scores) < 0:
        return None
    if not renchan:
        oya = (oya + 1) % 4
        wind += oya == 0
    if wind >= 2 and (max(scores) >= TARGET or wind >= 3):
        return None
    return wind, oya


def pymahjong_selfplay(games: int, seed: int) -> SelfPlay:
    """Hanchan chained from pymahjong's single hands (see the module docstring)."""
    import pymahjong

    rng = random.Random(seed)
    tally = Tally()
    decisions = choices = 0
    for _ in range(games):
        start = time.process_time()
        points, honba, sticks = [START] * 4, 0, 0
        position: tuple[int, int] | None = (0, 0)
        played = 0
        while position is not None:
            wind, oya = position
            table = pymahjong.Table()
            table.set_seed(rng.randrange(1 << 30))
            table.game_init_with_config([], points, sticks, honba, wind, oya)
            while table.get_phase() < 16:
                offered = (
                    table.get_self_actions()
                    if table.get_phase() < 4
                    else table.get_response_actions()
                )
                decisions += 1
                choices += len(offered) > 1
                table.make_selection(rng.randrange(len(offered)))
            result = table.get_result()
            points = list(result.score)
            honba, sticks = result.n_honba, result.n_riichibo
            played += 1
            position = _pymahjong_next(wind, oya, bool(result.renchan), points)
        tally.game(played, tuple(points), time.process_time() - start)
    return tally.result(decisions, choices)


PEERS: dict[str, Callable[[int, int], SelfPlay]] = {
    "riichienv": riichienv_selfplay,
    "jansou": jansou_selfplay,
    "pymahjong": pymahjong_selfplay,
}


def installed(name: str) -> bool:
    """Whether a peer's package imports here (the bench extras are optional)."""
    try:
        __import__(name)
    except ImportError:
        return False
    return True
