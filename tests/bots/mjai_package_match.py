"""Run by the ``mjai`` package's own Python (a separate venv): one hanchan of its engine.

The ``mjai`` package (mjai.app's) hosts games with ``mlibriichi``'s ``Match`` (Mortal's
libriichi arena, an engine independent of ours) and talks to each player through
``DockerMjaiLogEngine``, which masks the events per seat and batches them as mjai.app
does. Its ``Simulator`` wraps each player in a docker container; here the same log engine
talks to ``python -m engine.bot.mjai SEAT`` over stdio instead, so our built-in bots play a
whole game inside that package's engine. Prints one JSON line: the log's events.

    python mjai_package_match.py OUR_PYTHON ROOT SEED LOG_DIR BOT BOT BOT BOT
"""

import gzip
import json
import subprocess
import sys
from pathlib import Path

from mjai.engine import BaseMjaiLogEngine
from mjai.mlibriichi.arena import Match


class StdioBot:
    """One ``python -m engine.bot.mjai SEAT`` process: one mjai line in, one line out."""

    def __init__(self, python, root, bot, seat):
        cmd = [python, "-m", "engine.bot.mjai", "--bot", bot, str(seat)]
        self.proc = subprocess.Popen(
            cmd,
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def react(self, events):
        self.proc.stdin.write(json.dumps(events, separators=(",", ":")) + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self):
        self.proc.stdin.close()
        err = self.proc.stderr.read()
        self.proc.wait(timeout=30)
        return self.proc.returncode, err


class StdioEngine(BaseMjaiLogEngine):
    """An arena agent whose seat in each game of the batch is one of our processes.

    ``Match`` plays the seats rotated (one game per rotation, batched); the package's own
    ``DockerMjaiLogEngine`` joins the batch's events into one container's stream, so it only
    works for one game: this keeps one process per game, each fed that game's new events
    masked for its seat, as the package's engine masks them."""

    def __init__(self, name, python, root, bot):
        super().__init__(name)
        self.python, self.root, self.bot = python, root, bot
        self.procs = {}
        self.seen = {}
        self.first = {}
        self.closed = []

    def _proc(self, game):
        if game not in self.procs:
            seat = self.player_ids[game]
            self.procs[game] = StdioBot(self.python, self.root, self.bot, seat)
        return self.procs[game]

    def react_batch(self, game_states):
        out = []
        for gs in game_states:
            game, seat = gs.game_index, self.player_ids[gs.game_index]
            events = json.loads(gs.events_json)
            start = self.seen.get(game, 0)
            if start > len(events) or (start and events[0] != self.first[game]):
                start = 0  # a new kyoku: the arena's events restart at start_kyoku
            self.first[game] = events[0]
            self.seen[game] = len(events)
            batch = [_masked(ev, seat) for ev in events[start:]]
            out.append(self._proc(game).react(batch) if batch else '{"type":"none"}')
        return out

    def start_game(self, game_idx):
        names = ["0", "1", "2", "3"]
        seat = self.player_ids[game_idx]
        self._proc(game_idx).react([{"type": "start_game", "names": names, "id": seat}])

    def end_kyoku(self, game_idx):
        self._proc(game_idx).react([{"type": "end_kyoku"}])
        self.seen[game_idx] = 0

    def end_game(self, game_idx, scores):
        proc = self._proc(game_idx)
        proc.react([{"type": "end_game"}])
        self.closed.append((self.player_ids[game_idx], list(scores), *proc.close()))


def _masked(ev, seat):
    ev = dict(ev)
    if ev["type"] == "tsumo" and ev["actor"] != seat:
        ev["pai"] = "?"
    if ev["type"] == "start_kyoku":
        ev["tehais"] = [t if i == seat else ["?"] * 13 for i, t in enumerate(ev["tehais"])]
    return ev


def main():
    python, root, seed, log_dir, *bots = sys.argv[1:]
    agents = [StdioEngine(str(i), python, root, bot) for i, bot in enumerate(bots)]
    Match(log_dir=log_dir).py_match(*agents, seed_start=(int(seed), 0))
    logs = sorted(Path(log_dir).glob("*.json*"))
    events = []
    for path in logs:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as f:
            events += [json.loads(line) for line in f if line.strip()]
    games = [a.closed for a in agents]
    print(json.dumps({"games": games, "logs": [p.name for p in logs], "events": events}))


if __name__ == "__main__":
    main()
