"""An mjai AI over stdio in a seat (bot ``mjai:NAME``), against a real ``python -m server``.

The administrator registers the command (``RIICHI_MJAI_BOTS``); rooms seat it by name and the
server runs one process per seat. Our own ``python -m engine.bot.mjai`` plays a whole
tonpuusen and the record replays; a faulty command (nonsense once, too slow once, a crash
once) costs its seat a few defaults and one restart, and the table still ends. Every process
is gone when the game is over, or when the server stops mid-game; a bad registration stops
the server at start.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.settings import Settings, SettingsError
from tests.server.process import server_process
from tests.server.stdio_seats import ROOT, play_stdio
from tests.server.stdio_seats import children as stdio_children

OURS = [sys.executable, "-m", "engine.bot.mjai", "--bot", "strong"]
#: per decision, where a process is to be late once: long enough that a loaded machine's
#: slow start of the proxied bot (its imports) is not taken for the planned lateness (at
#: 2.5 s, full runs at load 10-20 saw the early answers time out, so the planned nonsense
#: answered an inquiry already settled and was never judged), short enough for the test
TIMEOUT_S = 8.0
#: per decision, where the claim is that the process is never late: our bot answers in
#: milliseconds, but a loaded 2-core machine can stall a process (its start, an import) for
#: seconds, which a 2.5 s deadline once counted as a timeout
GENEROUS_S = 60.0

FAULTY = """
import os, subprocess, sys, time

# our bot behind a proxy that misbehaves in its first run: one nonsense line, one answer
# too late, then an exit mid-game (a fresh run, the restart, behaves)
state = {state!r}
starts = len(os.listdir(state))
open(os.path.join(state, f"{{starts}}-{{os.getpid()}}"), "w").close()
bot = subprocess.Popen(
    [sys.executable, "-m", "engine.bot.mjai", "--bot", "easy"],
    cwd={root!r},
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
)
asked = 0
for line in sys.stdin:
    asked += 1
    bot.stdin.write(line)
    bot.stdin.flush()
    answer = bot.stdout.readline()
    if starts == 0 and asked == 4:
        answer = "nonsense\\n"
    if starts == 0 and asked == 8:
        time.sleep({sleep})
    if starts == 0 and asked == 12:
        sys.exit(3)
    sys.stdout.write(answer)
    sys.stdout.flush()
"""


def _offers_only_the_registered(http: httpx.Client) -> None:
    offered = {b["name"]: b for b in http.get("/api/bots").json()["bots"]}
    assert offered["mjai:ai"]["external"] is False  # the server runs it: nothing to connect
    assert "mjai" not in offered  # no bot token: no socket seats
    refused = http.post("/api/rooms", json={"bots": 4, "bot_names": ["mjai:other"]})
    assert refused.status_code == 400 and "mjai:ai" in refused.text


def _play(
    tmp_path: Path, command: list[str], names: list[str], timeout_s: float
) -> tuple[dict[str, Any], str, int]:
    """One all-bot tonpuusen with ``mjai:ai`` among ``names``: (the JSON record, the
    server's log, the most processes the server had at once)."""
    game = play_stdio(
        tmp_path, {"ai": command}, names, timeout_s, before=_offers_only_the_registered
    )
    return game.record, game.log, game.most


def test_our_mjai_process_plays_a_seat_over_stdio_to_the_end(tmp_path: Path) -> None:
    record, log, most = _play(tmp_path, OURS, ["strong", "mjai:ai", "easy", "easy"], GENEROUS_S)
    assert most == 1  # one process, for the one mjai seat
    mjai = record["draw"][1]  # the seat drawn for place 1, the mjai bot's
    seat = [d for d in record["decisions"] if d[1] == mjai]
    assert len(seat) > 20 and not any(d[4] for d in seat)  # it played, never timed out
    for bad in ("no legal choice", "no reaction within", "restarted", "is gone", "Traceback"):
        assert bad not in log, log[-3000:]


def test_a_faulty_mjai_process_costs_defaults_and_a_restart_never_the_table(
    tmp_path: Path,
) -> None:
    state = tmp_path / "starts"
    state.mkdir()
    script = tmp_path / "faulty.py"
    script.write_text(FAULTY.format(root=str(ROOT), state=str(state), sleep=TIMEOUT_S + 1.5))
    record, log, _ = _play(
        tmp_path, [sys.executable, str(script)], ["easy", "easy", "mjai:ai", "easy"], TIMEOUT_S
    )
    starts = sorted(state.iterdir())
    assert len(starts) >= 2, log[-3000:]  # the crash was followed by a fresh process
    assert "restarted (start 2)" in log
    assert "no legal choice" in log and "nonsense" in log  # the nonsense, logged
    assert "no reaction within" in log  # the slow answer
    assert "Traceback" not in log, log[-3000:]
    for name in (p.name for p in starts):  # every process it started is gone
        pid = int(name.split("-")[1])
        assert not Path(f"/proc/{pid}").exists() or "Z" in _state(pid)
    # after the restart the fresh process kept playing: decisions after the crash were its
    seat = [d for d in record["decisions"] if d[1] == record["draw"][2]]  # place 2's seat
    assert len(seat) > 20


def _state(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1]).split()[0]
    except OSError:
        return "Z"


def test_the_registered_commands_are_checked_at_start() -> None:
    ok = Settings(mjai_bots=json.dumps({"mortal": ["python3", "-m", "mortal"]}))
    ok.validate()
    assert ok.mjai_commands == {"mortal": ["python3", "-m", "mortal"]}
    assert Settings().mjai_commands == {}
    for bad in ('["python3"]', "{oops", '{"Bad Name": ["x"]}', '{"a": []}', '{"a": "python3"}'):
        with pytest.raises(SettingsError, match="mjai_bots"):
            Settings(mjai_bots=bad).validate()
    with pytest.raises(SettingsError, match="mjai_timeout_s"):
        Settings(mjai_timeout_s=0.0).validate()


def test_the_servers_stop_ends_a_playing_seats_process(tmp_path: Path) -> None:
    env = {"mjai_bots": json.dumps({"ai": OURS}), "bot_pace_s": "0.5"}  # a game still on
    with (
        server_process(tmp_path, **env) as (host, proc),
        httpx.Client(base_url=f"http://{host}", timeout=30) as http,
    ):
        body = {"preset": "tenhou-tonpuu", "bots": 4, "bot_names": ["mjai:ai"]}
        room = http.post("/api/rooms", json=body).json()
        deadline = time.monotonic() + 30
        while not (children := stdio_children(proc.pid)):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert http.get(f"/api/rooms/{room['code']}").json()["status"] == "playing"
        proc.terminate()
        assert proc.wait(20) == 0
    assert all(_state(pid) == "Z" for pid in children), children
