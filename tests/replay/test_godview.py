"""engine.replay.godview: the god-view events of logged and stored games, played by the engine."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.centers import ReplayCenter
from engine.driver import run_sync
from engine.game.events import Agari, BeginGame, GameEnded, RoundStarted, Ryuukyoku
from engine.game.setup import new_game
from engine.replay.export import to_mjai
from engine.replay.godview import RoundFailed, replay_log, seeded_game
from engine.replay.record import ReplayError
from engine.rules.config import TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN
from engine.rules.facts import rule_facts
from tests.corpus import files, load


def _first(folder: str) -> dict[str, Any]:
    return load(files(folder)[0])


def _encode(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


@pytest.mark.parametrize("folder", ["tenhou", "tenhou-sanma"])
def test_a_corpus_game_ends_with_the_logs_final_scores(folder: str) -> None:
    doc = _first(folder)
    replay = replay_log(_encode(doc))
    n = replay.rules.players
    assert n == (3 if folder == "tenhou-sanma" else 4)
    assert isinstance(replay.events[0], BeginGame)
    assert replay.events[0].players == n
    last = replay.events[-1]
    assert isinstance(last, GameEnded)
    assert list(last.scores) == doc["sc"][0 : 2 * n : 2]
    hands = [e for e in replay.events if isinstance(e, RoundStarted)]
    ends = [e for e in replay.events if isinstance(e, Agari | Ryuukyoku)]
    assert len(hands) == len(ends) == len(doc["log"])
    # one stream: one start, one end
    assert sum(isinstance(e, BeginGame | GameEnded) for e in replay.events) == 2


def test_a_corrupted_round_is_named_with_its_first_difference() -> None:
    doc = copy.deepcopy(_first("tenhou"))
    third = doc["log"][2]
    label = f"{'ESWN'[third[0][0] // 4]}{third[0][0] % 4 + 1}-{third[0][1]}"
    result = third[16]
    result[1] = [d + 1000 * (1 if i == 0 else 0) for i, d in enumerate(result[1])]
    with pytest.raises(RoundFailed) as caught:
        replay_log(_encode(doc))
    assert caught.value.label == label
    assert str(caught.value).startswith(f"round {label} does not replay: deltas")


def test_garbage_is_refused_as_unreadable() -> None:
    with pytest.raises(ReplayError):
        replay_log(b"\xff\xfe")
    with pytest.raises(ReplayError):
        replay_log(b'{"title": "no log"}')
    with pytest.raises(ReplayError):
        replay_log(b'{"log": [[1, 2]]}')


def test_an_mjai_log_replays_to_the_games_scores() -> None:
    game = new_game(TENHOU_HANCHAN, 7, ReplayCenter([]))
    run_sync(game, fill_defaults=True)
    lines = to_mjai(game, ["a", "b", "c", "d"])
    body = b"\n".join(json.dumps(line).encode() for line in lines)
    replay = replay_log(body)
    assert replay.names == ("a", "b", "c", "d")
    hands = [e for e in replay.events if isinstance(e, RoundStarted)]
    assert len(hands) == len(game.rounds)
    ends = [e for e in replay.events if isinstance(e, Agari | Ryuukyoku)]
    assert list(ends[-1].scores) == list(game.scores)


def test_a_stored_game_replays_from_seed_and_decisions_to_its_scores() -> None:
    game = new_game(TENHOU_SANMA_HANCHAN, 11, ReplayCenter([]))
    run_sync(game, fill_defaults=True)
    decisions = list(game.decisions)
    _, events = seeded_game(TENHOU_SANMA_HANCHAN, 11, decisions)
    assert isinstance(events[-1], GameEnded)
    assert events[-1].scores == game.scores
    # only the first two hands of a game that did not end
    _, two = seeded_game(TENHOU_SANMA_HANCHAN, 11, decisions, rounds=2)
    assert sum(isinstance(e, RoundStarted) for e in two) == 2
    assert not any(isinstance(e, GameEnded) for e in two)


def test_rule_facts_come_from_the_rules() -> None:
    assert rule_facts(TENHOU_HANCHAN) == {"players": 4, "red": [16, 52, 88], "wall": 70}
    facts = rule_facts(TENHOU_SANMA_HANCHAN)
    assert facts["players"] == 3 and facts["wall"] == 55
