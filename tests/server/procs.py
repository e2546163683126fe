"""A real ``python3 -m server`` process (killed, stopped and restarted by tests), and
``websockets`` players and spectators that reconnect through restarts until the game ends."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import httpx
import websockets

from server.edge.codec import encode
from server.edge.messaging import (
    End,
    EventMsg,
    Hello,
    InquiryMsg,
    ServerMessage,
    Snapshot,
    decode_server,
)
from tests.server.live import pick

ROOT = Path(__file__).resolve().parents[2]
#: small clocks and instant bots: a tonpuusen over sockets takes seconds
ENV = {
    "RIICHI_BOT_THINK_S": "0",
    "RIICHI_SPECTATOR_DELAY_S": "0.2",
    "RIICHI_NEXT_ROUND_S": "20",
    "RIICHI_START_GRACE_S": "20",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: ``python -c WARM --port P --data-dir D``: an interpreter that imports what
#: ``python -m server`` imports (server/__main__.py's ``main``: uvicorn, the app, the engine
#: and its rules' tables, the stores), then waits for a line on stdin and runs ``python -m
#: server`` itself, on these arguments and its environment. Loading those modules is most
#: of a start (about a second of CPU): a restarted server whose spare did that while the
#: game was played starts from ``main``, and everything that reads the data dir, restores
#: games and listens happens after the line, as in a cold start.
WARM = """
import runpy, sys
import uvicorn
import server.app, server.runtime.heap, server.runtime.logs, server.edge.security
import server.runtime.shutdown, server.storage.stores
import server.session.engine_port, server.session.hub
sys.stdin.readline()
sys.argv = ["-m", *sys.argv[1:]]
runpy.run_module("server", run_name="__main__", alter_sys=True)
"""


class ServerProcess:
    """``python3 -m server --port P --data-dir D`` in the worktree, restartable on one port.

    With ``use_spare`` (``SparedServerProcess``), each start also launches the next process as
    a warm spare (``WARM``), so a test that restarts the server many times waits for the
    server's own start only."""

    use_spare = False

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.env = {**os.environ, **ENV, **env}
        self.proc: subprocess.Popen[bytes] | None = None
        self.spare: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] = (data_dir / "server.log").open("ab")
        self.starts = 0

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def db(self) -> Path:
        return self.data_dir / "records.sqlite3"

    def _spawn(self, *how: str) -> subprocess.Popen[bytes]:
        args = [sys.executable, *how, "--port", str(self.port), "--data-dir", str(self.data_dir)]
        stdin = subprocess.PIPE if how[0] == "-c" else None
        return subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdin=stdin, stdout=self.log, stderr=self.log
        )

    async def start(self) -> None:
        spare, self.spare = self.spare, None
        if spare is not None:
            if spare.poll() is not None:
                raise RuntimeError(f"the spare server exited with {spare.returncode}")
            assert spare.stdin is not None
            spare.stdin.write(b"start\n")
            spare.stdin.close()
            self.proc = spare
        else:
            self.proc = self._spawn("-m", "server")
        self.starts += 1
        try:
            await self._up()
        except RuntimeError:
            if self.starts > 1 or not self._port_taken():
                raise
            # another test's process took the port between free_port() and the bind: a
            # first start moves to another port (a restart keeps its own, as it must)
            self.port = free_port()
            self.proc = self._spawn("-m", "server")
            await self._up()
        if self.use_spare:
            self.spare = self._spawn("-c", WARM)

    def _port_taken(self) -> bool:
        """The server's log says its port was in use."""
        self.log.flush()
        return b"address already in use" in Path(self.log.name).read_bytes()[-4000:]

    async def _up(self) -> None:
        assert self.proc is not None
        async with httpx.AsyncClient(base_url=f"http://{self.host}") as http:
            for _ in range(400):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited with {self.proc.returncode}")
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.05)
        raise TimeoutError("server did not come up")

    def kill(self) -> None:
        """kill -9: no handler runs, nothing is flushed beyond what was committed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def term(self) -> tuple[int, float]:
        """SIGTERM: (exit code, seconds to exit)."""
        assert self.proc is not None
        started = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=30)
        return code, time.monotonic() - started

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill()
        if self.spare is not None:
            self.spare.kill()
            self.spare.wait()
            assert self.spare.stdin is not None
            self.spare.stdin.close()
        self.log.close()

    def stored(self, game: str) -> tuple[str, list[tuple[int, ...]]]:
        """(status, decisions) as the database holds them (read while the server is down)."""
        with sqlite3.connect(self.db) as db:
            status = db.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()[0]
            rows = db.execute(
                "SELECT inquiry, seat, action, option, timeout FROM decisions "
                "WHERE game = ? ORDER BY n",
                (game,),
            ).fetchall()
        db.close()
        return status, [tuple(r) for r in rows]


class SparedServerProcess(ServerProcess):
    """A ``ServerProcess`` whose every restart is its warm spare's."""

    use_spare = True


#: called with each message before the client reacts; True: the server was just killed
Hook = Callable[["Player", ServerMessage], bool]


class Player:
    """One seat over ``/ws/play`` that reconnects with its token until the game ends.

    Every answer it sends is logged (``sent``) so the test can tell that no decision of this
    seat was made by anyone else; ``closes`` are the close codes it saw."""

    def __init__(self, host: str, token: str, seed: int, hook: Hook | None = None) -> None:
        self.url = f"ws://{host}/ws/play"
        self.token = token
        self.rng = random.Random(seed)
        self.hook = hook
        self.sent: list[tuple[int, int, int]] = []
        self.closes: list[int | None] = []
        self.reasons: list[str] = []
        self.welcomes = 0
        self.events = 0
        self.ended = False

    async def _answer(self, ws: Any, inquiry: InquiryMsg | None) -> None:
        if inquiry is None:
            return
        answer = pick(inquiry, self.rng)
        self.sent.append((answer.inquiry, answer.action, answer.option))
        await ws.send(encode(answer))

    async def _session(self) -> None:
        async with websockets.connect(self.url, max_size=2**22, open_timeout=5) as ws:
            await ws.send(encode(Hello(self.token)))
            try:
                async for text in ws:
                    assert isinstance(text, str)
                    msg = decode_server(text)
                    if self.hook is not None and self.hook(self, msg):
                        continue
                    if isinstance(msg, InquiryMsg):
                        await self._answer(ws, msg)
                    elif isinstance(msg, Snapshot):
                        self.welcomes += 1
                        await self._answer(ws, msg.inquiry)
                    elif isinstance(msg, End):
                        self.ended = True
                        return
                    elif msg.__class__.__name__ == "EventMsg":
                        self.events += 1
            finally:
                self.closes.append(ws.close_code)
                self.reasons.append(ws.close_reason or "")

    async def play(self) -> None:
        while not self.ended:
            with contextlib.suppress(OSError, websockets.WebSocketException, TimeoutError):
                await self._session()
            if not self.ended:
                await asyncio.sleep(0.1)


class Watcher:
    """A spectator of one game that comes back after every restart, until the end.

    ``gaps`` lists every break in a session's stream: after the greeting's snapshot at
    sequence number S, events must come as S, S+1, ... with nothing repeated or skipped."""

    def __init__(self, host: str, game: str) -> None:
        self.url = f"ws://{host}/ws/watch/{game}"
        self.sessions = 0
        #: snapshots received: a session's greeting (and each hand's reveal) came
        self.snapshots = 0
        self.events = 0
        self.closes: list[int | None] = []
        self.gaps: list[tuple[int, int]] = []
        self.ended = False

    async def play(self) -> None:
        while not self.ended:
            try:
                async with websockets.connect(self.url, max_size=2**22, open_timeout=5) as ws:
                    self.sessions += 1
                    try:
                        await self._session(ws)
                    finally:
                        self.closes.append(ws.close_code)
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            if not self.ended:
                await asyncio.sleep(0.1)

    async def _session(self, ws: websockets.ClientConnection) -> None:
        expected: int | None = None  # the next event's seq, once the snapshot came
        async for text in ws:
            msg = decode_server(text)
            if isinstance(msg, End):
                self.ended = True
            elif isinstance(msg, Snapshot):
                self.snapshots += 1
                if expected is not None and msg.seq != expected:
                    self.gaps.append((expected, msg.seq))
                expected = msg.seq
            elif isinstance(msg, EventMsg):
                self.events += 1
                if expected is not None and msg.seq != expected:
                    self.gaps.append((expected, msg.seq))
                expected = msg.seq + 1
