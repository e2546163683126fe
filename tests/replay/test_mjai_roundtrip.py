"""mjai lines written from real Tenhou rounds read back to the same rounds."""

from __future__ import annotations

import json

from engine.replay.check import check_game
from engine.replay.mjai_read import read_mjai
from engine.replay.mjai_write import mjai_events, write_mjai
from engine.replay.tenhou_read import read_game
from engine.replay.tenhou_write import round_body
from tests.corpus import files, load


def _same_rounds(folder: str, every: int = 1) -> None:
    for path in files(folder)[::every]:
        game = load(path)
        record = read_game(game)
        back = read_mjai(write_mjai(record), record.rules)
        assert len(back.rounds) == len(record.rounds)
        for raw, rec, got in zip(game["log"], record.rounds, back.rounds, strict=True):
            where = f"{path.name} {rec.label}"
            assert round_body(got, record.rules) == raw[:16], where
            assert (got.end.kind, got.end.deltas) == (rec.end.kind, rec.end.deltas), where
            wins = [(w.who, w.from_seat, w.deltas) for w in rec.end.wins]
            assert [(w.who, w.from_seat, w.deltas) for w in got.end.wins] == wins, where


def test_four_player_corpus_rounds_survive_mjai_and_back() -> None:
    """Every fourth game (about 200, 2,000 rounds): the full set costs half a minute."""
    _same_rounds("tenhou", every=4)


def test_round_fragments_survive_mjai_and_back() -> None:
    _same_rounds("tenhou-rounds")


def test_chankan_is_a_hora_on_the_kakan_with_kan_dora_not_yet_shown() -> None:
    path = next(p for p in files("tenhou-rounds") if p.name == "mjai-reviewer-chankan.json")
    events = mjai_events(read_game(load(path)))
    kinds = [e["type"] for e in events]
    at = kinds.index("kakan")
    assert events[at] == {"type": "kakan", "actor": 3, "pai": "6s", "consumed": ["6s"] * 3}
    assert kinds[at + 1 : at + 3] == ["hora", "end_kyoku"]
    assert events[at + 1]["actor"] == 2 and events[at + 1]["target"] == 3
    assert "dora" not in kinds


def test_mjai_lines_are_one_compact_json_object_each() -> None:
    path = next(p for p in files("tenhou-rounds") if p.name == "mjai-reviewer-four-reach.json")
    lines = write_mjai(read_game(load(path))).splitlines()
    assert json.loads(lines[0])["type"] == "start_game"
    assert json.loads(lines[-1]) == {"type": "end_game"}
    assert all(" " not in line for line in lines)
    assert read_mjai("\n".join(lines)).rounds[0].end.kind == "suucha_riichi"


def test_mjai_without_deltas_still_checks_the_play_but_not_the_points() -> None:
    path = next(p for p in files("tenhou-rounds") if p.name == "mjai-reviewer-double-ron.json")
    events = mjai_events(read_game(load(path)))
    stripped = [{k: v for k, v in e.items() if k != "deltas"} for e in events]
    record = read_mjai("".join(json.dumps(e) + "\n" for e in stripped))
    (rnd,) = record.rounds
    assert rnd.end.deltas == () and [w.who for w in rnd.end.wins] == [0, 2]
    assert [v.reason for v in check_game(record)] == [None]
