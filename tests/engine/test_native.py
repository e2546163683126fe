"""The compiled engine (engine.native): CI runs it, it plays exactly as the source does, and
a source edited since the build, or RIICHI_INTERPRETED, runs the source instead.

Each check starts real interpreters, as a player's server or an operator's shell would."""

from __future__ import annotations

import functools
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from engine import native

ROOT = Path(__file__).resolve().parents[2]

#: plays seeded matches and prints which engine ran, then one line per match: every event
#: each seat was told, every decision, the final scores (random answers reach riichi, kans,
#: calls and wins often; the strong bots play whole hands as a player would)
PLAY = """
import hashlib, sys, msgspec
import engine.native
from engine.bot import make
from engine.centers import BotCenter, RandomCenter
from engine.driver import run_sync
from engine.game import new_game
from engine.rules.config import MLEAGUE, TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN

print(engine.native.describe())
for seed, rules in enumerate([TENHOU_HANCHAN, TENHOU_SANMA_HANCHAN, MLEAGUE] * 2):
    center = RandomCenter(seed, wants_events=True)
    game = new_game(rules, seed, center)
    run_sync(game)
    told = hashlib.sha256()
    for seat, event in center.events:
        told.update(f"{seat}:{type(event).__name__}:".encode() + msgspec.json.encode(event))
    made = hashlib.sha256(msgspec.json.encode(game.decisions)).hexdigest()[:16]
    print(len(center.events), told.hexdigest()[:16], made, game.scores)
for seed in range(2):
    bots = BotCenter([make("strong") for _ in range(4)])
    game = bots.game = new_game(TENHOU_HANCHAN, 100 + seed, bots)
    run_sync(game)
    made = hashlib.sha256(msgspec.json.encode(game.decisions)).hexdigest()[:16]
    print(len(game.decisions), made, "".join(r.kind.value[0] for r in game.rounds), game.scores)
"""


def _run(code: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> list[str]:
    base = {k: v for k, v in os.environ.items() if k != native.INTERPRETED_ENV}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**base, "PYTHONPATH": str(cwd), **(env or {})},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_engine_runs_as_native_reports_and_ci_runs_it_compiled() -> None:
    """Every hot module loads the way ``native.REASON`` says (all extensions, or all source),
    and under CI it is the compiled engine: CI must test what the README's install ships."""
    loaded = {str(importlib.import_module(m).__file__).endswith(".py") for m in native.COMPILED}
    assert loaded == {native.REASON is not None}, native.REASON
    if os.environ.get("CI") == "true":
        assert native.REASON is None, native.REASON


def test_compiled_and_interpreted_engines_play_the_same_matches() -> None:
    compiled = _run(PLAY)
    interpreted = _run(PLAY, env={native.INTERPRETED_ENV: "1"})
    assert interpreted[0].startswith("interpreted (RIICHI_INTERPRETED is set)")
    assert compiled[0].startswith("compiled" if _built() else "interpreted (not compiled")
    assert len(compiled) == 9 and compiled[1:] == interpreted[1:]


WHICH = """
import engine.native, engine.game.offers, engine.actions.records
print(engine.native.REASON)
print(engine.game.offers.__file__)
print(engine.actions.records.__file__)
"""


@functools.cache
def _built() -> bool:
    """Whether the checkout's build compiled the engine (whatever this process runs)."""
    return _run(WHICH)[0] == "None"


def _copy(tmp_path: Path) -> Path:
    """The engine with its extensions, as the build left them, somewhere else."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__py*"))
    for group in ROOT.glob(f"{native.GROUP}__mypyc*"):
        shutil.copy(group, tmp_path)
    return tmp_path


def test_a_source_edited_since_the_build_runs_interpreted(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    reason, offers, records = _run(WHICH, copy)
    assert records.endswith("records.py")  # never compiled
    if _built():  # the copy runs compiled, as the checkout does
        assert (reason, offers.endswith(".py")) == ("None", False)
    turn = copy / "engine" / "game" / "turn.py"
    turn.write_text(turn.read_text() + "# edited\n")
    reason, offers, _ = _run(WHICH, copy)
    assert offers.endswith("offers.py")
    assert ("changed since the build" if _built() else "not compiled") in reason


def test_riichi_interpreted_runs_the_source() -> None:
    reason, offers, _ = _run(WHICH, env={native.INTERPRETED_ENV: "1"})
    assert reason == "RIICHI_INTERPRETED is set" and offers.endswith("offers.py")


def test_only_discard_options_are_discard_options_after_a_sequence_check() -> None:
    """A compiled subclass of an ABC once shared Sequence's instance cache: after one list
    was checked against Sequence, every list passed ``isinstance(x, DiscardOptions)`` (the
    wire then read a fake engine's option list as lazy discards)."""
    from collections.abc import Sequence

    from engine.actions.types import DiscardOptions, Option

    options = DiscardOptions([4, 8], None)  # type: ignore[arg-type]  # no tenpai is read
    assert isinstance([Option((4,))], Sequence) and isinstance((), Sequence)
    assert not isinstance([Option((4,))], DiscardOptions)
    assert not isinstance((), DiscardOptions)
    assert isinstance(options, DiscardOptions) and isinstance(options, Sequence)
    assert [o.tiles for o in options] == [(4,), (8,)] and len(options) == 2


def test_the_recorded_structs_keep_their_class_keywords() -> None:
    """A msgspec Struct made in a module mypyc compiles loses ``frozen`` and ``array_like``:
    a decision record would encode as an object and could be changed. The records live in an
    interpreted module (engine.actions.records) for that."""
    import msgspec

    from engine.actions.types import Choice, Decision, TenpaiInfo

    assert msgspec.json.encode(Decision(1, 2, 3, 4)) == b"[1,2,3,4]"
    assert msgspec.json.encode(TenpaiInfo(1, 2, 30, 0, 2000)) == b"[1,2,30,0,2000]"
    for struct in (Decision, TenpaiInfo, Choice):
        assert struct.__struct_config__.frozen, struct


SERVER_WHICH = """
import server.native, server.session.table, engine.native
print(server.native.REASON)
print(server.session.table.__file__)
print(engine.native.REASON)
"""


def test_the_server_runs_compiled_or_interpreted_as_a_set_of_its_own() -> None:
    """The server's hot modules (server/native.py) load the way its REASON says, under CI
    compiled; RIICHI_INTERPRETED runs their source (the suite's server tests run the compiled
    set, tests/server/session/test_views.py the interpreted table beside it)."""
    from server import native as server_native

    loaded = {
        str(importlib.import_module(m).__file__).endswith(".py") for m in server_native.COMPILED
    }
    assert loaded == {server_native.REASON is not None}, server_native.REASON
    if os.environ.get("CI") == "true":
        assert server_native.REASON is None, server_native.REASON
    reason, table, engine_reason = _run(SERVER_WHICH, env={native.INTERPRETED_ENV: "1"})
    assert reason == engine_reason == "RIICHI_INTERPRETED is set" and table.endswith("table.py")
