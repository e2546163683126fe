"""Record writes: a synchronous SQLite insert per decision beside the same insert through
``anyio.to_thread`` (and a bare thread hop), measured in the same run; medians of 5 runs;
and the synchronous insert with ``synchronous=FULL`` (an fsync per commit: RIICHI_SYNCHRONOUS).

    python bench/storage.py [--writes 2000]

server/storage/sqlite.py writes synchronously because the first figure is the smaller one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.storage.sqlite import Storage


async def _timed(n: int, step: Callable[[int], Awaitable[None]]) -> float:
    started = time.perf_counter()
    for i in range(n):
        await step(i)
    return (time.perf_counter() - started) / n * 1e6


async def run(writes: int) -> None:
    storage = Storage(Path(tempfile.mkdtemp(prefix="riichi-bench-")) / "records.sqlite3")
    results: dict[str, list[float]] = {"sync": [], "to_thread": [], "hop": []}
    for rep in range(5):
        game = f"g{rep}"
        storage.create_game(game, "room", "tenhou-hanchan", 1, b"{}", ["a", "b", "c", "d"])

        async def sync(i: int, game: str = game) -> None:
            storage.add_decision(game, i, 0, 0, 0, False)

        async def threaded(i: int, game: str = game) -> None:
            await anyio.to_thread.run_sync(storage.add_decision, game, i, 0, 0, 0, False)

        async def hop(i: int) -> None:
            await anyio.to_thread.run_sync(int)

        results["sync"].append(await _timed(writes, sync))
        results["to_thread"].append(await _timed(writes, threaded))
        results["hop"].append(await _timed(writes, hop))
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"bare thread hop: {med['hop']:.0f} us")
    print(f"insert via anyio.to_thread: {med['to_thread']:.0f} us")
    print(f"insert synchronous (WAL, synchronous=NORMAL): {med['sync']:.0f} us")
    print(
        f"storage: sync write {med['sync']:.0f} us, {med['to_thread'] / med['sync']:.1f}x cheaper"
    )
    full = Storage(Path(tempfile.mkdtemp(prefix="riichi-bench-")) / "records.sqlite3", "FULL")
    full.create_game("f", "room", "tenhou-hanchan", 1, b"{}", ["a", "b", "c", "d"])

    async def fsynced(i: int) -> None:
        full.add_decision("f", i, 0, 0, 0, False)

    # fsync per commit is slow: a tenth of the writes is enough for a median
    print(
        f"insert synchronous (WAL, synchronous=FULL): {await _timed(writes // 10, fsynced):.0f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=2000)
    anyio.run(run, parser.parse_args().writes)


if __name__ == "__main__":
    main()
