"""Attacks on a real ``python -m server`` process: memory under huge bodies, a slowloris,
secrets in the log, and settings out of range. A subprocess, so its memory and its log are
its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets.sync.client

from server.edge.codec import encode
from server.edge.messaging import Hello

ROOT = Path(__file__).resolve().parents[3]
#: where the attacker connects from (all of 127/8 is loopback on Linux)
ATTACKER = "127.0.0.2"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def running(
    tmp_path: Path, **env: str
) -> contextlib.AbstractContextManager[tuple[str, subprocess.Popen[bytes], Path]]:
    """(host:port, process, log file) of ``python -m server`` with ``env`` added."""
    return limited(tmp_path, None, env)


@contextlib.contextmanager
def limited(
    tmp_path: Path, files: int | None, env: dict[str, str]
) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """``running`` with a file limit of ``files``."""

    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    port = _free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(tmp_path)],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=limit,
        )
    host = f"127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{host}/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"server did not start: {log.read_text()}")
        yield host, proc, log
    finally:
        proc.terminate()
        proc.wait(10)


def _status(pid: int, field: str) -> int:
    """A /proc/<pid>/status figure in KiB (VmRSS now, VmHWM the peak so far)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _cpu_s(pid: int) -> float:
    """The CPU seconds ``pid`` has used so far, every thread (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _huge_post(host: str, total: int) -> int:
    """POST ``total`` bytes as a chunked body as fast as the server takes them; the bytes
    the server let us send before it hung up."""
    name, port = host.split(":")
    sent = 0
    with socket.create_connection((name, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
        with contextlib.suppress(OSError):
            while sent < total:
                sock.sendall(chunk)
                sent += 1 << 20
    return sent


def test_five_100_mb_bodies_at_once_do_not_grow_the_server(tmp_path: Path) -> None:
    with running(tmp_path) as (host, proc, _):
        httpx.post(f"http://{host}/api/rooms", json={"bots": 4})  # warm every code path
        before = _status(proc.pid, "VmHWM")
        sent: list[int] = []
        posts = [
            threading.Thread(target=lambda: sent.append(_huge_post(host, 100 << 20)))
            for _ in range(5)
        ]
        for post in posts:
            post.start()
        for post in posts:
            post.join()
        grown = _status(proc.pid, "VmHWM") - before
        assert max(sent) < 16 << 20, "the server kept reading refused bodies"
        assert grown < 16 * 1024, f"peak RSS grew {grown} KiB"
        assert httpx.get(f"http://{host}/healthz").status_code == 200


def _slow_socket(host: str) -> socket.socket:
    name, port = host.split(":")
    sock = socket.socket()
    sock.bind((ATTACKER, 0))
    sock.settimeout(5)
    sock.connect((name, int(port)))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    return sock


def _dropped(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_slowloris_is_dropped_and_the_server_stays_responsive(tmp_path: Path) -> None:
    env = {"RIICHI_HEADER_TIMEOUT_S": "1", "RIICHI_MAX_CONNS_PER_CLIENT": "64"}
    with running(tmp_path, **env) as (host, _, log):
        socks = [_slow_socket(host) for _ in range(300)]
        started = time.monotonic()
        waits: list[float] = []
        dropped = 0
        while time.monotonic() - started < 3.0:
            for sock in socks:  # one more header line now and then, as a slowloris does
                with contextlib.suppress(OSError):
                    sock.send(b"X: y\r\n")
            t0 = time.monotonic()
            assert httpx.get(f"http://{host}/healthz", timeout=5).status_code == 200
            waits.append(time.monotonic() - t0)
            time.sleep(0.2)
        dropped = sum(_dropped(sock) for sock in socks)
        for sock in socks:
            sock.close()
        assert dropped == len(socks), f"{len(socks) - dropped} slow sockets still held"
        waits.sort()
        assert waits[int(len(waits) * 0.95)] < 1.0  # a shared, loaded test machine
        text = log.read_text()
        assert "Traceback" not in text and text.count("\n") < 20


def test_seat_tokens_never_reach_the_log(tmp_path: Path) -> None:
    with running(tmp_path, RIICHI_BOT_THINK_S="0") as (host, _, log):
        base = f"http://{host}"
        grant = httpx.post(f"{base}/api/rooms", json={"bots": 2, "name": "A"}).json()
        token, code, game = grant["token"], grant["room"]["code"], grant["room"]["game"]
        seat = {"authorization": f"Bearer {token}"}
        with websockets.sync.client.connect(f"ws://{host}/ws/play") as ws:
            ws.send(encode(Hello(token)))
            ws.recv(timeout=5)
            ws.send("{not json " + token)
            ws.send('{"type":"answer","inquiry":"' + token + '"}')
        # every path that carries a token, right and wrong, and a few that fail
        httpx.get(f"{base}/api/games/{game}/state", headers=seat)
        httpx.post(f"{base}/api/games/{game}/answer", json={"token": token, "inquiry": 1})
        httpx.post(f"{base}/api/rooms/{code}/start", json={"token": token})
        httpx.post(f"{base}/api/rooms/{code}/start", content=token, headers={"x": token})
        httpx.get(f"{base}/api/rooms/{token}", headers=seat)
        httpx.get(f"{base}/{token}?token={token}")
        time.sleep(0.5)
    text = log.read_text()
    assert "Uvicorn running" in text  # the log is the server's
    assert token not in text


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("RIICHI_MAX_BODY", "10", "max_body"),
        ("RIICHI_PORT", "http", "RIICHI_PORT"),
        ("RIICHI_RATE_PER_S", "0", "rate_per_s"),
        ("RIICHI_HEADER_TIMEOUT_S", "-1", "header_timeout_s"),
    ],
)
def test_a_setting_out_of_range_stops_the_server(
    tmp_path: Path, variable: str, value: str, says: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server", "--data-dir", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, variable: value},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr


def _finished_game(host: str) -> str:
    """An all-bot tonpuusen played to its end (instant bots): its game id."""
    room = httpx.post(f"http://{host}/api/rooms", json={"preset": "tenhou-tonpuu", "bots": 4})
    game = room.json()["game"]
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        listed = httpx.get(f"http://{host}/api/games?status=finished").json()["games"]
        if any(g["id"] == game for g in listed):
            return str(game)
        time.sleep(0.2)
    raise TimeoutError("the bots' game did not finish")


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


async def _health_waits(host: str, seconds: float) -> list[float]:
    """/healthz answer times from 127.0.0.1, one every 50 ms for ``seconds``."""
    waits: list[float] = []
    async with httpx.AsyncClient(base_url=f"http://{host}", timeout=10) as h:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            t0 = time.monotonic()
            assert (await h.get("/healthz")).status_code == 200
            waits.append(time.monotonic() - t0)
            await asyncio.sleep(0.05)
    return waits


async def _storm(host: str, path: str, seconds: float) -> dict[int, int]:
    """60 connections from ``ATTACKER`` asking for ``path`` as fast as they are answered;
    the count of each status."""
    statuses: dict[int, int] = {}
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    limits = httpx.Limits(max_connections=60)
    async with httpx.AsyncClient(transport=transport, limits=limits, timeout=30) as h:
        stop = time.monotonic() + seconds

        async def one() -> None:
            while time.monotonic() < stop:
                r = await h.get(f"http://{host}{path}")
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1

        await asyncio.gather(*(one() for _ in range(60)))
    return statuses


def test_a_verify_storm_replays_once_and_exports_draw_on_a_budget(tmp_path: Path) -> None:
    """Issue 31, finding 2: a finished game's verification is worked out once and kept with
    the record (with the in-memory cache off, 40 asks from one address are all answered:
    none draws on its budget of 10), a storm of 60 connections leaves /healthz and the
    server's memory alone, and an export that is not cached draws on the client's replay
    budget (429 past it, another address unaffected)."""
    env = {"RIICHI_BOT_PACE_S": "0", "RIICHI_BOT_THINK_S": "0", "RIICHI_RECORD_CACHE": "0"}
    with running(tmp_path, **env) as (host, _, _):
        game = _finished_game(host)
        base = f"http://{host}/api/games/{game}"
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.5")) as one:
            first = one.get(f"{base}/verify")
            assert first.status_code == 200 and first.json()["replay_ok"]
            again = [one.get(f"{base}/verify") for _ in range(40)]
        assert {r.status_code for r in again} == {200}
        assert {r.content for r in again} == {first.content}
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.6")) as six:
            exports = [six.get(f"{base}/record?format=tenhou").status_code for _ in range(20)]
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.7")) as seven:
            other = seven.get(f"{base}/record?format=mjai").status_code
    assert exports.count(200) <= 12 and exports.count(429) >= 8, exports
    assert other == 200
    with running(tmp_path) as (host, proc, _):  # the same records, the default cache
        idle = asyncio.run(_health_waits(host, 1.5))

        async def storm(path: str) -> tuple[dict[int, int], list[float], float]:
            """The statuses, /healthz's waits, and the server's CPU ms per answer."""
            cpu = _cpu_s(proc.pid)
            attack = asyncio.ensure_future(_storm(host, path, 6.0))
            waits = await _health_waits(host, 6.0)
            statuses = await attack
            return statuses, waits, (_cpu_s(proc.pid) - cpu) * 1000 / sum(statuses.values())

        # the peer: the same flood of the cheapest JSON answer there is
        peer, peer_waits, peer_ms = asyncio.run(storm("/api/presets"))
        rss_before = _status(proc.pid, "VmRSS")
        statuses, waits, verify_ms = asyncio.run(storm(f"/api/games/{game}/verify"))
        grown = (_status(proc.pid, "VmRSS") - rss_before) // 1024
    print(
        f"verify storm: {statuses}, {verify_ms:.2f} CPU ms an answer, /healthz median "
        f"{_median(waits) * 1000:.1f} ms; /api/presets storm: {peer}, {peer_ms:.2f} CPU ms, "
        f"median {_median(peer_waits) * 1000:.1f} ms; idle median "
        f"{_median(idle) * 1000:.1f} ms; RSS {rss_before // 1024} MiB + {grown} MiB"
    )
    assert statuses.get(200, 0) > 100 and set(statuses) == {200}
    # As cheap as the cheapest answer. Before: a replay each, 1,579 answers in 12 s and
    # /healthz p95 185 ms against 15 idle. The server's CPU per answer is what a storm
    # costs, and it holds steady (0.24-0.45 ms in five runs, verify and peer alike). The
    # /healthz waits are printed, not gated: the prober shares its event loop with the 60
    # attacking connections, so they time this test's own process as much as the server
    # (one run: 120 and 179 ms for verify and peer, 10 s of the client's system time).
    assert verify_ms < 3 * peer_ms, (verify_ms, peer_ms)
    assert grown < 32  # before: 118 -> 464 MiB


async def _flood_rooms(host: str, addresses: int, rooms: int) -> dict[int, int]:
    """``rooms`` waiting rooms asked for from each of ``addresses`` loopback addresses
    (127.0.1.1, 127.0.1.2, ...), 25 addresses at a time; the count of each status."""
    statuses: dict[int, int] = {}
    gate = asyncio.Semaphore(25)

    async def one(n: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.1.{n}")
        async with gate, httpx.AsyncClient(transport=transport, timeout=30) as h:
            for _ in range(rooms):
                r = await h.post(f"http://{host}/api/rooms", json={"bots": 2, "name": "x"})
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1

    await asyncio.gather(*(one(n) for n in range(1, addresses + 1)))
    return statuses


async def test_a_newcomer_creates_and_plays_during_a_250_address_room_flood(
    tmp_path: Path,
) -> None:
    """Issue 31, finding 3: 250 addresses asking for 4 waiting rooms each (1,000: the whole
    cap before) get at most ``waiting_share`` of it; a fresh address then still makes a
    waiting room, and makes and plays a game with bots to its end."""
    from tests.server.procs import Player

    with running(tmp_path, RIICHI_BOT_THINK_S="0") as (host, _, _):
        started = time.monotonic()
        statuses = await _flood_rooms(host, 250, 4)
        took = time.monotonic() - started
        transport = httpx.AsyncHTTPTransport(local_address="127.0.2.1")
        async with httpx.AsyncClient(transport=transport, base_url=f"http://{host}") as h:
            waiting = await h.post("/api/rooms", json={"bots": 2, "name": "friend"})
            body = {"preset": "tenhou-tonpuu", "bots": 3, "name": "newcomer"}
            grant = await h.post("/api/rooms", json=body)
            assert grant.status_code == 200, grant.text
            player = Player(host, grant.json()["token"], 5)
            await asyncio.wait_for(player.play(), 300)
            game = grant.json()["room"]["game"]
            record = (await h.get(f"/api/games/{game}/record")).json()
    print(f"250-address flood ({took:.1f} s): {statuses}; newcomer's game {record['status']}")
    assert statuses.get(200, 0) <= 500  # waiting_share of max_rooms
    assert statuses.get(200, 0) >= 250  # each address got a room at least
    assert set(statuses) <= {200, 429, 503}
    assert waiting.status_code == 200, waiting.text
    assert player.ended and record["status"] == "finished"


def test_a_lonely_waiting_room_expires_within_lonely_ttl(tmp_path: Path) -> None:
    with running(tmp_path, RIICHI_LONELY_TTL_S="1") as (host, _, _):
        base = f"http://{host}/api/rooms"
        alone = httpx.post(base, json={"bots": 2, "name": "alone"}).json()["room"]["code"]
        joined = httpx.post(base, json={"bots": 1, "name": "a"}).json()["room"]["code"]
        httpx.post(f"{base}/{joined}/join", json={"name": "b"}).raise_for_status()
        time.sleep(1.5)
        httpx.post(base, json={"bots": 4})  # a create sweeps the waiting rooms
        assert httpx.get(f"{base}/{alone}").status_code == 404
        assert httpx.get(f"{base}/{joined}").status_code == 200  # two humans: it stays


def test_an_ipv6_network_is_one_client(tmp_path: Path) -> None:
    """Every address of one /64 spends one budget (a proxy names them: loopback has one
    IPv6 address); another /64 has its own."""
    with running(tmp_path, RIICHI_TRUSTED_PROXIES="127.0.0.1") as (host, _, _):
        base = f"http://{host}/api/rooms"

        def create(address: str) -> int:
            xff = {"X-Forwarded-For": address}
            return httpx.post(base, json={"bots": 4}, headers=xff).status_code

        same = [create(f"2001:db8:0:1::{n:x}") for n in range(1, 9)]
        other = create("2001:db8:0:2::1")
    assert same[:4] == [200] * 4 and set(same[4:]) == {429}, same
    assert other == 200


def _watch(host: str, url: str, source: str) -> websockets.sync.client.ClientConnection:
    """A spectator's WebSocket at ``url`` from the loopback address ``source``."""
    name, port = host.split(":")
    sock = socket.create_connection((name, int(port)), source_address=(source, 0))
    return websockets.sync.client.connect(url, sock=sock)


def test_websockets_have_a_global_cap(tmp_path: Path) -> None:
    """``max_sockets`` WebSockets in all, from many addresses: the next is refused (403),
    and a closed one frees its place."""
    env = {"RIICHI_MAX_SOCKETS": "12", "RIICHI_MAX_SOCKETS_PER_CLIENT": "4"}
    with running(tmp_path, **env) as (host, _, _):
        game = httpx.post(f"http://{host}/api/rooms", json={"bots": 4}).json()["game"]
        url = f"ws://{host}/ws/watch/{game}"

        with contextlib.ExitStack() as stack:
            held = [
                stack.enter_context(_watch(host, url, f"127.0.3.{n // 4 + 1}")) for n in range(12)
            ]
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                _watch(host, url, "127.0.4.1")
            assert refused.value.response.status_code == 403
            held[0].close()
            time.sleep(0.2)
            with _watch(host, url, "127.0.4.1") as late:
                assert late.protocol.state.name == "OPEN"


def test_open_websockets_leave_the_http_places_free(tmp_path: Path) -> None:
    """An upgraded WebSocket is counted by ``max_sockets``, not ``max_connections``: with
    16 HTTP places and 20 WebSockets open, HTTP requests are still answered (before, uvicorn's
    set of every connection was compared with the HTTP cap, and a server of 16 WebSockets
    closed every new HTTP connection unanswered: bench.load stalled at 768 players)."""
    env = {
        "RIICHI_MAX_CONNECTIONS": "16",
        "RIICHI_MAX_SOCKETS": "20",
        "RIICHI_MAX_SOCKETS_PER_CLIENT": "4",
    }
    with running(tmp_path, **env) as (host, _, _):
        game = httpx.post(f"http://{host}/api/rooms", json={"bots": 4}).json()["game"]
        url = f"ws://{host}/ws/watch/{game}"

        with contextlib.ExitStack() as stack:
            for n in range(20):
                stack.enter_context(_watch(host, url, f"127.0.5.{n // 4 + 1}"))
            with httpx.Client(base_url=f"http://{host}", timeout=5) as http:
                answers = [http.get("/healthz").status_code for _ in range(3)]
            with httpx.Client(base_url=f"http://{host}", timeout=5) as other:
                answers.append(other.get("/api/presets").status_code)
    assert answers == [200] * 4


def _has_security_headers(response: httpx.Response) -> bool:
    from server.edge.security import HEADERS

    return all(response.headers.get(k.decode()) == v.decode() for k, v in HEADERS)


def test_bad_input_gets_a_clear_4xx_with_the_headers_and_no_traceback(tmp_path: Path) -> None:
    """Issue 31, finding 5: a non-ASCII invite key on a locked room, a JSON upload nested
    3,000 deep."""
    with running(tmp_path) as (host, _, log):
        base = f"http://{host}/api/rooms"
        grant = httpx.post(base, json={"bots": 1, "name": "owner"}).json()
        code = grant["room"]["code"]
        httpx.post(f"{base}/{code}/lock", json={"token": grant["token"]}).raise_for_status()
        wrong = httpx.post(f"{base}/{code}/join", json={"name": "x", "invite": "ключ-🀄"})
        deep = b"[" * 3000 + b"]" * 3000
        upload = httpx.post(
            f"http://{host}/api/replay",
            content=deep,
            headers={"Content-Type": "application/json"},
        )
        time.sleep(0.3)
        text = log.read_text()
    assert wrong.status_code == 403 and wrong.json()["code"] == "locked"
    assert 400 <= upload.status_code < 500 and upload.json()["code"] == "bad_log"
    for answer in (wrong, upload):
        assert _has_security_headers(answer) and "Traceback" not in answer.text
    assert "Traceback" not in text


def test_a_damaged_record_answers_a_clear_500_and_the_others_are_served(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as (host, _, _):
        base = f"http://{host}/api"
        games = [httpx.post(f"{base}/rooms", json={"bots": 4}).json()["game"] for _ in range(2)]
        with contextlib.closing(sqlite3.connect(tmp_path / "records.sqlite3")) as db:
            db.execute("UPDATE games SET seats = '{garbage' WHERE id = ?", (games[0],))
            db.commit()
        damaged = httpx.get(f"{base}/games/{games[0]}/record")
        intact = httpx.get(f"{base}/games/{games[1]}/record")
        health = httpx.get(f"http://{host}/healthz")
    assert damaged.status_code == 500 and damaged.json()["code"] == "damaged_record"
    assert games[0] in damaged.json()["message"] and _has_security_headers(damaged)
    assert intact.status_code == 200 and intact.json()["id"] == games[1]
    assert health.status_code == 200


def _damage(db: Path, how: str) -> None:
    """A records file made by the server's own storage, then damaged ``how``."""
    from server.storage.sqlite import Storage

    storage = Storage(db)
    for n in range(200):  # a few dozen pages
        storage.create_game(f"g{n}", "ROOM", "p", n, b"{}", ["a" * 50] * 4)
    storage.close()
    data = bytearray(db.read_bytes())
    if how == "garbage":
        data = bytearray(b"this is not a database " * 200)
    elif how == "truncated":
        data = data[: len(data) // 2 + 100]
    else:  # one bad page in the middle of the file
        page = 4096
        middle = (len(data) // page // 2) * page
        data[middle : middle + page] = b"\xa5" * page
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["garbage", "truncated", "bad_page"])
def test_a_damaged_records_database_stops_the_start_with_one_line(tmp_path: Path, how: str) -> None:
    _damage(tmp_path / "records.sqlite3", how)
    done = subprocess.run(
        [sys.executable, "-m", "server", "--data-dir", str(tmp_path), "--port", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == os.EX_DATAERR, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "records.sqlite3" in done.stderr


def test_a_practice_game_says_so_on_every_surface(tmp_path: Path) -> None:
    """Issue 31, finding 5: the lobby, the games lists (playing and finished), the JSON
    record and every export format carry ``practice`` for a game whose seed its one human
    chose."""
    from tests.server.procs import Player

    with running(tmp_path, RIICHI_BOT_THINK_S="0") as (host, _, _):
        base = f"http://{host}/api"
        body = {"preset": "tenhou-tonpuu", "bots": 3, "seed": 1234, "name": "me"}
        grant = httpx.post(f"{base}/rooms", json=body).json()
        game = grant["room"]["game"]
        lobby = httpx.get(f"{base}/rooms").json()["rooms"]
        playing = httpx.get(f"{base}/games?status=playing").json()["games"]
        player = Player(host, grant["token"], 1)
        asyncio.run(asyncio.wait_for(player.play(), 300))
        finished = httpx.get(f"{base}/games?status=finished").json()["games"]
        record = httpx.get(f"{base}/games/{game}/record").json()
        tenhou = httpx.get(f"{base}/games/{game}/record?format=tenhou").json()
        mjai = httpx.get(f"{base}/games/{game}/record?format=mjai").text.splitlines()
    assert [r["practice"] for r in lobby if r["game"] == game] == [True]
    assert [g["practice"] for g in playing if g["id"] == game] == [True]
    assert [g["practice"] for g in finished if g["id"] == game] == [True]
    assert record["practice"] is True and tenhou["practice"] is True
    first = json.loads(mjai[0])
    assert first["type"] == "start_game" and first["practice"] is True


def test_the_connection_caps_are_lowered_to_fit_the_file_limit(tmp_path: Path) -> None:
    """HTTP connections and WebSockets together stay below the file limit: with 600 files,
    the defaults (4,000 + 3,000) are lowered, said in one log line, and the server serves."""
    with limited(tmp_path, 600, {}) as (host, _, log):
        assert httpx.get(f"http://{host}/healthz").status_code == 200
        text = log.read_text()
    line = next(line for line in text.splitlines() if "the file limit is 600" in line)
    conns = int(line.split("max_connections 4000 -> ")[1].split(",")[0])
    sockets = int(line.split("max_sockets 3000 -> ")[1])
    assert conns + sockets <= 600 - 64 and conns >= 16 and sockets >= 1


def _cli_verify(tmp_path: Path, name: str, body: bytes) -> int:
    path = tmp_path / name
    path.write_bytes(body)
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    return done.returncode


def test_128_bit_seeds_verify_and_a_v1_record_still_does(tmp_path: Path) -> None:
    """Issue 31, finding 5: a new game's seed has 128 bits and a salted ``riichi-seed-v2``
    commitment; its downloads verify with ``python -m engine.replay verify`` and the server's
    own check. A game stored before v2 (63-bit seed, unsalted v1 commitment, no salt
    column) still verifies after the upgrade."""
    import msgspec

    from engine.centers import RandomCenter
    from engine.driver import run_sync
    from engine.game.setup import new_game
    from engine.rules.config import PRESETS
    from engine.rules.wall import seed_commitment
    from server.storage.sqlite import Storage
    from tests.server.procs import Player

    old_seed = 2**63 - 12345
    old = run_sync(new_game(PRESETS["tenhou-tonpuu"], old_seed, RandomCenter(3)))
    storage = Storage(tmp_path / "records.sqlite3")
    rules = msgspec.json.encode(PRESETS["tenhou-tonpuu"])
    storage.create_game("old", "R", "tenhou-tonpuu", old_seed, rules, ["A", "B", "C", "D"])
    storage.execute(  # as a server before v2 wrote it: the integer seed, a v1 commitment
        "UPDATE games SET seed_text = NULL, salt = NULL, commitment = ? WHERE id = 'old'",
        (seed_commitment(old_seed),),
    )
    for d in old.decisions:
        storage.add_decision("old", d.inquiry_id, d.seat, d.action_index, d.option_index, False)
    for n, result in enumerate(old.rounds):
        storage.add_round("old", n, msgspec.json.encode(result))
    storage.finish_game("old", msgspec.json.encode({"scores": list(old.scores)}))
    storage.close()
    with running(tmp_path, RIICHI_BOT_THINK_S="0") as (host, _, _):
        base = f"http://{host}/api"
        body = {"preset": "tenhou-tonpuu", "bots": 3, "name": "me"}
        grant = httpx.post(f"{base}/rooms", json=body).json()
        game = grant["room"]["game"]
        player = Player(host, grant["token"], 2)
        asyncio.run(asyncio.wait_for(player.play(), 300))
        verdicts = {g: httpx.get(f"{base}/games/{g}/verify").json() for g in (game, "old")}
        record = httpx.get(f"{base}/games/{game}/record").content
        tenhou = httpx.get(f"{base}/games/{game}/record?format=tenhou").content
        old_record = httpx.get(f"{base}/games/old/record").content
    doc = json.loads(record)
    assert doc["seed"].bit_length() > 64 and len(doc["salt"]) == 32
    assert doc["commitment"] == seed_commitment(doc["seed"], doc["salt"])
    assert json.loads(old_record)["seed"] == old_seed and json.loads(old_record)["salt"] == ""
    for verdict in verdicts.values():
        assert verdict["commitment_ok"] and verdict["replay_ok"], verdict
    for name, content in (("new.json", record), ("tenhou.json", tenhou), ("old.json", old_record)):
        assert _cli_verify(tmp_path, name, content) == 0, name


def test_a_waiting_room_stored_before_v2_keeps_its_v1_commitment(tmp_path: Path) -> None:
    """A room a server before v2 stored (no salt, the integer seed only) comes back after
    the upgrade with the commitment its players were shown: v1, unsalted."""
    from engine.rules.wall import seed_commitment

    with running(tmp_path) as (host, _, _):
        grant = httpx.post(f"http://{host}/api/rooms", json={"bots": 2, "name": "A"}).json()
        code, game = grant["room"]["code"], grant["room"]["game"]
    old_seed = 2**62 + 99
    with contextlib.closing(sqlite3.connect(tmp_path / "records.sqlite3")) as db:
        options = json.loads(db.execute("SELECT options FROM rooms").fetchone()[0])
        del options["salt"]
        db.execute(
            "UPDATE rooms SET seed = ?, seed_text = NULL, options = ? WHERE game = ?",
            (old_seed, json.dumps(options), game),
        )
        db.commit()
    with running(tmp_path) as (host, _, _):
        room = httpx.get(f"http://{host}/api/rooms/{code}").json()
    assert room["commitment"] == seed_commitment(old_seed)
