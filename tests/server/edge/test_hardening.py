"""Issue 10's limits and web hardening, each attack made against a real uvicorn with real
httpx / websockets / raw-socket clients, asserting the invariant it must not break."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from engine.rules.config import PRESETS
from server.edge.codec import encode
from server.edge.messaging import Ping, WireError, decode_server
from server.edge.names import MAX_LENGTH, clean_name
from tests.server.live import by_place, live_server, open_seat

JSON = {"content-type": "application/json"}
PLAIN = {"content-type": "text/plain"}


#: how late past a 0.5 s deadline the server may be and still count as keeping it: loose for a
#: loaded 2-core machine (a process can stall for seconds), yet under the 5 s that the socket
#: waits and that uvicorn's keep-alive would take without the deadline
LATE_S = 4.0


def _raw(host: str, request: bytes, timeout: float = 5.0) -> socket.socket:
    name, port = host.split(":")
    sock = socket.create_connection((name, int(port)), timeout=timeout)
    sock.sendall(request)
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it hangs up; the socket is closed after."""
    data = b""
    with sock:
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except OSError:
            pass
    return data


async def test_a_body_over_the_cap_is_refused_before_the_rest_is_read(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, hub):
        # announced: 413 at once, though not one byte of the 100 MB was sent
        head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        sock = _raw(host, head + b"Content-Length: 100000000\r\n\r\n")
        answer = await asyncio.to_thread(_read_all, sock)
        assert answer.startswith(b"HTTP/1.1 413") and b"connection: close" in answer.lower()
        # streamed (chunked, no length): the server answers and hangs up near the cap
        sock = _raw(host, head + b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
        sent = 0

        def flood() -> None:
            nonlocal sent
            try:
                while sent < 100_000_000:
                    sock.sendall(chunk)
                    sent += len(chunk)
            except OSError:
                pass

        await asyncio.to_thread(flood)
        sock.close()
        assert sent < 10_000_000, "the server kept reading a body it had refused"
        assert len(hub.rooms.by_code) == 0


async def test_room_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    # a slow refill, so the test does not depend on how fast this machine is
    limits = {"create_per_min": 0.1, "max_open_rooms": 100}
    async with live_server(tmp_path, **limits) as (host, hub):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            codes = [(await http.post("/api/rooms", json={})).status_code for _ in range(8)]
            assert codes == [200] * 5 + [429] * 3  # a burst of five, then the rate
            refused = await http.post("/api/rooms", json={})
            assert refused.json()["code"] == "rate_limited"
            assert 1 <= int(refused.headers["retry-after"]) <= 600
            # a forged X-Forwarded-For is not believed without a trusted proxy
            forged = await http.post("/api/rooms", json={}, headers={"x-forwarded-for": "1.2.3.4"})
            assert forged.status_code == 429
        assert len(hub.rooms.by_code) == 5


async def test_a_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    limits = {"create_per_min": 0.1, "trusted_proxies": "127.0.0.1", "max_open_rooms": 100}
    async with (
        live_server(tmp_path, **limits) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as http,
    ):
        for n in range(3):  # three clients behind the proxy: a burst of five each
            fwd = {"x-forwarded-for": f"203.0.113.{n}, 127.0.0.1"}
            for _ in range(5):
                answer = await http.post("/api/rooms", json={}, headers=fwd)
                assert answer.status_code == 200
        again = {"x-forwarded-for": "203.0.113.0"}
        assert (await http.post("/api/rooms", json={}, headers=again)).status_code == 429


async def test_one_client_holds_at_most_max_open_rooms(tmp_path: Path) -> None:
    limits = {"create_per_min": 1000.0, "max_open_rooms": 4}
    async with live_server(tmp_path, **limits) as (host, hub):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            answers = [await http.post("/api/rooms", json={"bots": 0}) for _ in range(6)]
        assert [a.status_code for a in answers] == [200] * 4 + [429] * 2
        assert answers[-1].json()["code"] == "too_many_rooms" and answers[-1].headers["retry-after"]
        assert len(hub.rooms.by_code) == 4


async def test_room_code_guessing_and_joins_are_rate_limited(tmp_path: Path) -> None:
    limits = {"lookup_per_min": 0.1, "join_per_min": 0.1}
    async with (
        live_server(tmp_path, **limits) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as http,
    ):
        looks = [(await http.get(f"/api/rooms/AAAA{n:02d}")).status_code for n in range(25)]
        assert looks == [404] * 20 + [429] * 5
        joins = [
            (await http.post(f"/api/rooms/BBBB{n:02d}/join", json={})).status_code
            for n in range(12)
        ]
        assert joins == [404] * 10 + [429] * 2


async def test_one_client_holds_at_most_max_sockets(tmp_path: Path) -> None:
    async with live_server(tmp_path, max_sockets_per_client=3) as (host, _):
        held = [await websockets.connect(f"ws://{host}/ws/play") for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            await websockets.connect(f"ws://{host}/ws/play")
        assert refused.value.response.status_code == 403
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            stream = await http.get("/api/games/nope/events")
            assert stream.status_code == 429 and stream.headers["retry-after"]
        await held[0].close()
        await asyncio.sleep(0.2)
        async with websockets.connect(f"ws://{host}/ws/play"):
            pass  # a closed socket frees its place
        for ws in held[1:]:
            await ws.close()


async def test_half_sent_headers_are_dropped_at_the_deadline(tmp_path: Path) -> None:
    async with live_server(tmp_path, header_timeout_s=0.5) as (host, _):
        started = time.monotonic()
        slow = _raw(host, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        silent = _raw(host, b"")
        assert await asyncio.to_thread(_read_all, slow) == b""
        assert await asyncio.to_thread(_read_all, silent) == b""
        assert time.monotonic() - started < LATE_S
        # a whole request in time is answered as ever
        ok = _raw(host, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert (await asyncio.to_thread(_read_all, ok)).startswith(b"HTTP/1.1 200")


async def test_one_address_holds_at_most_max_conns(tmp_path: Path) -> None:
    async with live_server(tmp_path, max_conns_per_client=5) as (host, _):
        socks = [_raw(host, b"") for _ in range(8)]
        await asyncio.sleep(0.3)
        for sock in socks:
            sock.settimeout(0.3)
        closed = 0
        for sock in socks:
            with contextlib.suppress(TimeoutError):
                closed += sock.recv(1) == b""
        assert closed == 3
        for sock in socks:
            sock.close()


async def _watch_table(host: str, delay: float = 60.0) -> str:
    async with httpx.AsyncClient(base_url=f"http://{host}") as http:
        room = (await http.post("/api/rooms", json={"bots": 4})).json()
    return str(room["game"])


async def test_a_spectator_junk_flood_is_closed(tmp_path: Path) -> None:
    async with live_server(tmp_path, bot_pace_s=1.0) as (host, _):
        game = await _watch_table(host)
        async with websockets.connect(f"ws://{host}/ws/watch/{game}") as ws:
            await ws.send(encode(Ping()))
            codes: list[str] = []
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(10):  # never closed would be a failure, not a hang
                    await flood(ws, codes)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4002
            assert "too_large" in codes and len(codes) <= 20


async def flood(ws: Any, codes: list[str]) -> None:
    """Send junk as fast as the socket takes it, collecting the error codes sent back."""
    for _ in range(1000):
        await ws.send("junk" * 2000)
    async for text in ws:
        msg = decode_server(text)
        if isinstance(msg, WireError):
            codes.append(msg.code)


async def test_max_frame_counts_bytes_not_characters(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, _):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            grant = (await http.post("/api/rooms", json={"bots": 0})).json()
        async with open_seat(f"ws://{host}/ws/play", grant["token"]) as ws:
            frame = '{"type":"ping","x":"' + "東" * 1500 + '"}'  # 1,522 characters, 4,522 bytes
            await ws.send(frame)
            while True:
                msg = decode_server(await asyncio.wait_for(ws.recv(), 5))
                if isinstance(msg, WireError):
                    break
            assert msg.code == "too_large"


async def test_cross_origin_websockets_and_posts_are_refused(tmp_path: Path) -> None:
    allowed = "https://riichi.example"
    async with live_server(tmp_path, allowed_origins=allowed) as (host, hub):
        evil = {"Origin": "https://evil.example"}
        with pytest.raises(InvalidStatus) as refused:
            await websockets.connect(f"ws://{host}/ws/play", additional_headers=evil)
        assert refused.value.response.status_code == 403
        for origin in (f"http://{host}", allowed):
            async with websockets.connect(f"ws://{host}/ws/play", origin=origin):  # type: ignore[arg-type]
                pass
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            answer = await http.post("/api/rooms", json={}, headers=evil)
            assert answer.status_code == 403 and answer.json()["code"] == "bad_origin"
            # the form a cross-site page can send without a preflight: text/plain
            form = {"content-type": "text/plain", "origin": f"http://{host}"}
            answer = await http.post("/api/rooms", content=b"{}", headers=form)
            assert answer.status_code == 415
            same = await http.post("/api/rooms", json={}, headers={"origin": f"http://{host}"})
            assert same.status_code == 200
        assert len(hub.rooms.by_code) == 1


async def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, _):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            answers = [
                await http.get("/"),
                await http.get("/js/app.js"),
                await http.get("/api/rooms"),
                await http.get("/api/rooms/NOPE99"),
                await http.post("/api/rooms", content=b"x" * 5000, headers=JSON),
                await http.post(
                    "/api/rooms", content=b"{}", headers={"content-type": "text/plain"}
                ),
            ]
        for answer in answers:
            csp = answer.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
            assert "script-src 'self';" in csp and "unsafe-eval" not in csp
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
        page = answers[0].text
        assert answers[0].status_code == 200
        # what the CSP would block in the page itself: inline scripts, styles, handlers
        assert "<script>" not in page and " style=" not in page and " onclick=" not in page


async def test_names_lose_control_and_bidi_characters(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, _):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            name = "\u202eAlice\u200b\x07\u2066 " + "x" * 40
            grant = (await http.post("/api/rooms", json={"bots": 2, "name": name})).json()
            code = grant["room"]["code"]
            joined = await http.post(f"/api/rooms/{code}/join", json={"name": "\u200f\u200d"})
        room = joined.json()["room"]
        seats = by_place(room["seats"], room["draw"])  # the room started: seats are drawn
        assert seats[0]["name"] == "Alice " + "x" * 10
        assert seats[1]["name"] == "Player 2"  # nothing visible left: the default name


def test_clean_name_counts_what_the_eye_sees() -> None:
    assert clean_name("e\u0301" * 20) == "\u00e9" * MAX_LENGTH  # NFC: one character each
    zalgo = "a" + "\u0300\u0301\u0302\u0303\u0304" * 10
    assert clean_name(zalgo) == "\u00e0\u0301\u0302"  # base + at most two marks
    assert clean_name("  Bob \t\n  Smith ") == "Bob Smith"
    assert clean_name("\u202e\u2066\u200b\ufeff") == ""
    assert clean_name("雀士") == "雀士"


async def test_finished_records_are_exported_once(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, hub):
        rules = msgspec.json.encode(PRESETS["tenhou-tonpuu"])
        hub.storage.create_game("done", "ROOM", "tenhou-tonpuu", 7, rules, ["A", "B", "C", "D"])
        hub.storage.finish_game("done", b'{"scores": [25000, 25000, 25000, 25000]}')
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            first = await http.get("/api/games/done/record?format=tenhou")
            assert first.status_code == 200
            # change the stored seed behind the server's back: a fresh export would differ
            with sqlite3.connect(hub.settings.db_path) as db:
                db.execute("UPDATE games SET seed = 8, seed_text = '8' WHERE id = 'done'")
            again = await http.get("/api/games/done/record?format=tenhou")
            assert again.content == first.content
            fresh = await http.get("/api/games/done/record?format=json")
            assert msgspec.json.decode(fresh.content)["seed"] == 8  # another key: exported now


async def test_the_lobby_is_paged(tmp_path: Path) -> None:
    async with live_server(tmp_path) as (host, _):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            made = [(await http.post("/api/rooms", json={"bots": 0})).json() for _ in range(5)]
            codes = [g["room"]["code"] for g in made]
            seen: list[str] = []
            after = ""
            while True:
                page: Any = (await http.get(f"/api/rooms?limit=2&after={after}")).json()
                seen += [r["code"] for r in page["rooms"]]
                if page["next"] is None:
                    break
                after = page["next"]
        assert seen == codes


async def test_the_lobby_list_is_computed_once_per_ttl(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, lobby_ttl_s=60.0) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as http,
    ):
        code = (await http.post("/api/rooms", json={"bots": 0})).json()["room"]["code"]
        assert [r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]] == [code]
        hub.rooms.by_code[code].public = False  # behind the API's back: no new scan
        assert [r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]] == [code]


async def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    async with live_server(tmp_path, header_timeout_s=0.5) as (host, _):
        started = time.monotonic()
        async with websockets.connect(f"ws://{host}/ws/play") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(5):
                    while True:
                        await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
        assert time.monotonic() - started < LATE_S


async def test_a_body_that_trickles_in_is_cut_off(tmp_path: Path) -> None:
    async with live_server(tmp_path, header_timeout_s=0.5) as (host, hub):
        started = time.monotonic()
        sock = _raw(
            host,
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{",
        )
        answer = await asyncio.to_thread(_read_all, sock)
        assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - started < LATE_S
        assert not hub.rooms.by_code


def _watch_handshake(game: str) -> bytes:
    """A bare WebSocket upgrade to ``game``'s watch stream."""
    return (
        f"GET /ws/watch/{game} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def test_a_half_open_websocket_is_dropped_by_ping(tmp_path: Path) -> None:
    async with live_server(tmp_path, ws_ping_s=1.0, bot_pace_s=1.0) as (host, _):
        game = await _watch_table(host)
        started = time.monotonic()
        # a peer that shook hands and then went silent: it never answers a ping
        sock = _raw(host, _watch_handshake(game))
        answer = await asyncio.to_thread(_read_all, sock)
        assert answer.startswith(b"HTTP/1.1 101")
        assert time.monotonic() - started < 2.0 + LATE_S  # ping at 1 s, pong due by 2 s


def _masked(opcode: int, payload: bytes) -> bytes:
    """A client's frame (RFC 6455: every client frame is masked; a zero mask keeps it)."""
    return bytes((0x80 | opcode, 0x80 | len(payload))) + bytes(4) + payload


def _pings_heard(sock: socket.socket, seconds: float, chatty: bool) -> int:
    """Read a watch socket for ``seconds``, answering each ping with its pong; a ``chatty``
    peer also sends a ping of its own every 0.25 s. How many pings the server sent."""
    buf, pings, started, said = b"", 0, time.monotonic(), 0.0
    sock.settimeout(10)  # the 101 answer may be slow on a busy machine
    with sock:
        while b"\r\n\r\n" not in buf:
            buf += sock.recv(65536)
        buf = buf.split(b"\r\n\r\n", 1)[1]  # past the 101 answer
        sock.settimeout(0.05)
        while (now := time.monotonic()) - started < seconds:
            if chatty and now - said > 0.25:
                sock.sendall(_masked(0x9, b"hi"))
                said = now
            with contextlib.suppress(TimeoutError):
                buf += sock.recv(65536)
            while len(buf) >= 2:
                n, at = buf[1] & 0x7F, 2
                if n == 126:
                    n, at = int.from_bytes(buf[2:4], "big"), 4
                if len(buf) < at + n:
                    break
                if buf[0] & 0x0F == 0x9:
                    pings += 1
                    sock.sendall(_masked(0xA, buf[at : at + n]))
                buf = buf[at + n :]
    return pings


async def test_only_a_quiet_websocket_is_pinged(tmp_path: Path) -> None:
    """A peer that sent something within the ping interval is alive already: pinging it
    would cost a write, a read and a parse for nothing."""
    async with live_server(tmp_path, ws_ping_s=1.0, bot_pace_s=1.0) as (host, _):
        game = await _watch_table(host)
        quiet, chatty = _raw(host, _watch_handshake(game)), _raw(host, _watch_handshake(game))
        heard = await asyncio.gather(
            asyncio.to_thread(_pings_heard, quiet, 3.5, False),
            asyncio.to_thread(_pings_heard, chatty, 3.5, True),
        )
        assert heard[0] >= 2 and heard[1] == 0, heard


async def test_an_unread_body_cannot_hold_the_connection(tmp_path: Path) -> None:
    async with live_server(tmp_path, header_timeout_s=0.5) as (host, _):
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        sock = _raw(host, head + b"1\r\nx\r\n")
        started = time.monotonic()

        def drip() -> bytes:
            """One body byte every 0.1 s (each resets uvicorn's keep-alive timer)."""
            answer = b""
            sock.settimeout(0.1)
            with contextlib.suppress(OSError):
                while time.monotonic() - started < 5:
                    sock.sendall(b"1\r\nx\r\n")
                    with contextlib.suppress(TimeoutError):
                        chunk = sock.recv(4096)
                        if not chunk:
                            break
                        answer += chunk
            sock.close()
            return answer

        answer = await asyncio.to_thread(drip)
        assert answer.startswith(b"HTTP/1.1 200") and time.monotonic() - started < LATE_S


async def test_an_idle_event_stream_says_so(tmp_path: Path) -> None:
    async with (
        live_server(tmp_path, ws_ping_s=1.0) as (host, _),
        httpx.AsyncClient(base_url=f"http://{host}") as http,
    ):
        grant = (await http.post("/api/rooms", json={"bots": 0})).json()
        game, seat = grant["room"]["game"], {"authorization": f"Bearer {grant['token']}"}
        async with http.stream("GET", f"/api/games/{game}/events", headers=seat) as stream:
            lines: list[str] = []
            async with asyncio.timeout(5):
                async for line in stream.aiter_lines():
                    lines.append(line)
                    if line == ": idle":
                        break
        assert lines[0].startswith("data: ") and ": idle" in lines


async def test_a_refusal_before_the_body_keeps_the_connection_usable(tmp_path: Path) -> None:
    async with live_server(tmp_path, create_per_min=0.1) as (host, _):
        async with httpx.AsyncClient(base_url=f"http://{host}") as http:
            for _ in range(5):
                await http.post("/api/rooms", json={"bots": 0})
        # the headers first; the body only after the 429 (as a keep-alive client may)
        head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        sock = _raw(host, head + b"Content-Length: 2\r\n\r\n")

        def exchange() -> tuple[bytes, bytes]:
            with sock:
                refused = b""
                while not refused.endswith(b"}"):  # the whole JSON answer
                    chunk = sock.recv(65536)
                    assert chunk, "closed before the answer was whole"
                    refused += chunk
                sock.sendall(b"{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                return refused, sock.recv(65536)

        refused, then = await asyncio.to_thread(exchange)
        assert refused.startswith(b"HTTP/1.1 429") and then.startswith(b"HTTP/1.1 200")
