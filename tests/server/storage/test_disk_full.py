"""A full disk under a real ``python -m server`` mid-game: the table is suspended (never
``error``), its player is told to reconnect, /healthz answers 503 with the reason and a new
room a clear 503; once space is back the game goes on by itself, with no restart, to an end
that verifies (issue 31, finding 4).

The data dir is a small tmpfs filled to the last byte (root, as on this machine and in CI);
where no tmpfs can be mounted (not root, or a container without the right) the server's
file-size limit is lowered to the files' sizes (``prlimit``), so any write that grows a file
fails with EFBIG, a deliberate write failure of the same kind."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from server.edge.messaging import EventMsg, ServerMessage
from server.edge.security import HEADERS
from tests.server.live import live_server
from tests.server.procs import Player, ServerProcess

#: tmpfs size: room for the database and some WAL, nothing to spare
TMPFS = "8m"


class DiskFull:
    """Fills (``fill``) and frees (``free``) the server's data dir."""

    def __init__(self, data: Path, server: ServerProcess, tmpfs: bool) -> None:
        self.data = data
        self.server = server
        self.tmpfs = tmpfs
        self.filler = data / "filler"
        self.full = False

    def fill(self) -> None:
        self.full = True
        if not self.tmpfs:  # no tmpfs: no file of the server's may grow any more
            largest = max(p.stat().st_size for p in self.data.iterdir() if p.is_file())
            assert self.server.proc is not None
            _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.prlimit(self.server.proc.pid, resource.RLIMIT_FSIZE, (largest, hard))
            return
        with self.filler.open("wb") as out, contextlib.suppress(OSError):
            while True:
                out.write(b"\0" * 65536)
                out.flush()

    def free(self) -> None:
        self.full = False
        if not self.tmpfs:
            assert self.server.proc is not None
            limits = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.prlimit(self.server.proc.pid, resource.RLIMIT_FSIZE, limits)
            return
        self.filler.unlink()


@contextlib.contextmanager
def small_disk(tmp_path: Path) -> Iterator[tuple[Path, bool]]:
    """(data dir, whether it is a tmpfs of ``TMPFS``): one when it can be mounted, else a
    plain directory (see ``DiskFull``)."""
    data = tmp_path / "data"
    data.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", f"size={TMPFS}", "tmpfs", str(data)]
    if os.geteuid() != 0 or subprocess.run(mount, capture_output=True).returncode != 0:
        yield data, False
        return
    try:
        yield data, True
    finally:
        subprocess.run(["umount", "-l", str(data)], check=False)


async def _until(check: object, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_full_disk_suspends_the_game_which_goes_on_when_space_is_back(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path) as (data, tmpfs):
        server = ServerProcess(tmp_path)
        server.data_dir = data  # the log stays outside the small disk
        disk = DiskFull(data, server, tmpfs)
        events = [0]

        def fill_once(player: Player, msg: ServerMessage) -> bool:
            if isinstance(msg, EventMsg):
                events[0] += 1
                if events[0] == 60 and not disk.full:
                    disk.fill()
            return False

        await server.start()
        try:
            async with httpx.AsyncClient(base_url=f"http://{server.host}", timeout=10) as h:
                wait = {"preset": "tenhou-tonpuu", "bots": 1, "name": "host"}
                other = (await h.post("/api/rooms", json=wait)).json()["room"]["code"]
                body = {"preset": "tenhou-tonpuu", "bots": 3, "name": "me"}
                grant = (await h.post("/api/rooms", json=body)).json()
                game, code = grant["room"]["game"], grant["room"]["code"]
                player = Player(server.host, grant["token"], 3, fill_once)
                playing = asyncio.create_task(player.play())

                async def unhealthy() -> bool:
                    return (await h.get("/healthz")).status_code == 503

                await _until(unhealthy, "the write to fail")
                health = (await h.get("/healthz")).json()
                assert health["ok"] is False and "cannot be written" in health["reason"]
                room = (await h.get(f"/api/rooms/{code}")).json()
                assert room["status"] == "suspended"
                refused = await h.post("/api/rooms", json={**body, "name": "late"})
                assert refused.status_code == 503 and refused.json()["code"] == "storage"
                for name, value in HEADERS:
                    assert refused.headers[name.decode()] == value.decode()
                # a small write may still fit in the WAL: a seat is given exactly when stored
                joining = await h.post(f"/api/rooms/{other}/join", json={"name": "ghost"})
                assert joining.status_code in (200, 503)
                await asyncio.sleep(1.0)  # a while on a full disk: nothing ends the game
                assert (await h.get(f"/api/rooms/{code}")).json()["status"] == "suspended"
                disk.free()

                async def healthy() -> bool:
                    return (await h.get("/healthz")).status_code == 200

                await _until(healthy, "the store to write again")
                seats = (await h.get(f"/api/rooms/{other}")).json()["seats"]
                ghosts = [s["name"] for s in seats if s["name"] == "ghost"]
                assert len(ghosts) == (joining.status_code == 200)
                again = await h.post(f"/api/rooms/{other}/join", json={"name": "guest"})
                assert again.status_code == 200, again.text
                await asyncio.wait_for(playing, 300)
                verdict = (await h.get(f"/api/games/{game}/verify")).json()
                record = (await h.get(f"/api/games/{game}/record")).json()
        finally:
            server.stop()
        assert 1012 in player.closes  # told to reconnect, as at a stop
        assert player.ended and record["status"] == "finished"
        assert verdict["commitment_ok"] and verdict["replay_ok"], verdict
        log = (tmp_path / "server.log").read_text()
        assert "Traceback" not in log, log[-3000:]


async def test_a_room_or_seat_the_store_refuses_is_not_handed_out(tmp_path: Path) -> None:
    """A read-only store (SQLite's ``query_only``: every write refused): a new room and a
    join answer 503 and leave nothing behind (no ghost seat, no room kept only in memory);
    once the store writes again both work."""
    async with (
        live_server(tmp_path) as (host, hub),
        httpx.AsyncClient(base_url=f"http://{host}") as h,
    ):
        waiting = (await h.post("/api/rooms", json={"bots": 1, "name": "host"})).json()
        code = waiting["room"]["code"]
        rooms_before = set(hub.rooms.by_code)
        db = hub.storage._db  # type: ignore[attr-defined]
        db.execute("PRAGMA query_only = 1")
        joining = await h.post(f"/api/rooms/{code}/join", json={"name": "ghost"})
        creating = await h.post("/api/rooms", json={"bots": 3, "name": "new"})
        health = await h.get("/healthz")
        seats = (await h.get(f"/api/rooms/{code}")).json()["seats"]
        assert joining.status_code == 503 and joining.json()["code"] == "storage"
        assert creating.status_code == 503 and set(hub.rooms.by_code) == rooms_before
        assert health.status_code == 503 and "readonly" in health.json()["reason"]
        assert [s["name"] for s in seats if s["name"] == "ghost"] == []
        db.execute("PRAGMA query_only = 0")

        async def healthy() -> bool:
            return (await h.get("/healthz")).status_code == 200

        await _until(healthy, "the store to write again", 10)
        joined = await h.post(f"/api/rooms/{code}/join", json={"name": "guest"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
