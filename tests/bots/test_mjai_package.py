"""Our mjai bots inside an independent engine: the ``mjai`` package (mjai.app's) hosts them.

The package pins an old ``mahjong`` and ships ``mlibriichi`` (Mortal's libriichi), so it gets
its own virtual environment (tests/bots/mjai_venv.py, made once per machine). Its
``Simulator`` needs docker containers per player; the game engine under it
(``mlibriichi.arena.Match``) does not, so ``mjai_package_match.py`` runs that engine with
agents that talk to ``python -m engine.bot.mjai SEAT`` over stdio. The package's engine
rejects any illegal reaction (the match then fails), and the log it writes is replayed hand
by hand by our engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.replay.check import check_round
from engine.replay.mjai_read import read_mjai
from tests.bots.mjai_venv import package_python

ROOT = Path(__file__).resolve().parents[2]


def test_a_strong_bot_plays_a_hanchan_in_the_mjai_packages_engine(tmp_path: Path) -> None:
    script = Path(__file__).with_name("mjai_package_match.py")
    bots = ["strong", "easy", "easy", "easy"]
    cmd = [str(package_python()), str(script), sys.executable, str(ROOT), "7", str(tmp_path)]
    done = subprocess.run(cmd + bots, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    games = [g for agent in out["games"] for g in agent]
    assert sorted(g[0] for g in games) == [0, 1, 2, 3]  # every seat played to the end
    for _seat, _scores, code, errors in games:
        assert code == 0 and errors == "", errors
    events = out["events"]
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    record = read_mjai("".join(json.dumps(e) + "\n" for e in events))
    assert len(record.rounds) >= 8
    for rnd in record.rounds:
        assert check_round(rnd, record.rules) is None, (rnd.kyoku, rnd.honba)
