"""``/ws/mjai``: an external mjai AI plays a seat reserved for it (bot name ``mjai``).

The AI connects with the administrator's bot token (``RIICHI_MJAI_TOKEN``; unset, the endpoint
and the ``mjai`` seats are off): its first frame is ``{"type":"hello","token":"...",
"room":"CODE"}`` (``room`` optional: the first room with a free mjai seat). Then the server
sends a JSON array of mjai events each time the seat must decide (everything since the last
array; the last event is the question, as mjai.app batches them) and reads one mjai reaction
per array. When the game ends, a last array ends with ``end_game`` and the socket closes
(1000); no reaction is read to it.

Server-side the seat is an ordinary connected seat: ``MjaiSeat`` is the ``Connection`` its
Outbox writes the seat's wire messages to, so the seat has the same events (its own view
only), the same clock and the same defaults as a human's; it translates them with
engine.bot.mjai_host. A reaction that names nothing legal, or none within the seat's time,
gets the seat's default (logged), never stopping the table. A dropped AI may reconnect to its
seat and gets the current hand from its start.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Sequence

import anyio
import msgspec

from engine.actions.types import ActionType
from engine.bot import mjai_host
from server.edge.close_codes import CloseCode
from server.edge.codec import encode
from server.edge.mailbox import Closed, Mailbox
from server.edge.messaging import (
    Answer,
    End,
    EventMsg,
    InquiryMsg,
    Snapshot,
    Welcome,
    WireError,
    decode_server,
)
from server.edge.transport import Connection, Disconnected
from server.session import bots
from server.session.client import answer, refuse
from server.session.hub import Hub
from server.session.outbox import Outbox
from server.session.rooms import Room
from server.session.seat import Seat

log = logging.getLogger("server")

#: inquiries mjai has no message for: the next-round acknowledgement and M-League's tenpai
#: declaration at an exhaustive draw; the seat answers their default (OK; declare tenpai)
_UNASKED = frozenset((ActionType.NEXT_ROUND, ActionType.TENPAI, ActionType.NOTENPAI))


class MjaiHello(msgspec.Struct, forbid_unknown_fields=True):
    type: str
    token: str
    #: the room whose mjai seat to take; empty: the first with one free
    room: str = ""


class MjaiSeat:
    """The seat's connection as the table sees it: wire messages in, mjai out to ``conn``."""

    def __init__(self, conn: Connection, hub: Hub, room: Room, seat: Seat) -> None:
        self.conn = conn
        self.hub = hub
        self.room = room
        self.seat = seat
        self.stream = mjai_host.SeatStream(seat.index, room.rules, [s.name for s in room.seats])
        self.batch: list[mjai_host.Event] = []
        self.replies = Mailbox(1)
        #: a question is out: the next frame from the AI is its reaction
        self.asking = False
        self.outbox: Outbox | None = None
        #: reactions that named nothing legal (each played the default)
        self.illegal = 0

    # ------------------------------------------------------------ Connection (the Outbox's)

    async def send_text(self, text: str) -> None:
        msg = decode_server(text)
        if isinstance(msg, Welcome):  # again at the start: the seat draw may move the AI
            self.stream.seat = self.seat.index
            self.stream.names = [s.name for s in msg.room.seats]
        elif isinstance(msg, Snapshot):
            for raw in msg.events:
                self._feed(raw)
            if msg.inquiry is not None:
                await self._ask(msg.inquiry)
        elif isinstance(msg, EventMsg):
            self._feed(msg.event)
        elif isinstance(msg, InquiryMsg):
            await self._ask(msg)
        elif isinstance(msg, End):
            await self._end()
        elif isinstance(msg, WireError):
            log.warning("mjai seat %d of game %s: %s", self.seat.index, self.room.game, msg)

    async def receive_text(self) -> str:
        raise Disconnected("the mjai seat reads its socket itself")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.replies.close()
        await self.conn.close(code, reason)

    # ------------------------------------------------------------ the AI's side

    def reaction(self, text: str) -> WireError | None:
        """One frame from the AI: its reaction to the open question, or why it was refused."""
        if not self.asking:
            return WireError("not_asked", "react only to an array of events (one per array)")
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            data = {"type": "garbage"}
        self.replies.put(json.dumps(data))
        return None

    def gone(self) -> None:
        """The AI's socket closed: a question waiting for it is given up."""
        self.replies.close()

    # ------------------------------------------------------------ translation

    def _feed(self, raw: msgspec.Raw) -> None:
        event = mjai_host.decode_event(bytes(raw))
        if event is not None:
            self.batch += self.stream.feed(event)

    async def _question(self, events: list[mjai_host.Event]) -> mjai_host.Event | None:
        """The AI's reaction to ``events``; None: no reaction in time (the default is played)."""
        self.asking = True
        try:
            await self.conn.send_text(json.dumps(events, separators=(",", ":")))
            try:
                reply: mjai_host.Event = json.loads(await self.replies.get())
            except Closed:
                raise Disconnected("the mjai AI went away") from None
            return reply
        finally:
            self.asking = False

    async def _ask(self, inquiry: InquiryMsg) -> None:
        offers = [
            (ActionType[a.type.upper()], [tuple(o.tiles) for o in a.options])
            for a in inquiry.actions
        ]
        if {t for t, _ in offers} <= _UNASKED:  # nothing an mjai AI is asked: the default
            self._answer(inquiry, (inquiry.default.action, inquiry.default.option))
            return
        events, self.batch = self.batch, []
        red = self.room.rules.red
        reply = await self._question(events)
        choice = None if reply is None else mjai_host.choose(reply, offers, red)
        if choice == mjai_host.REACH:
            self.stream.reach_sent = True
            reply = await self._question([{"type": "reach", "actor": self.seat.index}])
            choice = None if reply is None else mjai_host.riichi_discard(reply, offers, red)
        if reply is None:  # no reaction in time (_question said why): the default
            choice = (inquiry.default.action, inquiry.default.option)
        elif not isinstance(choice, tuple):
            self.illegal += 1
            log.warning(
                "mjai seat %d of game %s: %s names no legal choice; it plays the default",
                self.seat.index,
                self.room.game,
                json.dumps(reply)[:200],
            )
            choice = (inquiry.default.action, inquiry.default.option)
        await self._pace(offers)
        self._answer(inquiry, choice)

    async def _pace(self, offers: Sequence[mjai_host.Offer]) -> None:
        """Hold the answer back (server/seats/mjai_stdio.py paces its processes); a socket's AI
        answers when it answers, as a human does."""

    def _answer(self, inquiry: InquiryMsg, choice: tuple[int, int]) -> None:
        error = answer(self.hub, self.room.game, self.seat.index, Answer(inquiry.id, *choice))
        if error is not None:  # late (the seat's clock ran out): the default was played
            log.info("mjai seat %d of game %s: %s", self.seat.index, self.room.game, error)

    async def _end(self) -> None:
        """The last events (through end_game), then the socket closes."""
        events, self.batch = self.batch, []
        if not any(e["type"] == "end_game" for e in events):
            events.append(self.stream.end_game())
        await self.conn.send_text(json.dumps(events, separators=(",", ":")))
        if self.outbox is not None:
            self.outbox.shut(1000)


def _free_seat(hub: Hub, code: str) -> tuple[Room, Seat] | None:
    """The first mjai seat nobody holds, in room ``code`` or in any room not yet over."""
    rooms = hub.rooms.by_code.values() if not code else [hub.rooms.by_code.get(code.upper())]
    for room in rooms:
        if room is None or room.status not in ("waiting", "playing"):
            continue
        for seat in room.seats:
            if seat.bot_name == bots.MJAI and not seat.connected:
                return room, seat
    return None


async def _hello(hub: Hub, conn: Connection) -> MjaiHello | None:
    """The hello with the right bot token, or None (the socket was refused)."""
    settings = hub.settings
    text: str | None = None
    with anyio.move_on_after(settings.header_timeout_s):
        try:
            text = await conn.receive_text()
        except Disconnected:
            return None
    try:
        hello = msgspec.json.decode(text or "", type=MjaiHello)
    except msgspec.DecodeError:
        hello = None
    expected = settings.mjai_token
    if hello is None or hello.type != "hello":
        error = WireError("no_hello", 'the first frame must be {"type":"hello","token":...}')
        await refuse(conn, CloseCode.BAD_TOKEN, error)
        return None
    if not expected or not secrets.compare_digest(hello.token.encode(), expected.encode()):
        await refuse(conn, CloseCode.BAD_TOKEN, WireError("bad_token", "unknown bot token"))
        return None
    return hello


async def serve_mjai(hub: Hub, conn: Connection) -> None:
    """An mjai AI's connection, from its hello to its seat's last event."""
    hello = await _hello(hub, conn)
    if hello is None:
        return
    found = _free_seat(hub, hello.room)
    if found is None:
        await refuse(conn, CloseCode.REFUSED, WireError("no_seat", "no free mjai seat to take"))
        return
    room, seat = found
    bridge = MjaiSeat(conn, hub, room, seat)
    outbox = bridge.outbox = Outbox(bridge, hub.settings.send_queue)
    hub.attach(room, seat, outbox)
    strikes = 0
    async with anyio.create_task_group() as tg:
        tg.start_soon(outbox.pump)
        try:
            while not outbox.closed:
                text = await conn.receive_text()
                refused = bridge.reaction(text)
                if refused is not None:
                    strikes += 1
                    await conn.send_text(encode(refused))
                    if strikes >= hub.settings.max_strikes:
                        outbox.shut(CloseCode.GARBAGE)
        except Disconnected:
            pass
        finally:
            bridge.gone()
            hub.detach(room, seat, outbox)
            outbox.shut(outbox.close_code)
