"""A seat's SSE stream and its WebSocket: opening one must not kick the other off.

A bot author's client often plays over ``/ws/play`` and opens ``/api/games/{id}/events``
with the same token to log or debug; before, the stream took the seat over and the socket
was closed with 4003 mid-game. Now the stream is refused (409 ``seat_connected``) while a
WebSocket holds the seat, and the socket plays on.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import httpx

from server.edge.codec import encode as encode_msg
from server.edge.messaging import Ping
from tests.server.live import live_server, open_seat


async def test_a_seat_token_sse_stream_leaves_the_seats_websocket_alone(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, start_grace_s=0.0) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}", timeout=10) as http,
    ):
        body = {"name": "Ann", "preset": "tenhou-tonpuu", "bots": 3}
        grant = (await http.post("/api/rooms", json=body)).json()
        token, game = grant["token"], grant["room"]["game"]
        async with open_seat(f"ws://{host}/ws/play", token) as ws:
            with anyio.fail_after(10):
                while json.loads(await ws.recv())["type"] != "snapshot":
                    pass
            auth = {"Authorization": f"Bearer {token}"}
            refused = await http.get(f"/api/games/{game}/events", headers=auth)
            assert refused.status_code == 409, refused.text
            assert refused.json()["code"] == "seat_connected"
            await ws.send(encode_msg(Ping()))
            with anyio.fail_after(10):  # still open: the game's messages, then the pong
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
        # once the socket is gone, the stream may take the seat (an SSE-only client)
        with anyio.fail_after(10):
            while True:
                async with http.stream("GET", f"/api/games/{game}/events", headers=auth) as sse:
                    if sse.status_code == 200:
                        async for line in sse.aiter_lines():
                            if line.startswith("data: "):
                                assert json.loads(line[6:])["type"] == "welcome"
                                break
                        break
                await anyio.sleep(0.05)  # the server has not seen the socket close yet
