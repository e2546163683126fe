"""Issue 43's findings on accounts and their edges, each against a real server: look-alike
and invisible names (3), lockout by strangers (4), odd input (7), credentials in caches and
unknown ``Host`` names (8)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from server.accounts import names
from server.storage import accounts as rows
from server.storage.sqlite import Storage
from tests.server.live import live_server

ROOT = Path(__file__).resolve().parents[3]
PASSWORD = "correct horse battery"


@contextlib.asynccontextmanager
async def _server(data_dir: Path, **settings: Any) -> AsyncIterator[str]:
    async with live_server(data_dir, **settings) as (host, _):
        yield host


def _client(host: str, address: str = "127.0.0.1") -> httpx.AsyncClient:
    """A client of ``host`` whose connections come from the loopback ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=f"http://{host}", transport=transport, timeout=60)


async def _register(http: httpx.AsyncClient, name: str) -> httpx.Response:
    return await http.post("/api/accounts", json={"name": name, "password": PASSWORD})


async def _login(http: httpx.AsyncClient, name: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/session", json={"name": name, "password": password})


# -- finding 3: look-alike and invisible names --


async def test_look_alikes_invisible_names_and_what_the_server_shows_do_not_register(
    tmp_path: Path,
) -> None:
    """Next to ``Carol``, every name the red team registered is refused: Cyrillic and Greek
    letters, ``I`` for ``l``, invisible and filler code points, names of fillers only, a
    look-alike of a reserved name, and the name a bot seat shows (read from a real room)."""
    async with _server(tmp_path, login_address_burst=1000) as host, _client(host) as http:
        assert (await _register(http, "Carol")).status_code == 201
        room = await http.post("/api/rooms", json={"bots": 3, "name": "guest"})
        shown = [s["name"] for s in room.json()["room"]["seats"] if s["bot"]]
        assert "Bot 2" in shown
        tries = [
            "C\u0430rol",  # Cyrillic a
            "Car\u03bfl",  # Greek omicron
            "CaroI",  # capital i
            "CAROI",
            "Ca\u034frol",  # combining grapheme joiner
            "Carol\ufe0f",  # variation selector
            "Carol\U000e0100",  # variation selector supplement
            "Caro\u3164l",  # Hangul filler
            "Carol\u2800",  # Braille blank
            "\u3164",
            "\u2800\u2800",
            "\u115f\u1160",
            "\uffa0",
            "\u0430dmin",  # Cyrillic a, reserved name
            "B0t 3",
            *shown,
        ]
        answers = {name: await _register(http, name) for name in tries}
        accepted = [name for name, r in answers.items() if r.status_code == 201]
        assert accepted == [], accepted
        assert {r.status_code for r in answers.values()} <= {400, 409}
        assert answers["CaroI"].json()["code"] == "name_taken"
        # a name of its own still registers, in one script or in scripts written together
        for name in ("Caroline", "Taro 太郎たろう", "Кирилл"):
            assert (await _register(http, name)).status_code == 201, name


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "accounts", *args, "--data-dir", str(data_dir)],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_the_cli_never_bans_the_wrong_look_alike(tmp_path: Path) -> None:
    """Two look-alikes registered before they were refused (rows written as the old server
    wrote them) both keep working; ``accounts ban Carol`` bans neither and names both, and
    ``--id`` bans the one meant."""
    storage = Storage(tmp_path / "records.sqlite3")
    from argon2 import PasswordHasher

    hashed = PasswordHasher().hash(PASSWORD)
    latin = rows.create(storage, "Carol", names.name_key("Carol"), hashed, time.time())
    cyrillic = rows.create(storage, "C\u0430rol", names.name_key("C\u0430rol"), hashed, 1.0)
    storage.close()
    ban = _cli(tmp_path, "ban", "Carol")
    assert ban.returncode == 1, ban.stdout
    assert str(latin) in ban.stderr and str(cyrillic) in ban.stderr
    assert "banned" not in _cli(tmp_path, "list").stdout
    by_id = _cli(tmp_path, "ban", "--id", str(cyrillic))
    assert by_id.returncode == 0, by_id.stderr
    listed = _cli(tmp_path, "list").stdout.splitlines()
    assert [line for line in listed if "banned" in line] == [f"C\u0430rol banned id={cyrillic}"]
    async with _server(tmp_path) as host, _client(host) as http:
        assert (await _login(http, "Carol")).status_code == 200  # the existing accounts work
        assert (await _login(http, "C\u0430rol")).json()["code"] == "banned"


# -- finding 4: strangers cannot lock the owner out --

#: a budget of 3 that refills once in 100 minutes: a slow hash never refills it mid-test
TIGHT = {"login_burst": 3, "login_per_min": 0.01, "login_address_burst": 1000}


async def test_guesses_from_elsewhere_do_not_lock_the_owner_out(tmp_path: Path) -> None:
    async with (
        _server(tmp_path, **TIGHT) as host,
        _client(host) as owner,
        _client(host, "127.0.0.9") as attacker,
    ):
        assert (await _register(owner, "taro")).status_code == 201
        # the first login (a stranger's, as yet) spends one of the 3; the owner's browser now
        # holds a device cookie and its address is known
        assert (await _login(owner, "taro")).status_code == 200
        guesses = [(await _login(attacker, "taro", f"guess{i}")).status_code for i in range(3)]
        assert guesses == [401, 401, 429]
        assert (await _login(attacker, "taro")).status_code == 429  # strangers wait
        again = await _login(owner, "taro")  # before: 429, locked out by the attacker
        assert again.status_code == 200, again.text
        async with _client(host) as same_address:  # no cookie, a past login's address
            assert (await _login(same_address, "taro")).status_code == 200
        async with _client(host, "127.0.0.10") as travelling:  # the cookie, a new address
            travelling.cookies = owner.cookies
            assert (await _login(travelling, "taro")).status_code == 200
        async with _client(host, "127.0.0.11") as unknown:  # neither: a stranger
            refused = await _login(unknown, "taro")
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0


async def test_a_spent_budget_is_one_answer_everywhere(tmp_path: Path) -> None:
    """After strangers spent the name's budget, the owner's session still changes the
    password; once the session's own budget is spent too, the right password gets the 429
    a login gets (before: 401 ``bad_login``, as if it were wrong)."""
    async with (
        _server(tmp_path, **TIGHT) as host,
        _client(host) as owner,
        _client(host, "127.0.0.9") as attacker,
    ):
        assert (await _register(owner, "taro")).status_code == 201
        token = (await _login(owner, "taro")).json()["token"]
        owner.cookies.clear()
        bearer = {"Authorization": f"Bearer {token}"}
        for i in range(4):
            await _login(attacker, "taro", f"guess{i}")
        change = {"old": PASSWORD, "new": "another password"}
        done = await owner.post("/api/account/password", json=change, headers=bearer)
        assert done.status_code == 200, done.text
        wrong = {"old": "not it at all", "new": "a third password"}
        for _ in range(2):
            refused = await owner.post("/api/account/password", json=wrong, headers=bearer)
            assert refused.json()["code"] == "bad_login"
        right = {"old": "another password", "new": "a third password"}
        spent = await owner.post("/api/account/password", json=right, headers=bearer)
        delete = await owner.request(
            "DELETE", "/api/account", json={"password": "another password"}, headers=bearer
        )
        for answer in (spent, delete):
            assert answer.status_code == 429, answer.text
            assert answer.json()["code"] == "rate_limited"
            assert int(answer.headers["retry-after"]) > 0


# -- finding 7: odd input --


async def _finished_game(http: httpx.AsyncClient) -> str:
    room = await http.post("/api/rooms", json={"preset": "tenhou-tonpuu", "bots": 4})
    game = str(room.json()["game"])
    for _ in range(1200):
        listed = (await http.get("/api/games?status=finished")).json()["games"]
        if any(g["id"] == game for g in listed):
            return game
        await asyncio.sleep(0.2)
    raise TimeoutError("the bots' game did not finish")


#: every integer (or number) query parameter of every route, with a valid rest of the query
QUERIES = [
    "/api/games/{game}/review?seat={n}",
    "/api/games?limit={n}",
    "/api/games?before={n}",
    "/api/rooms?limit={n}",
    "/api/players/taro/games?limit={n}",
    "/api/players/taro/games?before={n}",
    "/api/leaderboard?lobby=hanchan&limit={n}",
    "/api/leaderboard?lobby=hanchan&offset={n}",
]


async def test_integers_out_of_range_are_a_400_on_every_route(tmp_path: Path) -> None:
    """A seat of 2^63 answered 500 (an OverflowError from SQLite); every integer of every
    query now goes through one bounded parse."""
    async with _server(tmp_path) as host, _client(host) as http:
        game = await _finished_game(http)
        seat = await http.get(f"/api/games/{game}/review?seat=9223372036854775808")
        assert (seat.status_code, seat.json()["code"]) == (400, "bad_query")
        for n in ("9223372036854775808", "-9223372036854775809", "1" * 40, "nan", "1e999"):
            for query in QUERIES:
                url = query.format(game=game, n=n)
                answer = await http.get(url)
                assert answer.status_code < 500, (url, answer.text)
        for n in ("4", "-1", "\uff11", "1_0", " 1"):  # out of 0..3, or not plain digits
            answer = await http.get(f"/api/games/{game}/review?seat={n}")
            assert answer.status_code == 400, (n, answer.text)
        # a seat in range whose review nobody asked for: a state, not an error
        nobody = await http.get(f"/api/games/{game}/review?seat=1")
        assert (nobody.status_code, nobody.json()["status"]) == (200, "none")


async def test_a_name_registers_only_if_it_can_log_in(tmp_path: Path) -> None:
    """Four U+FDFA are four characters but 72 in the lookup key: refused (before: 201, and
    never a login); three (54) register and log in, with the key typed another way."""
    async with _server(tmp_path) as host, _client(host) as http:
        too_long = await _register(http, "\ufdfa" * 4)
        assert (too_long.status_code, too_long.json()["code"]) == (400, "bad_account")
        assert (await _register(http, "\ufdfa" * 3)).status_code == 201
        assert (await _login(http, "\ufdfa" * 3)).status_code == 200
        # the other normalisation of the same name finds the same account
        assert (await _login(http, names.name_key("\ufdfa" * 3).upper())).status_code == 200
        assert (await _login(http, "\ufdfa" * 4)).json()["code"] == "bad_login"


# -- finding 8: headers --


async def test_answers_carrying_a_credential_are_not_stored(tmp_path: Path) -> None:
    async with _server(tmp_path) as host, _client(host) as http:
        registered = await _register(http, "taro")
        login = await _login(http, "taro")
        token = login.json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        http.cookies.clear()
        session = await http.get("/api/session", headers=bearer)
        queued = await http.post("/api/queue", json={"lobby": "hanchan"}, headers=bearer)
        queue = await http.get("/api/queue", headers=bearer)
        room = await http.post("/api/rooms", json={"bots": 2, "name": "a"})
        joined = await http.post(f"/api/rooms/{room.json()['room']['code']}/join", json={})
        answers = {
            "register": registered,
            "login": login,
            "session": session,
            "queue join": queued,
            "queue": queue,
            "room grant": room,
            "join grant": joined,
        }
        for what, answer in answers.items():
            assert answer.status_code in (200, 201), (what, answer.text)
            assert answer.headers.get("cache-control") == "no-store", what
        presets = await http.get("/api/presets")
        assert "cache-control" not in presets.headers  # a public answer is not marked


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _raw_status(port: int, host_header: str) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        request = f"GET /api/presets HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n"
        sock.sendall(request.encode() + b"\r\n")
        head = sock.recv(4096).split(b"\r\n", 1)[0]
    return int(head.split()[1])


def test_the_default_start_refuses_an_unknown_host(tmp_path: Path) -> None:
    """``python -m server`` as the README starts it (loopback) serves its own names and
    refuses any other ``Host``: a DNS-rebinding page's requests carry the attacker's name."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "RIICHI_ALLOWED_HOSTS"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        statuses = {
            h: _raw_status(port, h)
            for h in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "evil.example")
        }
    finally:
        proc.terminate()
        proc.wait(10)
    assert statuses == {
        f"127.0.0.1:{port}": 200,
        f"localhost:{port}": 200,
        f"[::1]:{port}": 200,
        "evil.example": 400,
    }


async def test_allowed_hosts_refuses_others_on_http_and_websockets(tmp_path: Path) -> None:
    async with _server(tmp_path, allowed_hosts="game.example,*.game.example") as host:
        port = int(host.split(":")[1])
        statuses = {  # in a thread: the server runs in this event loop
            h: await asyncio.to_thread(_raw_status, port, h)
            for h in ("game.example", "eu.game.example", "evil.example", host)
        }
        assert statuses == {
            "game.example": 200,
            "eu.game.example": 200,
            "evil.example": 400,
            host: 400,
        }
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            async with websockets.connect(f"ws://{host}/ws/play"):
                pass
        assert refused.value.response.status_code == 400
