"""Two ``python -m server`` nodes sharing one real redis-server (docs/scaling.md): a room made
on node A is joined, listed and watched through node B; rate limits are one budget across
both; a node killed with SIGKILL comes back with its games and its directory entries."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import websockets

from server.edge.codec import encode
from server.edge.messaging import (
    End,
    EventMsg,
    Hello,
    InquiryMsg,
    ServerMessage,
    Snapshot,
    Welcome,
    decode_server,
)
from tests import system
from tests.server.live import GENEROUS_ENV
from tests.server.procs import Player, ServerProcess, Watcher
from tests.services import redis_server

NODE_ENV = {**GENEROUS_ENV, "RIICHI_LOBBY_TTL_S": "0"}


@pytest.fixture
def redis_url() -> Iterator[str]:
    system.redis()
    with redis_server() as url:
        yield url


@contextlib.asynccontextmanager
async def nodes(tmp: Path, url: str, **env: str) -> AsyncIterator[tuple[ServerProcess, ...]]:
    """Nodes "a" and "b" on one Redis, each with its own data dir."""
    pair = []
    for name in ("a", "b"):
        (tmp / name).mkdir()
        node_env = {**NODE_ENV, "RIICHI_REDIS_URL": url, "RIICHI_NODE_ID": name, **env}
        pair.append(ServerProcess(tmp / name, **node_env))
    try:
        for node in pair:
            await node.start()
        yield tuple(pair)
    finally:
        for node in pair:
            node.stop()


async def api(node: ServerProcess, method: str, path: str, **kw: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=f"http://{node.host}", timeout=10) as http:
        return await http.request(method, path, **kw)


async def lobby_codes(node: ServerProcess) -> set[str]:
    return {r["code"] for r in (await api(node, "GET", "/api/rooms")).json()["rooms"]}


async def eventually(check: Any, seconds: float = 15.0) -> None:
    """Wait until the async ``check()`` is true (directory writes land within a second)."""
    for _ in range(int(seconds / 0.1)):
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"never true: {check.__name__}")


async def test_a_room_made_on_a_is_joined_through_b_and_played_on_a(
    tmp_path: Path, redis_url: str
) -> None:
    async with nodes(tmp_path, redis_url) as (a, b):
        made = (await api(a, "POST", "/api/rooms", json={"name": "Ann", "bots": 2})).json()
        code = made["room"]["code"]
        assert made["room"]["node"] == f"http://{a.host}"
        seen = (await api(b, "GET", f"/api/rooms/{code}")).json()
        assert seen["node"] == f"http://{a.host}" and seen["status"] == "waiting"
        joined = await api(b, "POST", f"/api/rooms/{code}/join", json={"name": "Bo"})
        grant = joined.json()
        assert joined.status_code == 200, grant
        draw = grant["room"]["draw"]  # Bo's place 1 filled the room: the seats are drawn
        assert grant["room"]["node"] == f"http://{a.host}" and grant["seat"] == draw[1]
        # the token B handed out opens Bo's drawn seat on A, where the room is
        async with websockets.connect(f"ws://{a.host}/ws/play") as ws:
            await ws.send(encode(Hello(grant["token"])))
            welcome = decode_server(await ws.recv())
            assert isinstance(welcome, Welcome) and welcome.seat == draw[1]
        # it was never written to Redis: only its hash crossed to A
        store = redis.Redis.from_url(redis_url)
        dumped = b"".join(
            str(store.dump(key)).encode() for key in store.scan_iter() if store.type(key)
        )
        assert grant["token"].encode() not in dumped
        # owner-only actions go to the owner's node: B names it
        start = await api(b, "POST", f"/api/rooms/{code}/start", json={"token": made["token"]})
        assert start.status_code == 421 and a.host in start.json()["message"]
        # a full room is refused through B as on A
        await api(a, "POST", f"/api/rooms/{code}/join", json={"name": "Cy"})
        full = await api(b, "POST", f"/api/rooms/{code}/join", json={"name": "Di"})
        assert full.status_code == 409 and full.json()["code"] in ("room_full", "started")


async def test_the_lobby_on_either_node_lists_the_rooms_of_both(
    tmp_path: Path, redis_url: str
) -> None:
    async with nodes(tmp_path, redis_url) as (a, b):
        on_a = (await api(a, "POST", "/api/rooms", json={"bots": 3})).json()["room"]["code"]
        on_b = (await api(b, "POST", "/api/rooms", json={"bots": 3})).json()["room"]["code"]
        hidden = await api(a, "POST", "/api/rooms", json={"bots": 3, "public": False})
        for node in (a, b):
            assert await lobby_codes(node) == {on_a, on_b}
        rooms = (await api(b, "GET", "/api/rooms")).json()["rooms"]
        assert {r["code"]: r["node"] for r in rooms} == {
            on_a: f"http://{a.host}",
            on_b: f"http://{b.host}",
        }
        assert hidden.json()["room"]["code"] not in await lobby_codes(b)


async def _collect(url: str, greeted: asyncio.Event | None = None) -> list[Any]:
    """Every message a spectator gets until the end (``greeted`` is set at the first)."""
    got: list[Any] = []
    async with websockets.connect(url, max_size=2**22) as ws:
        async for text in ws:
            got.append(decode_server(text))
            if greeted is not None:
                greeted.set()
            if isinstance(got[-1], End):
                break
    return got


def _events(messages: list[Any]) -> dict[int, bytes]:
    return {m.seq: bytes(m.event) for m in messages if isinstance(m, EventMsg)}


async def test_a_spectator_on_b_sees_a_game_on_a_as_a_spectator_on_a_does(
    tmp_path: Path, redis_url: str
) -> None:
    async with nodes(tmp_path, redis_url) as (a, b):
        made = (await api(a, "POST", "/api/rooms", json={"name": "Ann", "bots": 3})).json()
        game = made["room"]["game"]
        # both spectators are greeted while the table waits for its human, so a game that
        # plays fast on a loaded machine cannot end before the relayed one is watching
        greeted = [asyncio.Event(), asyncio.Event()]
        code = made["room"]["code"]

        async def listed_on_b() -> bool:  # A's directory names the running game
            status: str = (await api(b, "GET", f"/api/rooms/{code}")).json()["status"]
            return status == "playing"

        await eventually(listed_on_b)
        here = asyncio.create_task(_collect(f"ws://{a.host}/ws/watch/{game}", greeted[0]))
        there = asyncio.create_task(_collect(f"ws://{b.host}/ws/watch/{game}", greeted[1]))
        await asyncio.wait_for(asyncio.gather(*(g.wait() for g in greeted)), 30)
        player = Player(a.host, made["token"], seed=7)
        playing = asyncio.create_task(player.play())
        local, relayed = await asyncio.wait_for(asyncio.gather(here, there), 120)
        await asyncio.wait_for(playing, 30)
    assert isinstance(relayed[0], Welcome) and isinstance(relayed[1], Snapshot)
    assert isinstance(relayed[-1], End) and relayed[-1].seed is not None
    mine, theirs = _events(local), _events(relayed)
    assert len(theirs) > 50
    # every relayed event is the one local spectators got: the public view, nothing more
    assert all(mine[seq] == text for seq, text in theirs.items() if seq in mine)
    assert max(theirs) == max(mine)
    # and each hand's reveal (its concealed tiles, once it ended) came the same way
    reveals = [encode(m) for m in relayed[2:] if isinstance(m, Snapshot)]
    assert len(reveals) > 1
    assert reveals == [encode(m) for m in local[2:] if isinstance(m, Snapshot)][-len(reveals) :]


async def test_rate_limits_are_one_budget_across_nodes(tmp_path: Path, redis_url: str) -> None:
    # 20 lookups at once (the burst), then one a minute: on both nodes together
    async with nodes(tmp_path, redis_url, RIICHI_LOOKUP_PER_MIN="1") as (a, b):
        codes = []
        for node in (a, b) * 10:
            codes.append((await api(node, "GET", "/api/rooms/NOSUCH")).status_code)
        assert codes == [404] * 20
        for node in (a, b):
            refused = await api(node, "GET", "/api/rooms/NOSUCH")
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1


class Holder:
    """A player's hook that leaves its first inquiry after ``events`` events unanswered (the
    game waits on it, within the seat's clock), so a kill then lands mid-game, never after
    the end of a game that a fast player and bots play in seconds."""

    def __init__(self, events: int) -> None:
        self.events = events
        self.holding = asyncio.Event()

    def hook(self, player: Player, msg: ServerMessage) -> bool:
        held = isinstance(msg, InquiryMsg) and player.events > self.events
        if held and not self.holding.is_set():
            self.holding.set()
            return True
        return False


async def test_a_node_killed_and_restarted_resumes_its_games_and_relists_them(
    tmp_path: Path, redis_url: str
) -> None:
    async with nodes(tmp_path, redis_url) as (a, b):
        waiting = (await api(a, "POST", "/api/rooms", json={"name": "W", "bots": 2})).json()
        made = (await api(a, "POST", "/api/rooms", json={"name": "Ann", "bots": 3})).json()
        game, codes = made["room"]["game"], {waiting["room"]["code"], made["room"]["code"]}
        holder = Holder(events=20)
        player = Player(a.host, made["token"], seed=11, hook=holder.hook)
        watcher = Watcher(b.host, game)
        tasks = [asyncio.create_task(player.play()), asyncio.create_task(watcher.play())]
        await asyncio.wait_for(holder.holding.wait(), 30)
        await eventually(lambda: asyncio.sleep(0, watcher.snapshots > 0))  # watching on B
        a.kill()  # the game waits on the player's inquiry: it is in play, not over

        async def gone() -> bool:
            return not codes & await lobby_codes(b)

        await eventually(gone)  # A's entries expired with its heartbeat
        await a.start()

        async def back() -> bool:  # the restarted node wrote its restored rooms again
            return codes <= await lobby_codes(b)

        await eventually(back)
        room = (await api(b, "GET", f"/api/rooms/{made['room']['code']}")).json()
        assert room["status"] == "playing" and room["node"] == f"http://{a.host}"
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert player.ended and watcher.ended and player.welcomes >= 2  # its snapshot after
    assert watcher.sessions >= 2 and 1012 in watcher.closes  # told to come back, and did
    assert watcher.gaps == []  # each session's stream whole: nothing repeated or skipped
    assert a.stored(game)[0] == "finished"


async def test_a_node_plays_its_games_on_when_redis_goes_away(
    tmp_path: Path, redis_url: str
) -> None:
    async with nodes(tmp_path, redis_url) as (a, _b):
        body = {"name": "Ann", "bots": 3, "preset": "tenhou-tonpuu"}
        made = (await api(a, "POST", "/api/rooms", json=body)).json()
        player = Player(a.host, made["token"], seed=3)
        playing = asyncio.create_task(player.play())
        await eventually(lambda: asyncio.sleep(0, player.events > 20))
        redis.Redis.from_url(redis_url).shutdown(nosave=True)
        await asyncio.wait_for(playing, 120)  # nothing of a game is in Redis
        assert player.ended and player.welcomes == 1  # never dropped
        assert (await api(a, "GET", "/healthz")).status_code == 200
        assert a.proc is not None and a.proc.poll() is None


async def test_more_spectators_relayed_by_b_than_a_redis_pool_holds_by_default(
    tmp_path: Path, redis_url: str
) -> None:
    """150 spectators on B of one game of A are all greeted (when each held a Redis
    connection of its own, redis-py's default pool of 100 failed the 101st with
    MaxConnectionsError), and they share B's one subscription: Redis has a few clients,
    not one per spectator."""
    async with nodes(tmp_path, redis_url) as (a, b):
        body = {"name": "Ann", "bots": 3, "preset": "tenhou-tonpuu"}
        made = (await api(a, "POST", "/api/rooms", json=body)).json()
        game, code = made["room"]["game"], made["room"]["code"]

        async def listed_on_b() -> bool:
            status: str = (await api(b, "GET", f"/api/rooms/{code}")).json()["status"]
            return status == "playing"

        await eventually(listed_on_b)
        stack = contextlib.AsyncExitStack()
        async with stack:
            greeted = 0
            for _ in range(150):  # the table waits for its human: nothing ends meanwhile
                ws = await stack.enter_async_context(
                    websockets.connect(f"ws://{b.host}/ws/watch/{game}", open_timeout=10)
                )
                first = decode_server(await asyncio.wait_for(ws.recv(), 10))
                second = decode_server(await asyncio.wait_for(ws.recv(), 10))
                greeted += isinstance(first, Welcome) and isinstance(second, Snapshot)
            clients = len(redis.Redis.from_url(redis_url).client_list())
    assert greeted == 150
    assert clients < 30, f"{clients} Redis clients for 150 relayed spectators"


async def test_an_owner_that_never_answers_is_down_to_the_asker(redis_url: str) -> None:
    """A request its owner does not answer in time is None (the join says node_down), not
    redis-py's read time-out (a 500 from the join that asked, under bench.cluster's load)."""
    from redis.asyncio import Redis

    from server.cluster import rpc

    client = Redis.from_url(redis_url, decode_responses=True)
    async with client, client.pubsub() as listener:
        await listener.subscribe(rpc.channel("mute"))  # up, and never answers
        assert await rpc.call(client, "mute", {"op": "join"}) is None
