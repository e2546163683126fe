"""The read lane (server/edge/ws_direct.py): a lone small text frame is read without the
protocol's parser, and every other shape of input (a frame split over reads, two frames in
one read, a fragmented message, a control frame) still goes through the parser, after which
the lane is taken again. A seat's messages arrive whole and in order either way."""

from __future__ import annotations

import asyncio
import base64
import os
from pathlib import Path

import pytest

from server.edge.codec import encode
from server.edge.messaging import Hello
from server.edge.ws_direct import DirectProtocol
from tests.server.live import live_server, two_seats

PING = b'{"type":"ping"}'


def client_frame(first: int, payload: bytes) -> bytes:
    """A client frame (masked with a random key, as a browser masks), payload under 126."""
    key = os.urandom(4)
    masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return bytes((first, 0x80 | len(payload))) + key + masked


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """(opcode, payload) of the server's next frame (unmasked)."""
    head = await reader.readexactly(2)
    size = head[1] & 0x7F
    if size == 126:
        size = int.from_bytes(await reader.readexactly(2), "big")
    elif size == 127:
        size = int.from_bytes(await reader.readexactly(8), "big")
    return head[0] & 0x0F, await reader.readexactly(size)


async def test_a_seat_s_frames_of_every_shape_arrive_and_lone_ones_skip_the_parser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[bool] = []
    original = DirectProtocol._take_text_frame

    def counted(self: DirectProtocol, data: bytes) -> bool:
        taken.append(original(self, data))
        return taken[-1]

    monkeypatch.setattr(DirectProtocol, "_take_text_frame", counted)
    async with live_server(tmp_path) as (host, _hub):
        token, _ = await two_seats(host)
        port = int(host.rsplit(":", 1)[1])
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws/play HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        assert b" 101 " in await reader.readuntil(b"\r\n\r\n")

        async def send(*chunks: bytes) -> None:
            for chunk in chunks:
                writer.write(chunk)
                await writer.drain()
                await asyncio.sleep(0.05)  # each chunk a read of its own

        lone = client_frame(0x81, PING)
        await send(client_frame(0x81, encode(Hello(token)).encode()))
        await send(lone, client_frame(0x81, PING), client_frame(0x81, PING))  # 3 lone
        split = client_frame(0x81, PING)
        await send(split[:3], split[3:])  # one frame over two reads
        await send(client_frame(0x81, PING) + client_frame(0x81, PING))  # two in one read
        await send(client_frame(0x01, PING[:6]), client_frame(0x80, PING[6:]))  # fragmented
        await send(client_frame(0x89, b"are you there"))  # a WebSocket ping
        await send(client_frame(0x81, PING))  # lone again, after all of that

        pongs, control = 0, list[bytes]()
        while pongs < 8 or not control:
            opcode, payload = await asyncio.wait_for(read_frame(reader), 10)
            if opcode == 0x1 and b'"type":"pong"' in payload:
                pongs += 1
            elif opcode == 0xA:
                control.append(payload)
            assert b'"type":"error"' not in payload, payload
        writer.close()
    assert pongs == 8 and control == [b"are you there"]
    # the three lone pings and the last one went by the lane (the hello comes before the
    # seat listens), nothing else did: the split frame's two reads, the pair, the fragments
    # and the control frame were each offered and refused
    assert taken == [True] * 3 + [False] * 6 + [True], taken
