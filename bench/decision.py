"""The server's own work per decision, without sockets: what bench.load's CPU figure is made of
besides the kernel's and the WebSocket library's share.

Real tables of four human seats (the hub, the engine, answers and clocks, the write-ahead
record in SQLite, projection, encoding, batched outboxes) on uvloop, every seat's socket
replaced by a direct lane that keeps what it is sent. Each answer arrives in a loop callback of
its own, as a frame read from a socket would, chosen at random from the inquiry (wins taken),
and goes through the seat's frame handler as text. Prints the server's CPU per decision and, in
the same run, the engine's alone on the same games (engine.driver.run_sync), so the server's
overhead over the engine is a ratio of one run:

    python -m bench.decision [--tables 50] [--decisions 20000] [--runs 5]

Deterministic for a given seed, so it also runs under valgrind (bench.instructions' way) for a
count of instructions per decision that noise cannot move.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.instructions import valgrind_instructions  # noqa: E402
from bench.load import choose  # noqa: E402
from engine.actions.inquiry import MultiPlayerInquiry  # noqa: E402
from engine.actions.types import ActionType  # noqa: E402
from engine.driver import run_sync  # noqa: E402
from engine.game.setup import new_game  # noqa: E402
from engine.rules.config import PRESETS  # noqa: E402
from server.edge.codec import encode  # noqa: E402
from server.edge.limits import Guard  # noqa: E402
from server.edge.messaging import InquiryMsg, Snapshot, decode_server  # noqa: E402
from server.edge.transport import WebSocketConnection  # noqa: E402
from server.routes.metrics import Metrics  # noqa: E402
from server.runtime import heap  # noqa: E402
from server.session.client import serve_seat  # noqa: E402
from server.session.engine_port import RealEngine  # noqa: E402
from server.session.hub import Hub  # noqa: E402
from server.session.rooms import Rooms  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.storage.sqlite import Storage  # noqa: E402

#: the starts of the only messages the stand-in player reads: the rest it drops undecoded
ASKING = ('{"type":"inquiry"', '{"type":"snapshot"')
#: the lone action the server answers for a seat
SKIP = ActionType.SKIP


class Counter:
    def __init__(self, goal: int) -> None:
        self.decisions = 0
        self.goal = goal
        self.done = asyncio.Event()

    def count(self) -> None:
        self.decisions += 1
        if self.decisions >= self.goal:
            self.done.set()


class SeatLane(WebSocketConnection):
    """A seat's socket as the session sees one with the direct lane: frames written at once
    (kept here), frames received handed to the session's listener. The player answers each
    inquiry in a loop callback of its own."""

    def __init__(self, seed: int, counter: Counter) -> None:  # no WebSocket behind it
        self.lane = cast(Any, self)  # not None: the session takes this as a direct lane
        self.rng = random.Random(seed)
        self.counter = counter
        self.on_text: Any = None
        self.closed = anyio.Event()
        self.loop = asyncio.get_running_loop()

    def send_now(self, text: str) -> bool:
        for line in text.split("\n"):
            if not line.startswith(ASKING):  # events, echoes, clocks: nothing to answer
                continue
            msg = decode_server(line)
            inquiry = msg.inquiry if isinstance(msg, Snapshot) else msg
            if isinstance(inquiry, InquiryMsg):
                self.loop.call_soon(self._answer, inquiry)
        return True

    #: what an outbox on the lane writes with (server/edge/ws_direct.py's socket's own)
    write_text = send_now

    def _answer(self, inquiry: InquiryMsg) -> None:
        if self.on_text is None:
            return
        self.counter.count()
        self.on_text(encode(choose(inquiry, self.rng)))

    def listen(self, on_text: Any) -> bool:
        self.on_text = on_text
        return True

    async def send_text(self, text: str) -> None:
        self.send_now(text)

    async def receive_text(self) -> str:
        await self.closed.wait()
        raise RuntimeError("closed")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed.set()


async def serve(
    tables: int, decisions: int, data: Path, seed: int, collect: bool = True
) -> tuple[float, int, list[int]]:
    """CPU seconds and decisions of the server's tables playing ``decisions`` answers, and
    the seeds of the games they played; ``collect``: the server's clock collector runs (off
    for counting instructions: its passes come by the clock, not by the work)."""
    settings = Settings(data_dir=str(data), max_rooms=tables + 10, spectator_delay_s=0.0)
    storage = Storage(settings.db_path, checkpoint_s=settings.checkpoint_s)
    seeds = random.Random(seed)
    hub = Hub(settings, storage, RealEngine(), rooms=Rooms(lambda: seeds.getrandbits(63)))
    Metrics(hub, Guard(settings))  # as the app does: every table's decisions are metered
    counter = Counter(decisions)
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        rooms = []
        for _ in range(tables):
            room = hub.create(
                preset="tenhou-hanchan", bots=0, base_s=5.0, bank_s=20.0, public=False
            )
            tokens = [hub.rooms.join(room.code, f"P{i}")[1].token for i in range(4)]
            rooms.append((room, tokens))
        for t, (_, tokens) in enumerate(rooms):
            for i, token in enumerate(tokens):
                assert token is not None
                tg.start_soon(serve_seat, hub, SeatLane(seed + 4 * t + i, counter), token, True)
        heap.settle()
        if collect:
            tg.start_soon(heap.collect)
        for room, _ in rooms:
            hub.start_if_full(room)
        await asyncio.sleep(0)
        started, before = time.process_time(), counter.decisions
        await counter.done.wait()
        spent, made = time.process_time() - started, counter.decisions - before
        tg.cancel_scope.cancel()
    storage.close()
    gc.enable()
    return spent, made, [room.seed for room, _ in rooms]


class RandomAnswers:
    """The engine alone on the same kind of play: every inquiry answered at once at random."""

    wants_events = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def on_event(self, seat: int | None, event: object) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        for seat, single in list(inquiry.players.items()):
            if inquiry.done:
                return
            wins = [i for i, a in enumerate(single.actions) if a.type.name in ("TSUMO", "RON")]
            a = wins[0] if wins else self.rng.randrange(len(single.actions))
            inquiry.respond(seat, a, self.rng.randrange(len(single.actions[a].options)))


def engine_alone(seeds: list[int], decisions: int) -> float:
    """CPU seconds per decision of the engine playing whole games of these seeds."""
    spent, made, n = 0.0, 0, 0
    while made < decisions:
        seed = seeds[n % len(seeds)]
        n += 1
        center = RandomAnswers(seed)
        asked = Counted(center)
        game = new_game(PRESETS["tenhou-hanchan"], seed, asked)
        started = time.process_time()
        run_sync(game)
        spent += time.process_time() - started
        made += asked.answers
    if not made:
        raise SystemExit("measured nothing: the engine alone made no decision")
    return spent / made


class Counted:
    """An action center that counts the answers another one gives."""

    wants_events = False

    def __init__(self, center: RandomAnswers) -> None:
        self.center = center
        self.answers = 0

    def on_event(self, seat: int | None, event: object) -> None:
        pass

    def on_inquiry(self, inquiry: MultiPlayerInquiry) -> None:
        # what a server asks a client: everything but a lone Skip (answered for the seat)
        self.answers += sum(
            1 for s in inquiry.players.values() if len(s.actions) > 1 or s.actions[0].type != SKIP
        )
        self.center.on_inquiry(inquiry)


def _inner(mode: str, tables: int, decisions: int, seed: int) -> None:
    """The program valgrind counts: the server's tables or the engine alone."""
    import uvloop

    if mode == "engine":
        engine_alone([seed + n for n in range(tables)], decisions)
        return
    with tempfile.TemporaryDirectory(prefix="riichi-decision-", dir="/dev/shm") as data:
        uvloop.run(serve(tables, decisions, Path(data), seed, collect=False))


def _count(mode: str, tables: int, decisions: int, seed: int) -> int:
    return valgrind_instructions(
        "bench.decision", "--inner", mode, "--tables", str(tables),
        "--decisions", str(decisions), "--seed", str(seed),
    )  # fmt: skip


def instructions(tables: int, decisions: int, seed: int) -> None:
    """Instructions per decision (valgrind), server and engine alone: two runs of each, the
    second with twice the decisions, so start-up and dealing cancel out."""
    per = {}
    for mode in ("server", "engine"):
        few = _count(mode, tables, decisions, seed)
        many = _count(mode, tables, 2 * decisions, seed)
        per[mode] = (many - few) / decisions
    print(
        f"decision: {tables} tables, server {per['server']:,.0f} instructions per decision, "
        f"engine alone {per['engine']:,.0f} ({per['server'] / per['engine']:.1f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--decisions", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions under valgrind instead (--decisions 2000 is plenty)",
    )
    parser.add_argument("--inner", choices=("server", "engine"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        _inner(args.inner, args.tables, args.decisions, args.seed)
        return
    if args.instructions:
        if shutil.which("valgrind") is None:
            sys.exit("--instructions needs valgrind (apt-get install valgrind)")
        instructions(args.tables, args.decisions, args.seed)
        return
    import uvloop

    ours, alone = [], []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="riichi-decision-", dir="/dev/shm") as data:
            spent, made, seeds = uvloop.run(
                serve(args.tables, args.decisions, Path(data), args.seed + run)
            )
        if not made:
            raise SystemExit(f"measured nothing: run {run + 1} made no decision")
        ours.append(spent / made)
        alone.append(engine_alone(seeds, made // 4))
        print(
            f"run {run + 1}: server {ours[-1] * 1e6:.0f} us per decision "
            f"({made} decisions), engine alone {alone[-1] * 1e6:.0f} us",
            file=sys.stderr,
        )
    server, engine = statistics.median(ours) * 1e6, statistics.median(alone) * 1e6
    print(
        f"decision: {args.tables} tables, server {server:.0f} us per decision, "
        f"engine alone {engine:.0f} us ({server / engine:.1f}x), medians of {args.runs} runs"
    )


if __name__ == "__main__":
    main()
