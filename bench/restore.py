"""A start's restore of N stored games: all at once against paced (server/session/resume.py).

N all-bot tonpuusen are played ``--decisions`` decisions each into one SQLite file, the hub
stops (the games are stored suspended), and the same file is restored twice, each by a new
hub: ``restore`` (every game in one go, as before 2026-12-07) and ``restore_paced`` (a game
at a time in a worker thread, a rest after every batch). For each: the wall time, the
process's CPU over it (its share of one core is what a node beside it on that core loses),
and the event loop's longest stall (a task that only sleeps 0 s, timed). The last line is

    restore: N games, all at once S s (CPU C %, stall X ms), paced S s (CPU C %, stall X ms)

    python -m bench.restore [--games 200] [--decisions 60]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.session import resume  # noqa: E402
from server.session.engine_port import RealEngine  # noqa: E402
from server.session.hub import Hub  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.storage.sqlite import Storage  # noqa: E402


async def _store(path: Path, games: int, decisions: int) -> None:
    hub = Hub(Settings(bot_pace_s=0.005, bot_think_s=0.0), Storage(path), RealEngine())
    async with anyio.create_task_group() as tg:
        hub.bind(tg)
        rooms = [
            hub.create(preset="tenhou-tonpuu", bots=4, base_s=5, bank_s=10) for _ in range(games)
        ]
        for room in rooms:
            hub.start(room)
        while min(len(hub.storage.trails(r.game)) for r in rooms) < decisions:
            await anyio.sleep(0.05)
        hub.stop()
        tg.cancel_scope.cancel()
    hub.storage.close()


async def _restore(path: Path, paced: bool) -> tuple[float, float, float, int]:
    """(wall s, CPU s, the loop's longest stall s, games back)."""
    hub = Hub(Settings(bot_pace_s=60.0, bot_think_s=0.0), Storage(path), RealEngine())
    stall = [0.0]

    async def tick() -> None:
        while True:
            before = time.perf_counter()
            await anyio.sleep(0)
            stall[0] = max(stall[0], time.perf_counter() - before)

    async with anyio.create_task_group() as tg:
        hub.bind(tg, restore=False)
        tg.start_soon(tick)
        await anyio.sleep(0.01)
        wall, cpu = time.perf_counter(), time.process_time()
        if paced:
            done = await resume.restore_paced(hub)
        else:
            done = resume.restore(hub)
            await anyio.sleep(0)  # the tables' catch-up runs in their tasks: part of it
            while not all(t.caught_up.is_set() for t in hub.tables.values()):
                await anyio.sleep(0.001)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        tg.cancel_scope.cancel()
    hub.storage.close()
    return wall, cpu, stall[0], done.games


def _said(what: str, wall: float, cpu: float, stall: float) -> str:
    return f"{what} {wall:.1f} s (CPU {100 * cpu / wall:.0f} %, stall {stall * 1000:.0f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=60)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="riichi-restore-"))
    try:
        stored = folder / "stored.sqlite3"
        asyncio.run(_store(stored, args.games, args.decisions))
        figures = []
        for paced in (False, True):
            copy = folder / f"copy{int(paced)}.sqlite3"
            shutil.copy(stored, copy)
            wall, cpu, stall, back = asyncio.run(_restore(copy, paced))
            if back != args.games:
                raise SystemExit(f"only {back} of {args.games} games came back (paced: {paced})")
            figures.append((wall, cpu, stall))
        print(
            f"restore: {args.games} games, {_said('all at once', *figures[0])}, "
            f"{_said('paced', *figures[1])}"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
