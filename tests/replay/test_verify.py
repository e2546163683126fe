"""``engine.replay verify`` on games the engine played: honest records verify, and every kind
of tampering (seed, commitment, a decision, a round result, a wall tile) is caught."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.centers import RandomCenter
from engine.driver import run_sync
from engine.game.game import Game
from engine.game.setup import new_game
from engine.replay.__main__ import main
from engine.replay.export import to_tenhou
from engine.replay.verify import verify_document, verify_record, verify_tenhou
from engine.rules.bagime import bagime
from engine.rules.config import PRESETS
from engine.rules.wall import seed_commitment
from tests.replay.server_record import server_record

SEED = 8_112_004_517_389_221_003


def _json(value: Any) -> dict[str, Any]:
    return msgspec.json.decode(msgspec.json.encode(value), type=dict[str, Any])


@pytest.fixture(scope="module")
def game() -> Game:
    return run_sync(new_game(PRESETS["tenhou-tonpuu"], SEED, RandomCenter(11)))


@pytest.fixture
def record(game: Game) -> dict[str, Any]:
    """The game as the server's JSON record lays it out."""
    return server_record(game, SEED)


@pytest.fixture
def tenhou(game: Game) -> dict[str, Any]:
    return _json(to_tenhou(game, ["A", "B", "C", "D"], practice=True))


def test_the_commitment_is_the_documented_hash() -> None:
    import hashlib

    expected = hashlib.sha256(b"riichi-seed-v1:42").hexdigest()
    assert seed_commitment(42) == expected


def test_an_honest_record_and_its_tenhou_export_verify(
    record: dict[str, Any], tenhou: dict[str, Any]
) -> None:
    verdict = verify_record(record)
    assert verdict.ok and verdict.failures == () and verdict.rounds == len(record["rounds"])
    exported = verify_tenhou(tenhou)
    assert exported.ok and exported.practice and exported.rounds == len(tenhou["log"])
    assert tenhou["seed"] == SEED and tenhou["commitment"] == seed_commitment(SEED)


def test_a_changed_seed_breaks_the_commitment_and_the_replay(record: dict[str, Any]) -> None:
    record["seed"] = SEED + 1
    verdict = verify_record(record)
    assert not verdict.commitment_ok and not verdict.replay_ok
    assert "not the commitment" in verdict.failures[0]


def test_a_recomputed_commitment_still_fails_the_replay(record: dict[str, Any]) -> None:
    record["seed"] = SEED + 1
    record["commitment"] = seed_commitment(SEED + 1)
    verdict = verify_record(record)
    assert verdict.commitment_ok and not verdict.replay_ok


def test_a_record_without_a_seed_is_not_verified(record: dict[str, Any]) -> None:
    record["seed"] = None
    verdict = verify_record(record)
    assert not verdict.ok and verdict.failures[0].startswith("no seed")


@pytest.mark.parametrize("index", [0, 7, -1])
def test_every_changed_decision_is_caught(record: dict[str, Any], index: int) -> None:
    """Another legal answer, an illegal one or a missing one: the replay is not the record."""
    for change in ("next", "illegal", "drop"):
        tampered = copy.deepcopy(record)
        decision = tampered["decisions"][index]
        if change == "next":
            decision[2] = (decision[2] + 1) % 3
        elif change == "illegal":
            decision[2] = 99
        else:
            del tampered["decisions"][index]
        verdict = verify_record(tampered)
        assert verdict.commitment_ok and not verdict.replay_ok, (change, verdict)


def test_a_changed_round_result_is_caught(record: dict[str, Any]) -> None:
    record["rounds"][0]["deltas"][0] += 1000
    verdict = verify_record(record)
    assert not verdict.replay_ok
    assert verdict.failures == ("round 0 (E1-0): stored deltas differ from the replay",)


def test_a_missing_round_or_changed_final_score_is_caught(record: dict[str, Any]) -> None:
    dropped = copy.deepcopy(record)
    dropped["rounds"].pop()
    assert not verify_record(dropped).replay_ok
    record["result"]["scores"][0] += 100
    assert not verify_record(record).replay_ok


def test_a_tenhou_log_whose_walls_do_not_follow_the_seed_fails(tenhou: dict[str, Any]) -> None:
    swapped = copy.deepcopy(tenhou)
    swapped["seed"] = SEED + 1
    swapped["commitment"] = seed_commitment(SEED + 1)
    verdict = verify_tenhou(swapped)
    assert verdict.commitment_ok and not verdict.replay_ok
    assert len(verdict.failures) == len(tenhou["log"])
    for code in (11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29):
        changed = copy.deepcopy(tenhou)
        if changed["log"][0][2][0] == code:
            continue
        changed["log"][0][2][0] = code  # the first dora indicator
        verdict = verify_tenhou(changed)
        if not verdict.failures[0].startswith("unreadable"):  # five of a kind: try another
            break
    assert verdict.commitment_ok and not verdict.replay_ok
    assert verdict.failures[0].startswith("round 0 (E1-0): dora indicator 0 is tile")
    unseeded = copy.deepcopy(tenhou)
    del unseeded["seed"]
    assert not verify_tenhou(unseeded).ok


def test_the_cli_verifies_files_and_names_each_failure(
    record: dict[str, Any], tenhou: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    good, log, bad = tmp_path / "good.json", tmp_path / "log.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    log.write_text(json.dumps(tenhou))
    record["seed"] += 1
    bad.write_text(json.dumps(record))
    assert main(["verify", str(good), str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("good.json: verified") and "practice" in out[1]
    assert main(["verify", str(good), str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("bad.json: commitment") for line in out)
    assert not any(line.startswith("bad.json: verified") for line in out)
    assert not verify_document([1, 2]).ok


#: a 128-bit seed and a salt, as a v2 server draws them
WIDE_SEED = 0xA5F0_0123_4567_89AB_CDEF_FEDC_BA98_7654
SALT = "00112233445566778899aabbccddeeff"


def test_the_v2_commitment_is_the_documented_salted_hash() -> None:
    import hashlib

    expected = hashlib.sha256(f"riichi-seed-v2:{SALT}:{WIDE_SEED}".encode()).hexdigest()
    assert seed_commitment(WIDE_SEED, SALT) == expected != seed_commitment(WIDE_SEED)


def test_a_128_bit_seed_with_a_v2_commitment_verifies_and_a_changed_salt_does_not(
    tmp_path: Path,
) -> None:
    """The whole 128 bits make the walls (a seed a bit apart deals other walls), the record
    and its Tenhou export verify with ``python -m engine.replay verify``, and the salt is
    part of the commitment."""
    from engine.rules.wall import shuffled_tiles

    assert shuffled_tiles(WIDE_SEED, 0) != shuffled_tiles(WIDE_SEED ^ (1 << 100), 0)
    wide = run_sync(new_game(PRESETS["tenhou-tonpuu"], WIDE_SEED, RandomCenter(5)))
    record = server_record(wide, WIDE_SEED)
    record["commitment"], record["salt"] = seed_commitment(WIDE_SEED, SALT), SALT
    tenhou = _json(to_tenhou(wide, ["A", "B", "C", "D"], salt=SALT))
    assert tenhou["salt"] == SALT and tenhou["commitment"] == record["commitment"]
    for name, doc in (("record.json", record), ("tenhou.json", tenhou)):
        (tmp_path / name).write_text(json.dumps(doc))
        assert main(["verify", str(tmp_path / name)]) == 0
    record["salt"] = SALT[::-1]
    verdict = verify_record(record)
    assert not verdict.commitment_ok and verdict.replay_ok


def test_a_drawn_record_and_its_tenhou_export_verify_the_draw(
    game: Game, record: dict[str, Any]
) -> None:
    draw = list(bagime(SEED, 4))
    record["draw"] = draw
    verdict = verify_record(record)
    assert verdict.ok and verdict.drawn and verdict.draw_ok, verdict
    log = _json(to_tenhou(game, ["A", "B", "C", "D"], draw=draw))
    assert log["draw"] == draw
    exported = verify_tenhou(log)
    assert exported.ok and exported.drawn, exported


def test_an_old_record_without_a_draw_still_verifies(
    record: dict[str, Any], tenhou: dict[str, Any]
) -> None:
    assert "draw" not in record and "draw" not in tenhou
    for verdict in (verify_record(record), verify_tenhou(tenhou)):
        assert verdict.ok and not verdict.drawn


@pytest.mark.parametrize("kind", ["other seating", "not a permutation", "wrong length"])
def test_a_tampered_draw_fails_in_the_record_and_the_tenhou_export(
    game: Game, record: dict[str, Any], kind: str
) -> None:
    honest = list(bagime(SEED, 4))
    if kind == "other seating":
        tampered = [honest[1], honest[0], *honest[2:]]  # two players swap seats
    elif kind == "not a permutation":
        tampered = [0, 0, 1, 2]
    else:
        tampered = honest[:3]
    record["draw"] = tampered
    verdict = verify_record(record)
    assert verdict.commitment_ok and verdict.replay_ok and not verdict.draw_ok
    assert not verdict.ok and verdict.failures[-1].startswith("the seat draw")
    log = _json(to_tenhou(game, ["A", "B", "C", "D"], draw=honest))
    log["draw"] = tampered
    exported = verify_tenhou(log)
    assert not exported.ok and not exported.draw_ok
    assert exported.failures[-1].startswith("the seat draw")


def test_a_malformed_draw_in_a_tenhou_log_is_unreadable(game: Game) -> None:
    log = _json(to_tenhou(game, ["A", "B", "C", "D"], draw=bagime(SEED, 4)))
    log["draw"] = "east"
    verdict = verify_tenhou(log)
    assert not verdict.ok and verdict.failures[0].startswith("unreadable")


def test_the_cli_names_a_checked_draw_and_a_tampered_one(
    record: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    record["draw"] = list(bagime(SEED, 4))
    good.write_text(json.dumps(record))
    record["draw"] = record["draw"][::-1]
    bad.write_text(json.dumps(record))
    assert main(["verify", str(good)]) == 0
    assert "seat draw" in capsys.readouterr().out
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.json: the seat draw" in out and "verified" not in out
