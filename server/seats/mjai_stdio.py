"""Bot ``mjai:NAME``: an mjai AI the server runs itself, one process per seat over stdio.

The administrator registers commands (``RIICHI_MJAI_BOTS='{"NAME": ["argv", ...]}'``; a
client only ever names one). When a game with such a seat starts, the seat gets a
``StdioSeat``: server/seats/mjai_seat.py's ``MjaiSeat`` (the same translation by
engine.bot.mjai_host, the seat's own view only, its clock and its defaults) with a process's
pipes in place of the AI's socket. Each question is one line (a JSON array of the mjai events
since the last one) on the process's stdin, and one reaction line is read back from its
stdout; its stderr is the server's.

Nothing the process does stops the table:
- no reaction within ``mjai_timeout_s`` (or the seat's own clock, whichever ends first): the
  default is played; the late line is read and dropped before the next question's, and a
  process still owing a line at its next time-out is killed and started again;
- a reaction naming nothing legal, or not JSON: the default, logged (MjaiSeat);
- the process exits or breaks its pipes: a fresh one is started and fed ``start_game`` and the
  current hand's events so far with the open question, as mjai hosts do (at most
  ``MAX_STARTS`` processes per seat and game; then the seat plays the defaults).
Processes are ended (stdin closed, then SIGKILL) when the game ends or the server stops.

Fair play (docs/security.md): on its own turn the seat answers no sooner than a built-in bot
does (``bot_think_s``, or ``bot_pace_s`` at an all-bot table), so a quick process's timing
tells no more than a built-in bot's; a slower one shows its own thinking time, as a human does.
A claim (pon, chi, ron) is asked only of seats that have one, as for a human, and is answered
when the process answers: the pause before the next draw can tell the others that somebody
could call, exactly what a human seat's pause tells (built-in bots answer claims at once).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from subprocess import PIPE
from typing import TYPE_CHECKING

import anyio
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

from engine.actions.types import ActionType
from engine.bot import mjai_host
from server.edge.messaging import InquiryMsg
from server.edge.transport import Disconnected
from server.seats.mjai_seat import MjaiSeat
from server.session import bots
from server.session.hub import Hub
from server.session.outbox import Outbox
from server.session.rooms import Room
from server.session.seat import Seat

if TYPE_CHECKING:
    from server.session.table import Table

log = logging.getLogger("server")
#: the longest reaction line read (an mjai reaction is well under 1 KB)
MAX_LINE = 1 << 16
#: processes one seat may start in one game (the first and its restarts)
MAX_STARTS = 10
#: after ``end_game``, how long a process has to exit on its own before SIGKILL
EXIT_WAIT_S = 1.0


class Pipe:
    """The seat's process as a Connection: ``send_text`` writes a line, ``receive_text``
    reads one; both raise Disconnected once the process is gone. Started lazily, again after
    ``close``."""

    def __init__(self, argv: Sequence[str], label: str) -> None:
        self.argv = list(argv)
        self.label = label
        self.proc: Process | None = None
        self.out: BufferedByteReceiveStream | None = None
        #: processes started so far (1: never restarted)
        self.starts = 0

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self) -> bool:
        """A new process; False when none may (or could) be started."""
        if self.starts >= MAX_STARTS:
            if self.starts == MAX_STARTS:
                self.starts += 1
                log.warning("mjai process %s: no more restarts; defaults", self.label)
            return False
        self.starts += 1
        try:
            with anyio.CancelScope(shield=True):  # never a started process without its handle
                proc = await anyio.open_process(self.argv, stdin=PIPE, stdout=PIPE, stderr=None)
        except OSError as exc:
            log.warning("mjai process %s could not start: %s", self.label, exc)
            return False
        assert proc.stdout is not None
        self.proc, self.out = proc, BufferedByteReceiveStream(proc.stdout)
        if self.starts > 1:
            log.warning("mjai process %s restarted (start %d)", self.label, self.starts)
        return True

    async def send_text(self, text: str) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise Disconnected("no process")
        try:
            await self.proc.stdin.send(text.encode() + b"\n")
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
            raise Disconnected(f"the process's stdin: {exc!r}") from exc

    async def receive_text(self) -> str:
        if self.out is None:
            raise Disconnected("no process")
        try:
            line = await self.out.receive_until(b"\n", MAX_LINE)
        except (
            anyio.IncompleteRead,
            anyio.DelimiterNotFound,  # a line too long: the stream is lost, so is the process
            anyio.EndOfStream,
            anyio.BrokenResourceError,
            anyio.ClosedResourceError,
        ) as exc:
            raise Disconnected(f"the process's stdout: {type(exc).__name__}") from exc
        return line.decode("utf-8", errors="replace")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """End the process: stdin closed (it may exit by itself), then SIGKILL."""
        proc, self.proc, self.out = self.proc, None, None
        if proc is None:
            return
        with anyio.CancelScope(shield=True):
            if proc.stdin is not None:
                with contextlib.suppress(Exception):
                    await proc.stdin.aclose()
            with anyio.move_on_after(EXIT_WAIT_S):
                await proc.wait()
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
            with contextlib.suppress(Exception):
                await proc.aclose()


class StdioSeat(MjaiSeat):
    """An ``mjai:NAME`` seat: MjaiSeat's questions put to the seat's own process."""

    def __init__(self, hub: Hub, room: Room, seat: Seat, argv: Sequence[str]) -> None:
        self.pipe = Pipe(argv, f"{seat.bot_name} (seat {seat.index} of game {room.game})")
        super().__init__(self.pipe, hub, room, seat)
        settings = hub.settings
        self.timeout = settings.mjai_timeout_s
        #: the least time an own-turn answer takes: a built-in bot's at this table
        self.pace = settings.bot_think_s if room.humans else settings.bot_pace_s
        self.start_game: mjai_host.Event | None = None
        #: the current hand's events sent so far (from its start_kyoku): a restart's feed
        self.hand: list[mjai_host.Event] = []
        #: the running process has seen the game so far (else it gets the feed first)
        self.synced = False
        #: lines the process owes for questions that timed out (read and dropped)
        self.stale = 0
        self.timeouts = 0
        self.asked_at = 0.0

    async def run(self) -> None:
        """The seat's session: the process starts with the game, ends with the seat."""
        assert self.outbox is not None
        try:
            await self.pipe.start()
            await self.outbox.pump()
        finally:
            self.hub.detach(self.room, self.seat, self.outbox)
            await self.pipe.close()

    async def _ask(self, inquiry: InquiryMsg) -> None:
        self.asked_at = anyio.current_time()
        await super()._ask(inquiry)

    async def _pace(self, offers: Sequence[mjai_host.Offer]) -> None:
        if any(t == ActionType.DISCARD for t, _ in offers):
            await anyio.sleep_until(self.asked_at + self.pace)

    async def _question(self, events: list[mjai_host.Event]) -> mjai_host.Event | None:
        for e in events:
            if e["type"] == "start_game":
                self.start_game = e
                continue
            if e["type"] == "start_kyoku":
                self.hand = []
            self.hand.append(e)
        owed = False
        with anyio.move_on_after(self.timeout):
            for _ in range(2):  # the process as it is, then once a fresh one
                try:
                    if not self.pipe.alive:
                        await self.pipe.close()
                        if not await self.pipe.start():
                            return None
                        self.synced, self.stale = False, 0
                    start = [] if self.start_game is None else [self.start_game]
                    line = events if self.synced else [*start, *self.hand]
                    await self.pipe.send_text(json.dumps(line, separators=(",", ":")))
                    self.synced, owed = True, True
                    for _ in range(self.stale):
                        await self.pipe.receive_text()
                        self.stale -= 1
                    text = await self.pipe.receive_text()
                    return _reaction(text)
                except Disconnected as exc:
                    log.warning("mjai process %s is gone: %s", self.pipe.label, exc)
                    await self.pipe.close()
                    owed = False
            return None
        self.timeouts += 1
        log.warning(
            "mjai process %s: no reaction within %.2f s; it plays the default",
            self.pipe.label,
            self.timeout,
        )
        if owed:
            self.stale += 1
            if self.stale > 1:  # still stuck on an older question: a fresh process
                await self.pipe.close()
        return None

    async def _end(self) -> None:
        """The last events (through end_game) to the process, then the seat closes."""
        events, self.batch = self.batch, []
        if not any(e["type"] == "end_game" for e in events):
            events.append(self.stream.end_game())
        if self.pipe.alive and self.synced:
            with anyio.move_on_after(EXIT_WAIT_S), contextlib.suppress(Disconnected):
                await self.pipe.send_text(json.dumps(events, separators=(",", ":")))
        if self.outbox is not None:
            self.outbox.shut(1000)


def _reaction(text: str) -> mjai_host.Event:
    """One reaction line as an mjai event (anything else reads as a reaction naming nothing)."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    return data if isinstance(data, dict) else {"type": "garbage", "line": text[:200]}


def seat_processes(hub: Hub) -> Callable[[Table], None]:
    """The hub's ``on_table`` hook: each ``mjai:NAME`` seat of a starting (or resumed) game
    gets its process; a name no longer registered plays the defaults (logged)."""

    def on_table(table: Table) -> None:
        commands = hub.settings.mjai_commands
        for seat in table.room.seats:
            name = bots.stdio_name(seat.bot_name)
            if name is None:
                continue
            argv = commands.get(name)
            if argv is None:
                log.warning(
                    "game %s: no mjai bot %r on this server; seat %d plays the defaults",
                    table.room.game,
                    name,
                    seat.index,
                )
                continue
            bridge = StdioSeat(hub, table.room, seat, argv)
            bridge.outbox = Outbox(bridge, hub.settings.send_queue)
            hub.attach(table.room, seat, bridge.outbox)
            hub.spawn(bridge.run)

    return on_table
