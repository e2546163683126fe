"""The server (``python -m server``) with tracemalloc on, for bench/memory.py.

The first ``SIGUSR1`` starts tracing (what the server holds from before is not traced, so
a later snapshot is the growth since); each writes ``RIICHI_MEMORY_DUMP`` + ``.N.types`` (N
counts from 0): the live objects the collector tracks, counted by type (one ``type count
bytes`` line each, ``sys.getsizeof`` shallow sizes), and the later ones a snapshot of the
traced heap to ``.N``. The handler runs on the main thread between bytecodes, so the loop is
stopped while it writes: the bench sends it only between phases.
"""

from __future__ import annotations

import collections
import gc
import os
import signal
import sys
import tracemalloc
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
#: frames kept per allocation: enough to find the project's frame under a library's
FRAMES = 16


def census() -> str:
    """Live tracked objects by type: ``name count bytes`` lines, largest first."""
    count: collections.Counter[str] = collections.Counter()
    size: collections.Counter[str] = collections.Counter()
    for obj in gc.get_objects():
        kind = type(obj)
        name = f"{kind.__module__}.{kind.__qualname__}"
        count[name] += 1
        size[name] += sys.getsizeof(obj)
    return "".join(f"{name} {count[name]} {n}\n" for name, n in size.most_common())


def dump(signum: int, frame: FrameType | None) -> None:
    base = os.environ["RIICHI_MEMORY_DUMP"]
    n = len(list(Path(base).parent.glob(Path(base).name + ".*.done")))
    if tracemalloc.is_tracing():
        tracemalloc.take_snapshot().dump(f"{base}.{n}")
    else:
        tracemalloc.start(FRAMES)
    Path(f"{base}.{n}.types").write_text(census())
    # written whole, then named: the bench reads it as soon as the name exists
    Path(f"{base}.{n}.part").write_text(str(tracemalloc.get_tracemalloc_memory()))
    os.replace(f"{base}.{n}.part", f"{base}.{n}.done")


def main() -> None:
    signal.signal(signal.SIGUSR1, dump)
    from server.__main__ import main as serve

    serve()


if __name__ == "__main__":
    main()
