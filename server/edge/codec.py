"""The wire's encoders: one msgspec encoder for every message the server sends.

A module of its own so that it runs compiled (server/native.py): the table, the answers and
the spectators call these for every seat of every event, and an interpreted function called
from a compiled module costs a Python frame each time (docs/perf-notes.md, issue 45). The
messages themselves (server/edge/messaging.py, with their decoders) stay interpreted, as
msgspec structs must; what encodes them is named only here.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

_encoder: Final = msgspec.json.Encoder()


def encode(message: Any) -> str:
    """JSON text of any wire struct (or plain data)."""
    return _encoder.encode(message).decode()


def encode_raw(value: Any) -> msgspec.Raw:
    """Encode a value once (an engine event) for embedding in many messages."""
    return msgspec.Raw(_encoder.encode(value))


def encode_twice(value: Any) -> tuple[bytes, str]:
    """``value``'s JSON as bytes and as text, from one encoding. The bytes are what a hand's
    streams keep (``raws`` wraps them for a snapshot when one is asked for): a
    ``msgspec.Raw`` beside each would be 48 bytes more per event and view, kept all hand
    (bench/memory.py, issue 45)."""
    data: bytes = _encoder.encode(value)
    return data, data.decode()


def encode_bytes(value: Any) -> bytes:
    """``value``'s JSON, for a stream that keeps bytes (see ``encode_twice``)."""
    data: bytes = _encoder.encode(value)
    return data


def raws(stream: list[bytes]) -> list[msgspec.Raw]:
    """A kept stream's events as a message embeds them (no copy: each wraps its bytes)."""
    return [msgspec.Raw(data) for data in stream]


def event_text(seq: int, event: str) -> str:
    """``encode(EventMsg(seq, raw))`` for an event already encoded as ``event`` (text): a
    step's event goes to every seat with a seq of its own, and is encoded once
    (tests/server/edge/test_codec.py checks it against ``encode``)."""
    return f'{{"type":"event","seq":{seq},"event":{event}}}'


def answered_text(inquiry: int, action: int, option: int, timeout: bool) -> str:
    """``encode(Answered(inquiry, action, option, timeout))``: the echo of every answer
    taken, written without a struct (tests/server/edge/test_codec.py checks it)."""
    late = "true" if timeout else "false"
    return (
        f'{{"type":"answered","inquiry":{inquiry},"action":{action},"option":{option},'
        f'"timeout":{late}}}'
    )
