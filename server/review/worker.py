"""What a review worker process runs: one seat of a finished record through engine.review.

It runs in a process of its own (``jobs.Reviews``' pool), never in the server's event loop:
a review plays the whole game again and asks the reviewer at every decision. The worker
lowers its own priority (``os.nice``), so a busy pool leaves the CPU to the games being
played. Progress goes back to the server over the queue the pool gave it at start.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
from typing import Any

import msgspec

from engine.review import MjaiReviewer, ReviewError, StrongReviewer, review_record
from engine.rules.config import RuleConfig

#: the seconds an mjai AI may take over one event before the review gives up on it
LINE_TIMEOUT_S = 60.0

#: this worker's way back to the server: (job, hands begun) per hand (set by ``init``)
_progress: Any = None


def init(queue: Any, nice: int) -> None:
    """The pool's initializer: keep the progress queue, step back in the CPU's queue."""
    global _progress
    _progress = queue
    if nice:
        os.nice(nice)


def review(job: str, record: bytes, seat: int, engine: str, argv: list[str] | None) -> bytes:
    """The report (engine.review's JSON) of ``seat`` in ``record``; ``argv``: the mjai AI's
    command for ``mjai:NAME``, None for the strong bot. Raises ReviewError."""
    doc = json.loads(record)

    def on_hand(begun: int) -> None:
        if _progress is not None:
            _progress.put((job, begun))

    if argv is None:
        return msgspec.json.encode(review_record(doc, seat, StrongReviewer(), on_hand))
    rules = msgspec.convert(doc["rules"], RuleConfig)
    names = tuple(str(n) for n in doc.get("seats") or ())
    with AiProcess(argv) as ai:
        reviewer = MjaiReviewer(engine, ai.ask, rules, seat, names)
        return msgspec.json.encode(review_record(doc, seat, reviewer, on_hand))


class AiProcess:
    """An mjai AI over stdio as mjai-reviewer runs Mortal: one event per line in, one
    reaction line per event out, ``MORTAL_REVIEW_MODE=1``; a line later than
    ``LINE_TIMEOUT_S`` or a closed pipe ends the review (ReviewError), so a silent AI
    cannot hold a worker for ever."""

    def __init__(self, argv: list[str]) -> None:
        env = {**os.environ, "MORTAL_REVIEW_MODE": "1"}
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0
        )
        self._lines = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self._lines.register(self.proc.stdout, selectors.EVENT_READ)
        self._buffer = b""

    def __enter__(self) -> AiProcess:
        return self

    def __exit__(self, *_: object) -> None:
        self._lines.close()
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def ask(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        stdin = self.proc.stdin
        assert stdin is not None
        reply: dict[str, Any] = {"type": "none"}
        for event in events:
            try:
                stdin.write(json.dumps(event, separators=(",", ":")).encode() + b"\n")
            except BrokenPipeError:
                raise ReviewError(f"the mjai AI exited (status {self.proc.poll()})") from None
            data = json.loads(self._line())
            reply = data if isinstance(data, dict) else {"type": "none"}
        return reply

    def _line(self) -> bytes:
        stdout = self.proc.stdout
        assert stdout is not None
        while b"\n" not in self._buffer:
            if not self._lines.select(LINE_TIMEOUT_S):
                raise ReviewError(f"the mjai AI said nothing for {LINE_TIMEOUT_S:.0f} s")
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise ReviewError(f"the mjai AI exited (status {self.proc.poll()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line
