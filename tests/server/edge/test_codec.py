"""The encoders (server/edge/codec.py, compiled with the server's set) write what msgspec
writes for the wire's messages, and only that module names them."""

from __future__ import annotations

import msgspec

from server.edge import codec, messaging
from server.edge.messaging import Answered, EventMsg, Pong, WireError


def test_an_event_frame_is_the_encoding_of_its_message() -> None:
    for seq, event in [(0, '{"type":"Dora","tile":5}'), (7, "null"), (12345, '{"a":[1,"é"]}')]:
        wrapped = EventMsg(seq, msgspec.Raw(event.encode()))
        assert codec.event_text(seq, event) == codec.encode(wrapped)


def test_an_answered_echo_is_the_encoding_of_its_message() -> None:
    for args in [(1, 0, 13, False), (40_001, 3, 0, True), (7, -1, 2, False)]:
        assert codec.answered_text(*args) == codec.encode(Answered(*args))


def test_the_encoders_agree_with_each_other() -> None:
    value = WireError("late", "the deadline of inquiry 3 has passed")
    data, text = codec.encode_twice(value)
    assert data == codec.encode_bytes(value) == text.encode() == msgspec.json.encode(value)
    assert bytes(codec.encode_raw(value)) == data
    assert [bytes(r) for r in codec.raws([data, b"{}"])] == [data, b"{}"]
    assert codec.encode(Pong()) == '{"type":"pong"}'


def test_the_encoders_have_one_name() -> None:
    for name in ("encode", "encode_raw", "encode_twice", "encode_bytes", "raws", "event_text"):
        assert callable(getattr(codec, name))
        assert not hasattr(messaging, name)  # one import path (server/edge/codec.py)
