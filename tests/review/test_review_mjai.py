"""The mjai path end to end: ``python -m engine.review --engine mjai:strong`` runs our strong
bot as an mjai process (``python -m engine.bot.mjai --bot strong --meta``), which answers
with Mortal's meta.q_values / mask_bits; the review read from it must match the in-process
strong review decision by decision. Plus Mortal's action labels and a reply without meta."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.actions.types import ActionType
from engine.bot import mjai_labels as labels
from engine.review import MjaiReviewer, StrongReviewer, review_game, review_record
from engine.rules.config import TENHOU_HANCHAN
from engine.rules.tiles import DEFAULT_RED, mjai_kind, parse
from tests.review.games import played, record

ROOT = Path(__file__).resolve().parents[2]


def _cli(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.review", str(path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_an_mjai_ai_reviews_through_its_process_as_the_strong_bot_does(tmp_path: Path) -> None:
    game = played(TENHOU_HANCHAN, 9, ["easy", "strong", "easy", "strong"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(game)))
    for seat in (0, 1):
        done = _cli(path, "--seat", str(seat), "--engine", "mjai:strong", "--json")
        assert done.returncode == 0, done.stderr
        report: dict[str, Any] = json.loads(done.stdout)
        local = review_record(record(game), seat, StrongReviewer())
        assert report["model_tag"] == "mjai:strong"
        assert report["total_reviewed"] == local.total_reviewed > 80
        assert report["total_matches"] == local.total_matches
        assert report["grades"] == local.grades
        mine = [e for k in local.kyokus for e in k.entries]
        theirs = [e for k in report["kyokus"] for e in k["entries"]]
        assert [e["is_equal"] for e in theirs] == [e.is_equal for e in mine]
        assert [e["actual"]["type"] for e in theirs] == [e.actual["type"] for e in mine]
        detail = theirs[0]["details"][0]
        assert set(detail) == {"action", "q_value", "prob"}
    assert local.total_matches == local.total_reviewed  # seat 1 is a strong bot
    easy = review_record(record(game), 0, StrongReviewer())
    assert easy.total_matches < easy.total_reviewed


def test_the_summary_names_the_costliest_decisions_and_errors_exit_2(tmp_path: Path) -> None:
    game = played(TENHOU_HANCHAN, 9, ["easy"] * 4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(game)))
    done = _cli(path, "--seat", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("reviewer strong, seat 3:") and "match rate" in lines[1]
    assert any("junme" in line and "best" in line for line in lines[3:])
    path.write_text(json.dumps(record(game) | {"seed": None}))
    refused = _cli(path, "--seat", "3")
    assert refused.returncode == 2 and "in play" in refused.stderr
    unknown = _cli(path, "--seat", "3", "--engine", "mjai:nobody")
    assert unknown.returncode == 2


def test_the_plain_mjai_process_keeps_its_answers_without_meta() -> None:
    lines = [
        {"type": "start_game", "id": 0},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "dora_marker": "1m",
            "scores": [25000] * 4,
            "tehais": [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "P", "C"]]
            + [["?"] * 13] * 3,
        },
        {"type": "tsumo", "actor": 0, "pai": "5mr"},
    ]
    text = "".join(json.dumps(x) + "\n" for x in lines)
    answers = {}
    for flag in ([], ["--meta"]):
        done = subprocess.run(
            [sys.executable, "-m", "engine.bot.mjai", "--bot", "strong", *flag],
            input=text,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        answers[bool(flag)] = json.loads(done.stdout.splitlines()[-1])
    assert "meta" not in answers[False]
    meta = answers[True].pop("meta")
    assert answers[True] == answers[False]
    values = labels.decode(meta["mask_bits"], meta["q_values"])
    # 12 kinds in hand plus the red 5m drawn: one label each, the chosen one the best
    assert len(values) == 13 and 34 in values
    kind, is_red = mjai_kind(answers[True]["pai"])
    chosen = 34 + kind // 9 if is_red else kind
    assert values[chosen] == max(values.values())


def test_mortal_labels_of_engine_choices() -> None:
    red = DEFAULT_RED
    five_m, five_p = parse("5m")[0], parse("5p")[0]
    assert labels.discard_label(five_m, frozenset()) == 4
    red_five = next(t for t in red if t >> 2 == 13)
    assert labels.discard_label(red_five, red) == 35
    own = tuple(parse("46p"))
    assert labels.label(ActionType.CHII, own, five_p, 4, red) == 39
    assert labels.label(ActionType.CHII, tuple(parse("67p")), five_p, 4, red) == 38
    assert labels.label(ActionType.CHII, tuple(parse("34p")), five_p, 4, red) == 40
    assert labels.label(ActionType.PON, own, five_p, 4, red) == 41
    assert labels.label(ActionType.PON, own, five_p, 3, red) == 38
    assert labels.label(ActionType.KITA, (), -1, 3, red) == 40
    assert labels.label(ActionType.KITA, (), -1, 4, red) is None
    assert labels.label(ActionType.SKIP, (), -1, 4, red) == 45
    mask, q = labels.encode([(45, 0.0), (3, 2.0), (3, 1.0), (41, -1.0)])
    assert mask == (1 << 3) | (1 << 41) | (1 << 45) and q == [2.0, -1.0, 0.0]
    assert labels.decode(mask, q) == {3: 2.0, 41: -1.0, 45: 0.0}


def test_an_ai_that_answers_without_meta_reviews_nothing() -> None:
    game = played(TENHOU_HANCHAN, 2, ["easy"] * 4)
    asked: list[int] = []

    def ask(events: list[dict[str, Any]]) -> dict[str, Any]:
        asked.append(len(events))
        return {"type": "none"}

    reviewer = MjaiReviewer("mjai:plain", ask, TENHOU_HANCHAN, 0)
    review = review_game(TENHOU_HANCHAN, 2, game.decisions, 0, reviewer)
    assert review.total_reviewed == 0 and review.skipped == len(asked) > 50
    assert asked[0] >= 3  # start_game, start_kyoku, the first tsumo
