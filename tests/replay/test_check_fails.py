"""The checker fails a round for each kind of disagreement, and says where."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.replay.__main__ import main
from engine.replay.check import check_game
from engine.replay.mjai_write import write_mjai
from engine.replay.tenhou_read import read_game
from tests.corpus import files, load


def _chankan() -> dict[str, Any]:
    path = next(p for p in files("tenhou-rounds") if p.name == "mjai-reviewer-chankan.json")
    return load(path)


def _reason(game: dict[str, Any]) -> str | None:
    (verdict,) = check_game(read_game(game))
    return verdict.reason


def test_the_unaltered_chankan_round_matches() -> None:
    assert _reason(_chankan()) is None


def test_a_wrong_delta_fails_with_both_deltas() -> None:
    game = _chankan()
    game["log"][0][16][1] = [0, 0, 7700, -7700]
    assert _reason(game) == "deltas [0, 0, 8000, -8000], log [0, 0, 7700, -7700]"


def test_a_wrong_yaku_fails_with_both_yaku_lists() -> None:
    game = _chankan()
    game["log"][0][16][2][5] = "赤ドラ(1飜)"
    reason = _reason(game) or ""
    assert reason.startswith("seat 2 win: yaku ") and "赤ドラ(2)" in reason


def test_a_riichi_on_a_hand_far_from_tenpai_is_not_offered() -> None:
    game = _chankan()
    game["log"][0][6][0] = "r44"  # seat 0's first discard, from a 4-shanten hand
    reason = _reason(game) or ""
    assert reason.startswith("seat 0 turn 1 (step 1): riichi 4z not offered (offered: DISCARD ")
    assert "RIICHI" not in reason


def test_a_log_that_stops_before_the_engine_does_fails() -> None:
    game = _chankan()
    game["log"][0][16] = ["流局", [1500, -1500, 1500, -1500]]
    reason = _reason(game) or ""
    assert reason.startswith(
        "seat 3 turn 12 (step 90): engine asks this seat to act after the log's"
    )


def test_cli_prints_mismatches_then_the_exact_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = _chankan(), copy.deepcopy(_chankan())
    bad["log"][0][16][1] = [0, 0, 7700, -7700]
    (tmp_path / "good.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    assert main(["check", str(tmp_path / "good.json")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "matched 1/1 rounds in 1 games"
    assert main(["check", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bad.json E1-0: deltas [0, 0, 8000, -8000]")
    assert lines[-1] == "matched 1/2 rounds in 2 games"


def test_a_sanma_game_replays_every_round_and_its_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = files("tenhou-sanma")[0]
    rounds = len(load(path)["log"])
    assert main(["check", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "match ends (logs with final scores): matched 1/1"
    assert lines[-1] == f"matched {rounds}/{rounds} rounds in 1 games"


def test_an_unreadable_file_is_one_failed_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken.json").write_text('{"log": [[1, 2]]}', encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "broken.json log: unreadable" in out
    assert out.splitlines()[-1] == "matched 0/1 rounds in 1 games"


def test_cli_reads_mjai_lines_by_extension(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = read_game(_chankan())
    (tmp_path / "chankan.jsonl").write_text(write_mjai(record), encoding="utf-8")
    (tmp_path / "chankan.mjson").write_text(write_mjai(record), encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "matched 2/2 rounds in 2 games"
