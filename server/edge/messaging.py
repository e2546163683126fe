"""Wire types: every message of docs/protocol.md as a msgspec Struct, and the decoders (the
encoders are server/edge/codec.py's).

Decoding never raises: a bad frame becomes a ``WireError`` value with a clear message, which
the session sends back unchanged. Engine events travel as ``msgspec.Raw`` so one encoding of
an event is shared by every receiver of the same projection.
"""

from __future__ import annotations

from typing import Literal

import msgspec

# ---------------------------------------------------------------- client -> server


class Answer(msgspec.Struct, tag="answer", tag_field="type", forbid_unknown_fields=True):
    inquiry: int
    action: int
    option: int = 0


class Ping(msgspec.Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
    pass


class Hello(msgspec.Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
    """The first frame on ``/ws/play``: the seat token travels here, never in a URL, so it
    lands in no access log, proxy log or Referer header."""

    token: str
    #: the client reads several messages from one frame, one per line (JSON text holds no
    #: raw newline): the server then sends what one engine step makes for the seat in one
    #: frame instead of one frame each (docs/protocol.md "Batched frames")
    batch: bool = False


class AdviceAsk(msgspec.Struct, tag="advice", tag_field="type", forbid_unknown_fields=True):
    """A seat at a practice table asks how the reviewer ranks its open inquiry's choices."""

    inquiry: int


ClientMessage = Answer | Ping | Hello | AdviceAsk

# ---------------------------------------------------------------- server -> client


class SeatInfo(msgspec.Struct):
    seat: int
    name: str
    bot: bool
    connected: bool
    #: the bot playing this seat (a name of GET /api/bots), None for a human or a free seat
    bot_name: str | None = None


class RuleFacts(msgspec.Struct):
    """What the client must know of a game's rules to draw its table (engine.rules.facts):
    never a constant of the client."""

    players: int
    #: physical ids of the red fives
    red: list[int]
    #: live tiles left after the deal
    wall: int


class RoomInfo(msgspec.Struct):
    code: str
    game: str
    preset: str
    public: bool
    base_s: float
    bank_s: float
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "suspended", "finished", "aborted"]
    #: a practice table: its one human chose the seed (so knows every wall); closed to joins
    practice: bool = False
    #: hex sha256 of "riichi-seed-v2:<salt>:<seed>" (v1: "riichi-seed-v1:<seed>", rooms
    #: made before v2), fixed at creation, before the first deal; the seed and salt are told
    #: only in ``End``, so anyone can check the shuffle afterwards
    commitment: str = ""
    #: the seated humans agreed that spectators see every hand (delayed); else they see
    #: the public view and each hand's tiles once it has ended
    broadcast: bool = False
    #: the creator's seat: only they start the game, lock the room or remove a player
    owner: int | None = None
    #: joining needs the invite key the owner shares
    locked: bool = False
    #: the preset's rule facts (seats, red fives, wall)
    rules: RuleFacts | None = None
    #: the base URL of the node that runs the room (several nodes share one Redis:
    #: docs/scaling.md); null on a server on its own. Play and start it there.
    node: str | None = None
    #: the seat draw once the game started: ``draw[place]`` is the seat of the player who
    #: sat down ``place``-th (engine.rules.bagime); null while the room waits (a seat is
    #: then its place) and for a game stored before seats were drawn
    draw: list[int] | None = None
    #: the seat's human may ask for advice (``{"type": "advice"}``): every other seat is a
    #: built-in bot and the table is neither ranked nor a tournament's
    advice: bool = False


class PresetInfo(msgspec.Struct):
    """One rule set a room may be opened with (``GET /api/presets``)."""

    #: the key a room is created with and its record names
    name: str
    #: what a person reads in the lobby
    label: str
    #: seats at the table: 3 for sanma
    players: int
    #: 1 tonpuusen (East only), 2 hanchan
    winds: int


class SeatGrant(msgspec.Struct):
    room: RoomInfo
    seat: int
    token: str


class TenpaiWire(msgspec.Struct):
    kind: int
    han: int
    fu: int
    yakuman: int
    points: int


class OptionWire(msgspec.Struct):
    tiles: list[int]
    tenpai: list[TenpaiWire] = []


class ActionWire(msgspec.Struct):
    type: str
    options: list[OptionWire]


class ChoiceWire(msgspec.Struct):
    action: int
    option: int


class InquiryMsg(msgspec.Struct, tag="inquiry", tag_field="type"):
    id: int
    deadline: int
    remaining_ms: int
    base_ms: int
    bank_ms: int
    actions: list[ActionWire]
    default: ChoiceWire


class Welcome(msgspec.Struct, tag="welcome", tag_field="type"):
    seat: int | None
    game: str
    room: RoomInfo


class RoomMsg(msgspec.Struct, tag="room", tag_field="type"):
    room: RoomInfo


class EventMsg(msgspec.Struct, tag="event", tag_field="type"):
    seq: int
    event: msgspec.Raw


class Snapshot(msgspec.Struct, tag="snapshot", tag_field="type"):
    seq: int
    events: list[msgspec.Raw]
    inquiry: InquiryMsg | None
    #: engine.view.snapshot of the table for this seat now; null for spectators
    state: msgspec.Raw = msgspec.Raw(b"null")


class Answered(msgspec.Struct, tag="answered", tag_field="type"):
    inquiry: int
    action: int
    option: int
    timeout: bool


class ClockMsg(msgspec.Struct, tag="clock", tag_field="type"):
    bank_ms: int


class End(msgspec.Struct, tag="end", tag_field="type"):
    game: str
    record: str
    #: the game's seed, revealed once it has finished (checks RoomInfo.commitment); a
    #: 128-bit integer, so also as decimal text (JavaScript's numbers keep 53 bits)
    seed: int | None = None
    seed_text: str | None = None
    #: the commitment's salt (v2; "" for a v1 commitment), revealed with the seed
    salt: str | None = None


class AdviceOption(msgspec.Struct):
    """One choice (the indices the seat would answer with) and the reviewer's value."""

    action: int
    option: int
    value: float


class AdviceMsg(msgspec.Struct, tag="advice", tag_field="type"):
    """The reviewer's ranking of the seat's open inquiry, best first (engine/review/advice.py)."""

    inquiry: int
    engine: str
    options: list[AdviceOption]


class WireError(msgspec.Struct, tag="error", tag_field="type"):
    code: str
    message: str


class Pong(msgspec.Struct, tag="pong", tag_field="type"):
    pass


ServerMessage = (
    Welcome
    | RoomMsg
    | EventMsg
    | Snapshot
    | InquiryMsg
    | Answered
    | ClockMsg
    | End
    | AdviceMsg
    | WireError
    | Pong
)

# ---------------------------------------------------------------- codec

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)


def decode_client(frame: str | bytes, max_size: int) -> ClientMessage | WireError:
    """A client message, or the error to send back; never raises."""
    size = len(frame)
    if isinstance(frame, str) and size <= max_size < 4 * size:
        size = len(frame.encode("utf-8", errors="surrogatepass"))  # max_size is in bytes
    if size > max_size:
        return WireError("too_large", f"frame over {max_size} bytes")
    try:
        return _client_decoder.decode(frame)
    except msgspec.ValidationError as exc:
        text = str(exc)
        if "Invalid value" in text and "`$.type`" in text:
            return WireError("unknown_type", f"unknown message type: {text}")
        return WireError("bad_frame", f"malformed message: {text}")
    except msgspec.DecodeError as exc:
        return WireError("bad_frame", f"not JSON: {exc}")


def decode_server(frame: str | bytes) -> ServerMessage:
    """Parse a server message (clients, tests and the load bench)."""
    return _server_decoder.decode(frame)
