"""Play an old server into a database fixture: ``scripts/make-fixture-db.sh`` runs this.

``python3 scripts/make_fixture_db.py --tree OLD --out DIR [--postgres]`` starts the server
of the source tree OLD (interpreted: ``RIICHI_COMPILE=0``, imported from OLD, never
installed) on a fresh data dir, or on a fresh database of a throwaway PostgreSQL, and plays
through its public API only (HTTP and the WebSocket protocol of docs/protocol.md, as JSON,
so any release's server can be driven): all-bot casual games, a casual game with a scripted
human, ranked games between registered accounts (every seat a human: bot seats are not
ranked), and reviews. It then records what the old server serves (profiles, leaderboard,
the accounts' game lists, the games list, each finished game's verification and summary,
the reviews) into ``DIR/expected.json``, starts one more game and kills the server with
``kill -9`` while that game waits for its human's answer.

What a later server has, it finds through the API and plays too, so an upgrade must keep
it: the casual human asks for advice where its room says ``advice`` (0.2.0: the record's
``advice`` count); and where ``GET /api/tournaments`` answers (0.2.0: tournaments and fair
play), a ranked game whose fifth account is banned mid-game (``python -m server accounts
ban``: its history says ``"counted": false, "reason": "banned"``), a tournament played to its
end by two accounts and two bots with a penalty (its standings, export and state), and one
more left in its first round, killed by the same ``kill -9``. ``DIR`` gets the SQLite file as
the kill left it (its WAL checkpointed in: ``keep``), or a ``pg_dump`` plain SQL file of
the PostgreSQL database.

tests/server/storage/test_upgrade.py opens every fixture with today's server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))  # tests.services: the throwaway PostgreSQL

from tests.services import free_port, postgres_server  # noqa: E402

LOBBY = "tonpuu"
ENV = {
    "RIICHI_COMPILE": "0",
    "RIICHI_BOT_THINK_S": "0",
    "RIICHI_BOT_PACE_S": "0",
    "RIICHI_NEXT_ROUND_S": "20",
    "RIICHI_START_GRACE_S": "20",
    "RIICHI_SPECTATOR_DELAY_S": "0",
    "RIICHI_CHECKPOINT_S": "0.2",
    "RIICHI_RANKED_LOBBIES": json.dumps(
        [{"name": LOBBY, "preset": "tenhou-tonpuu", "base_s": 5, "bank_s": 10}]
    ),
    "RIICHI_LOGIN_ADDRESS_BURST": "100",
    "RIICHI_LOGIN_ADDRESS_PER_MIN": "600",
    "RIICHI_REVIEW_PER_MIN": "1000",
    "RIICHI_REPLAY_PER_MIN": "1000",  # a tournament's export spends it
    #: the node that holds the rooms of a PostgreSQL database (default: host name and port)
    "RIICHI_NODE_ID": "fixture",
}
NAMES = ["Aoi", "Ben", "Chie", "Daiki"]
#: the account banned in the middle of a ranked game (servers with fair play only)
BANNED = "Eiji"
PASSWORD = "correct horse battery"
#: answers the mid-play game's human gives before it stops answering (and the kill comes)
MID_ANSWERS = 12
#: answers the banned account gives itself before the ban (so its seat has played)
BAN_AFTER = 8
#: the casual human's own discards it asks advice on first (where its room offers advice)
ADVISED = 3
#: the tournaments' clock: the scripted entrants answer at once; an absent one waits
CLOCK = {"base_s": 60, "bank_s": 60}
PATIENCE_S = 600.0


def choose(inquiry: dict[str, Any], rng: random.Random) -> tuple[int, int]:
    """A player who takes every win and riichi, keeps tenpai when a discard allows it, skips
    most calls and otherwise discards at random: (action, option)."""
    kinds = [a["type"] for a in inquiry["actions"]]
    for wanted in ("tsumo", "ron", "riichi"):
        if wanted in kinds:
            return kinds.index(wanted), 0
    calls = [i for i, k in enumerate(kinds) if k in ("pon", "chii")]
    if calls and rng.random() < 0.2:
        return calls[0], 0
    if "discard" in kinds:
        i = kinds.index("discard")
        options = inquiry["actions"][i]["options"]
        ready = [n for n, o in enumerate(options) if o.get("tenpai")]
        return i, ready[0] if ready else rng.randrange(len(options))
    for fallback in ("skip", "next_round"):
        if fallback in kinds:
            return kinds.index(fallback), 0
    return inquiry["default"]["action"], inquiry["default"]["option"]


class OldServer:
    """``python3 -m server`` of the old tree on its own port and data dir."""

    def __init__(self, tree: Path, data: Path, database_url: str | None) -> None:
        self.tree, self.data = tree, data
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("RIICHI_")}
        env.update(ENV, PYTHONPATH=str(tree))
        if database_url:
            env["RIICHI_DATABASE_URL"] = database_url
        self.env = env
        self.log = (data.parent / "server.log").open("ab")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        args = [sys.executable, "-m", "server", "--port", str(self.port)]
        args += ["--data-dir", str(self.data)]
        self.proc = subprocess.Popen(
            args, cwd=self.tree, env=self.env, stdout=self.log, stderr=self.log
        )
        async with httpx.AsyncClient(base_url=self.base) as http:
            for _ in range(1200):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the old server exited with {self.proc.returncode}")
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.1)
        raise TimeoutError("the old server did not come up")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


class Seat:
    """One human seat over /ws/play: answers with ``choose`` until the game ends, or until
    ``stop_after`` answers (then it only listens, and the game waits for it)."""

    def __init__(
        self,
        server: OldServer,
        token: str,
        seed: int,
        stop_after: int | None = None,
        advise: int = 0,
    ) -> None:
        self.url = f"ws://127.0.0.1:{server.port}/ws/play"
        self.token = token
        self.rng = random.Random(seed)
        self.stop_after = stop_after
        self.answers = 0
        self.stopped = asyncio.Event()
        self.ended = False
        #: how many of its own discards it still asks advice on, and how many were advised
        self.advise = advise
        self.advised = 0

    async def play(self) -> None:
        while not self.ended:
            try:
                await self._session()
            except (OSError, websockets.WebSocketException, TimeoutError):
                await asyncio.sleep(0.2)

    async def _session(self) -> None:
        async with websockets.connect(self.url, max_size=2**22, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            async for text in ws:
                msg = json.loads(text)
                kind = msg.get("type")
                inquiry = msg.get("inquiry") if kind == "snapshot" else msg
                if kind == "end":
                    self.ended = True
                    return
                if kind in ("inquiry", "snapshot") and inquiry:
                    await self._answer(ws, inquiry)

    async def _answer(self, ws: Any, inquiry: dict[str, Any]) -> None:
        if self.stop_after is not None and self.answers >= self.stop_after:
            self.stopped.set()
            return
        if self.advise and any(a["type"] == "discard" for a in inquiry["actions"]):
            await self._ask_advice(ws, inquiry["id"])
        action, option = choose(inquiry, self.rng)
        await ws.send(
            json.dumps(
                {"type": "answer", "inquiry": inquiry["id"], "action": action, "option": option}
            )
        )
        self.answers += 1

    async def _ask_advice(self, ws: Any, inquiry: int) -> None:
        """Advice on the open discard, waited for (the game waits for this seat meanwhile)."""
        self.advise -= 1
        await ws.send(json.dumps({"type": "advice", "inquiry": inquiry}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg.get("type") == "advice" and msg.get("inquiry") == inquiry:
                self.advised += 1
                return
            if msg.get("type") == "error":
                raise RuntimeError(f"advice refused: {msg}")


async def _json(response: httpx.Response, *codes: int) -> Any:
    if response.status_code not in (codes or (200,)):
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    return response.json()


async def _until_finished(http: httpx.AsyncClient, game: str) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        got = await http.get(f"/api/games/{game}/record")
        if got.status_code == 200 and got.json().get("status") == "finished":
            return
        await asyncio.sleep(0.5)
    raise TimeoutError(f"game {game} did not finish")


async def bot_games(http: httpx.AsyncClient) -> list[str]:
    """Two all-bot casual games (a 4-player and a sanma tonpuusen), played to the end."""
    games = []
    for preset in ("tenhou-tonpuu", "tenhou-sanma-tonpuu"):
        players = 3 if "sanma" in preset else 4
        room = await _json(
            await http.post("/api/rooms", json={"preset": preset, "bots": players}), 200, 201
        )
        games.append(room["game"])
    for game in games:
        await _until_finished(http, game)
    return games


async def human_game(
    server: OldServer, http: httpx.AsyncClient, stop_after: int | None, advise: int = 0
) -> Any:
    """A casual tonpuusen of one scripted human and three bots: (game, the human's Seat).
    The human asks advice on ``advise`` discards where the room offers it (``advice``)."""
    body = {"name": "Guest", "preset": "tenhou-tonpuu", "bots": 3, "base_s": 60, "bank_s": 60}
    made = await _json(await http.post("/api/rooms", json=body), 200, 201)
    offered = bool(made["room"].get("advice"))
    seat = Seat(server, made["token"], seed=7, stop_after=stop_after, advise=advise * offered)
    return made["room"]["game"], seat


async def accounts(http: httpx.AsyncClient, names: list[str]) -> dict[str, str]:
    """Each name's bearer token, registered and logged in through the API."""
    tokens = {}
    for name in names:
        await _json(
            await http.post("/api/accounts", json={"name": name, "password": PASSWORD}), 201
        )
        login = await http.post("/api/session", json={"name": name, "password": PASSWORD})
        tokens[name] = (await _json(login))["token"]
        http.cookies.clear()
    return tokens


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _seated(http: httpx.AsyncClient, tokens: dict[str, str]) -> list[dict[str, Any]]:
    """The four accounts queued and seated by the queue at one ranked table: their grants
    (a later server draws its tables every ``ranked_draw_s``: asked until all are seated)."""
    for token in tokens.values():
        await _json(await http.post("/api/queue", json={"lobby": LOBBY}, headers=_bearer(token)))
    deadline = time.monotonic() + PATIENCE_S
    while True:
        grants = [
            await _json(await http.get("/api/queue", headers=_bearer(t))) for t in tokens.values()
        ]
        if all(g["state"] == "seated" for g in grants):
            assert len({g["game"] for g in grants}) == 1, grants
            return grants
        if time.monotonic() > deadline:
            raise TimeoutError(f"the queue never seated them: {grants}")
        await asyncio.sleep(0.3)


async def ranked_game(server: OldServer, http: httpx.AsyncClient, tokens: dict[str, str]) -> str:
    """The four accounts seated at one ranked table and played out."""
    grants = await _seated(http, tokens)
    seats = [Seat(server, g["token"], seed=n) for n, g in enumerate(grants)]
    await asyncio.wait_for(asyncio.gather(*(s.play() for s in seats)), PATIENCE_S)
    game = str(grants[0]["game"])
    await _until_finished(http, game)
    return game


def accounts_command(server: OldServer, *args: str) -> None:
    """``python -m server accounts ARGS`` of the old tree on its store (beside the server,
    as docs/protocol.md says an operator runs it)."""
    argv = [sys.executable, "-m", "server", "accounts", "--data-dir", str(server.data), *args]
    subprocess.run(argv, cwd=server.tree, env=server.env, check=True, capture_output=True)


async def banned_game(server: OldServer, http: httpx.AsyncClient, tokens: dict[str, str]) -> str:
    """A ranked game of three accounts and BANNED, banned by the operator once it has played
    BAN_AFTER decisions itself: the game counts for the others, not for it (its history
    keeps the game with ``"counted": false, "reason": "banned"``)."""
    grants = await _seated(http, tokens)
    seats = [
        Seat(server, g["token"], seed=10 + n, stop_after=BAN_AFTER if name == BANNED else None)
        for n, (name, g) in enumerate(zip(tokens, grants, strict=True))
    ]
    banned = seats[list(tokens).index(BANNED)]
    playing = {s: asyncio.ensure_future(s.play()) for s in seats}
    await asyncio.wait_for(banned.stopped.wait(), PATIENCE_S)
    await asyncio.to_thread(accounts_command, server, "ban", BANNED)
    playing.pop(banned).cancel()  # its token is dead: it would only knock on the door
    await asyncio.wait_for(asyncio.gather(*playing.values()), PATIENCE_S)
    game = str(grants[0]["game"])
    await _until_finished(http, game)
    return game


async def _has_tournaments(http: httpx.AsyncClient) -> bool:
    """Whether the old server has tournaments (and fair play, which came with them)."""
    got = await http.get("/api/tournaments")
    return got.status_code == 200 and "tournaments" in got.json()


async def _tournament(http: httpx.AsyncClient, tid: str) -> dict[str, Any]:
    found: dict[str, Any] = await _json(await http.get(f"/api/tournaments/{tid}"))
    return found


async def _round_over(http: httpx.AsyncClient, tid: str, round_: int) -> dict[str, Any]:
    """The tournament once every table of ``round_`` has finished."""
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        found = await _tournament(http, tid)
        if all(t["status"] == "finished" for t in found["tables"] if t["round"] == round_):
            return found
        await asyncio.sleep(0.3)
    raise TimeoutError(f"round {round_} of tournament {tid} did not finish")


async def _tournament_seat(http: httpx.AsyncClient, tid: str, token: str) -> dict[str, Any]:
    """The entrant's seat once its table of the round is seated."""
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        got = await _json(await http.get(f"/api/tournaments/{tid}/seat", headers=_bearer(token)))
        if got["state"] == "seated":
            return dict(got)
        await asyncio.sleep(0.2)
    raise TimeoutError(f"no seat in tournament {tid}")


async def new_tournament(
    http: httpx.AsyncClient, admin: str, entrants: list[str], **options: Any
) -> str:
    """A tournament made by the admin (token ``admin``), the ``entrants`` (tokens) entered."""
    body = {"preset": "tenhou-tonpuu", "fill": "bots", **CLOCK, **options}
    made = await _json(await http.post("/api/tournaments", json=body, headers=_bearer(admin)), 201)
    for token in entrants:
        entry = f"/api/tournaments/{made['id']}/entries"
        await _json(await http.post(entry, json={}, headers=_bearer(token)), 201)
    return str(made["id"])


async def start_round(
    server: OldServer, http: httpx.AsyncClient, tid: str, admin: str, entrants: list[str], **kw: Any
) -> list[Seat]:
    """The next round started by the admin; each entrant's Seat (not yet playing)."""
    started = await http.post(f"/api/tournaments/{tid}/rounds", json={}, headers=_bearer(admin))
    await _json(started, 201)
    seats = []
    for n, token in enumerate(entrants):
        got = await _tournament_seat(http, tid, token)
        seats.append(Seat(server, got["token"], seed=20 + n, **kw))
    return seats


async def cup(server: OldServer, http: httpx.AsyncClient, tokens: dict[str, str]) -> str:
    """A swiss tournament of two rounds with duplicate walls, Aoi (an admin) and Ben with two
    bots, played to its end, with a penalty given to Ben after round 1."""
    admin, entrants = tokens["Aoi"], [tokens["Aoi"], tokens["Ben"]]
    options = {"name": "Fixture cup", "rounds": 2, "seating": "swiss", "duplicate": True}
    tid = await new_tournament(http, admin, entrants, **options)
    for round_ in (1, 2):
        seats = await start_round(server, http, tid, admin, entrants)
        await asyncio.wait_for(asyncio.gather(*(s.play() for s in seats)), PATIENCE_S)
        await _round_over(http, tid, round_)
        if round_ == 1:
            penalty = {"name": "Ben", "points": 2.0, "reason": "late to the table"}
            path = f"/api/tournaments/{tid}/penalties"
            await _json(await http.post(path, json=penalty, headers=_bearer(admin)), 201)
    found = await _tournament(http, tid)
    assert found["state"] == "finished", found["state"]
    return tid


async def tournament_served(http: httpx.AsyncClient, tid: str) -> dict[str, Any]:
    """What the old server serves of a finished tournament: itself, its standings (JSON and
    CSV) and what its export holds."""
    found = await _tournament(http, tid)
    csv = await http.get(f"/api/tournaments/{tid}/standings.csv")
    export = await http.get(f"/api/tournaments/{tid}/export.zip")
    if csv.status_code != 200 or export.status_code != 200:
        raise RuntimeError(f"tournament {tid}: {csv.status_code} {export.status_code}")
    with zipfile.ZipFile(io.BytesIO(export.content)) as z:
        members = sorted(z.namelist())
    return {
        "tournament": found,
        "standings_json": await _json(await http.get(f"/api/tournaments/{tid}/standings.json")),
        "standings_csv": csv.text,
        "export": members,
    }


async def reviews(
    http: httpx.AsyncClient, asked: list[tuple[str, int, str | None]]
) -> dict[str, Any]:
    """Each (game, seat, bearer token or None) reviewed by the default engine, asked by the
    token's account (the seat's own: from 0.2.0 on its profile's match rate); the stored
    answers by key."""
    bots = await _json(await http.get("/api/bots"))
    engine = bots["default"]
    for game, seat, token in asked:
        body = {"seat": seat, "engine": engine}
        headers = {} if token is None else _bearer(token)
        posted = await http.post(f"/api/games/{game}/review", json=body, headers=headers)
        await _json(posted, 200, 202)
    done: dict[str, Any] = {}
    deadline = time.monotonic() + PATIENCE_S
    for game, seat, _ in asked:
        while True:
            params = {"seat": seat, "engine": engine}
            body = (await http.get(f"/api/games/{game}/review", params=params)).json()
            if body["status"] == "done":  # the report is large: its digest is kept
                done[f"{game}/{seat}/{engine}"] = {**body, "review": digest(body["review"])}
                break
            if body["status"] == "failed" or time.monotonic() > deadline:
                raise RuntimeError(f"review of {game} seat {seat}: {body}")
            await asyncio.sleep(0.5)
    return done


async def shortest(http: httpx.AsyncClient, games: list[str]) -> str:
    """The game of the fewest decisions (a review's report grows with them: the fixture
    stays small)."""
    sizes = {}
    for game in games:
        sizes[game] = len((await _json(await http.get(f"/api/games/{game}/record")))["decisions"])
    return min(games, key=sizes.__getitem__)


async def _stats_settled(http: httpx.AsyncClient, games: dict[str, int]) -> None:
    """Each account's profile counts its ``games`` in its stats (added after each end)."""
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        profiles = {n: (await http.get(f"/api/players/{n}")).json() for n in games}
        if all(
            p.get("lobbies") and p["lobbies"][0]["stats"]["games"] == games[n]
            for n, p in profiles.items()
        ):
            return
        await asyncio.sleep(0.3)
    raise TimeoutError("the ranked stats never settled")


def digest(value: Any) -> str:
    """sha256 of ``value``'s canonical JSON (tests/server/storage/test_upgrade.py: the same)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """What a finished game's record must still say after an upgrade (``advice``: where a
    record has it, from 0.2.0 on)."""
    keys = ("id", "preset", "seed", "seats", "status", "result", "commitment", "salt", "draw")
    return {
        **{k: record.get(k) for k in keys},
        "engine": record.get("engine"),
        "decisions": len(record["decisions"]),
        "rounds": len(record["rounds"]),
        **({"advice": record["advice"]} if "advice" in record else {}),
    }


async def served(http: httpx.AsyncClient, finished: list[str], names: list[str]) -> dict[str, Any]:
    """What the old server serves of everything kept: the fixture's expectations."""
    games: dict[str, Any] = {}
    for game in finished:
        record = await _json(await http.get(f"/api/games/{game}/record"))
        verify = await _json(await http.get(f"/api/games/{game}/verify"))
        games[game] = {"record": summary(record), "verify": verify}
    return {
        "games": games,
        "games_list": await _json(await http.get("/api/games", params={"limit": 100})),
        "profiles": {n: await _json(await http.get(f"/api/players/{n}")) for n in names},
        "player_games": {n: await _json(await http.get(f"/api/players/{n}/games")) for n in names},
        "leaderboard": await _json(await http.get("/api/leaderboard", params={"lobby": LOBBY})),
    }


async def play(tree: Path, out: Path, database_url: str | None) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="riichi-fixture-")) / "data"  # its log beside it
    data.mkdir()
    server = OldServer(tree, data, database_url)
    await server.start()
    try:
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            expected = await play_out(server, http)
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()
        server.log.close()
    if database_url is None:
        keep(data / "records.sqlite3", out / "records.sqlite3")
    shutil.rmtree(data.parent)  # kept, with the old server's log, when something failed
    return expected


async def play_out(server: OldServer, http: httpx.AsyncClient) -> dict[str, Any]:
    """Everything played, what the server serves recorded, and the kill: expected.json."""
    newer = await _has_tournaments(http)
    finished = await bot_games(http)
    human, seat = await human_game(server, http, None, advise=ADVISED)
    await asyncio.wait_for(seat.play(), PATIENCE_S)
    await _until_finished(http, human)
    finished.append(human)
    record = await _json(await http.get(f"/api/games/{human}/record"))
    assert record.get("advice", 0) == seat.advised, (record.get("advice"), seat.advised)
    names = NAMES + [BANNED] * newer
    tokens = await accounts(http, names)
    four = {n: tokens[n] for n in NAMES}
    ranked = [await ranked_game(server, http, four)]
    if newer:  # the second ranked game is the one with the ban (the fixture stays small)
        ban = {n: tokens[n] for n in (*NAMES[:3], BANNED)}
        ranked.append(await banned_game(server, http, ban))
        games = {**dict.fromkeys(NAMES[:3], 2), NAMES[3]: 1}
    else:
        ranked.append(await ranked_game(server, http, four))
        games = dict.fromkeys(NAMES, 2)
    finished += ranked
    await _stats_settled(http, games)
    cups = []
    if newer:
        await asyncio.to_thread(accounts_command, server, "admin", "Aoi")
        cups.append(await cup(server, http, tokens))
        finished += [t["game"] for t in (await _tournament(http, cups[0]))["tables"]]
    guest = record["seats"]
    if newer:  # one review, asked by the seat's own account: its profile's match rate
        sat = (await _json(await http.get(f"/api/games/{ranked[0]}/record")))["seats"][1]
        asked: list[tuple[str, int, str | None]] = [(ranked[0], 1, tokens[sat])]
    else:
        asked = [(await shortest(http, ranked), 1, None), (human, guest.index("Guest"), None)]
    kept = await reviews(http, asked)
    expected = await served(http, finished, names)
    expected["reviews"] = kept
    stopped = []
    if newer:
        expected["tournaments"] = {tid: await tournament_served(http, tid) for tid in cups}
        options = {"name": "Fixture open", "rounds": 2, "seating": "balanced", "duplicate": False}
        tid = await new_tournament(http, tokens["Aoi"], [tokens["Chie"]], **options)
        stopped = await start_round(
            server, http, tid, tokens["Aoi"], [tokens["Chie"]], stop_after=MID_ANSWERS
        )
    mid, seat = await human_game(server, http, MID_ANSWERS)
    stopped.append(seat)
    players = [asyncio.ensure_future(s.play()) for s in stopped]
    await asyncio.wait_for(asyncio.gather(*(s.stopped.wait() for s in stopped)), PATIENCE_S)
    if newer:  # the tournament cut off in its first round: as it stood, and Chie's seat
        seat_of = await http.get(f"/api/tournaments/{tid}/seat", headers=_bearer(tokens["Chie"]))
        expected["tournaments_mid"] = {
            tid: {
                "tournament": await _tournament(http, tid),
                "seats": {"Chie": await _json(seat_of)},
                "password": PASSWORD,
            }
        }
        expected["listing"] = await _json(await http.get("/api/tournaments"))
    await asyncio.sleep(1.0)  # the bots' answers after the human's last one are stored
    server.kill()
    for player in players:
        player.cancel()
    expected["mid_play"] = {"game": mid, "answers": seat.answers}
    return expected


def keep(db: Path, to: Path) -> None:
    """The database as the kill left it, its WAL checkpointed into the file by SQLite itself
    (what any next open does first): the same rows in one file, without the megabytes of
    WAL frames the game's commits had already copied (the file stays in WAL mode)."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy2(db, to)


def main() -> int:
    parser = argparse.ArgumentParser(prog="scripts/make_fixture_db.py")
    parser.add_argument("--tree", required=True, type=Path, help="the old commit's source tree")
    parser.add_argument("--out", required=True, type=Path, help="the fixture's directory")
    parser.add_argument("--commit", required=True, help="the commit the tree is")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL")
    args = parser.parse_args()
    out: Path = args.out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    if not args.postgres:
        expected = asyncio.run(play(args.tree, out, None))
    else:
        with postgres_server() as url:
            expected = asyncio.run(play(args.tree, out, url))
            dump = [_pg_dump(), "--no-owner", "--no-privileges", "--dbname", url]
            with (out / "records.sql").open("wb") as sql:
                subprocess.run(dump, check=True, stdout=sql)
    header = {
        "commit": args.commit,
        "database": "postgresql" if args.postgres else "sqlite",
        "ranked_lobbies": ENV["RIICHI_RANKED_LOBBIES"],  # today's server needs the same
        "node_id": ENV["RIICHI_NODE_ID"],
    }
    text = json.dumps({**header, **expected}, indent=1, sort_keys=True)
    (out / "expected.json").write_text(text + "\n")
    return 0


def _pg_dump() -> str:
    """The pg_dump of the PostgreSQL that tests/services.py runs (a matching major version)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_dump"))
    return str(found[-1]) if found else "pg_dump"


if __name__ == "__main__":
    sys.exit(main())
