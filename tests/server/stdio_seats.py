"""One all-bot tonpuusen on a real ``python -m server`` whose seats include stdio mjai AIs
(bot ``mjai:NAME``, server/seats/mjai_stdio.py): what the stdio-seat tests and the mjai.app bot's
test both play, and the checks every such game must pass on the way."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.server.live import GENEROUS_ENV
from tests.server.process import server_process

ROOT = Path(__file__).resolve().parents[2]


class StdioGame:
    """What a played game left: the JSON record, its mjai events, the server's log and the
    most seat processes the server had at once."""

    def __init__(
        self, record: dict[str, Any], events: list[dict[str, Any]], log: str, most: int
    ) -> None:
        self.record = record
        self.events = events
        self.log = log
        self.most = most


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def stdio_env(bots: dict[str, list[str]], timeout_s: float) -> dict[str, str]:
    """Server settings registering ``bots`` (name -> argv) with a per-decision limit."""
    env = {k.removeprefix("RIICHI_").lower(): v for k, v in GENEROUS_ENV.items()}
    return env | {"mjai_bots": json.dumps(bots), "mjai_timeout_s": str(timeout_s)}


def play_stdio(
    tmp_path: Path,
    bots: dict[str, list[str]],
    names: list[str],
    timeout_s: float,
    *,
    seconds: float = 240,
    before: Callable[[httpx.Client], None] | None = None,
) -> StdioGame:
    """Play one all-bot tonpuusen seating ``names``; ``before`` may check the server first.
    On the way: the game ends in ``seconds``, every seat process ends with it, the record
    verifies and its Tenhou export replays."""
    data = tmp_path / "data"
    data.mkdir()
    with (
        server_process(data, **stdio_env(bots, timeout_s)) as (host, proc),
        httpx.Client(base_url=f"http://{host}", timeout=30) as http,
    ):
        if before is not None:
            before(http)
        made = http.post(
            "/api/rooms", json={"preset": "tenhou-tonpuu", "bots": 4, "bot_names": names}
        )
        assert made.status_code == 200, made.text
        room = made.json()
        most = 0
        deadline = time.monotonic() + seconds
        while room["status"] != "finished":
            assert time.monotonic() < deadline, "the game did not end"
            most = max(most, len(children(proc.pid)))
            time.sleep(0.05)
            room = http.get(f"/api/rooms/{room['code']}").json()
        while children(proc.pid):  # the seats' processes end with the game
            assert time.monotonic() < deadline + 5, children(proc.pid)
            time.sleep(0.05)
        game = room["game"]
        verified = http.get(f"/api/games/{game}/verify").json()
        assert verified["replay_ok"] and verified["commitment_ok"], verified
        record = http.get(f"/api/games/{game}/record").json()
        mjai = http.get(f"/api/games/{game}/record", params={"format": "mjai"})
        tenhou = http.get(f"/api/games/{game}/record", params={"format": "tenhou"})
        assert mjai.status_code == 200 and tenhou.status_code == 200
        (tmp_path / "game.json").write_bytes(tenhou.content)
    check = subprocess.run(
        [sys.executable, "-m", "engine.replay", "check", str(tmp_path / "game.json")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert record["status"] == "finished"
    events = [json.loads(line) for line in mjai.text.splitlines() if line.strip()]
    return StdioGame(record, events, (data / "server.log").read_text(), most)
