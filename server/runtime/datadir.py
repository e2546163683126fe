"""One data dir, one server: an exclusive lock on ``server.lock`` in the data dir.

Two servers on one SQLite data dir both restore the same unfinished games and both write
their decisions: the second one's insert of decision n fails on the first's, the game ends
in error and its record no longer replays. So the server takes this lock before it writes or
restores anything, and holds it for the life of the process (the kernel lets go of it when
the process ends, even under ``kill -9``: no stale lock to clean up). A second server finds
it taken, reads the holder's PID from the file and stops without writing anything.

``flock`` (not ``lockf``): a lock of the open file, so a second open of the same file in the
same process (``restore``, a test) is refused too, and closing another descriptor of the file
does not drop it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from server.runtime.process import refuse_in_worker

#: the lock file's name in the data dir; it holds the holder's PID
LOCK_NAME = "server.lock"


class DataDirHeld(Exception):
    """Another process holds the data dir; ``pid`` is what its lock file says (None: unknown)."""

    def __init__(self, data_dir: Path, pid: int | None) -> None:
        self.data_dir = data_dir
        self.pid = pid
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(f"{data_dir} is in use by {holder} (it holds {data_dir / LOCK_NAME})")


class DataDirLock:
    """The held lock: an open descriptor of the lock file. ``release`` (or the process's
    end) lets the next server have the data dir."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def __enter__(self) -> DataDirLock:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def lock_path(data_dir: str | Path) -> Path:
    return Path(data_dir) / LOCK_NAME


def acquire(data_dir: str | Path) -> DataDirLock:
    """Take the data dir (created if missing) for this process, or raise DataDirHeld. An
    unwritable data dir raises OSError. Nothing in the data dir changes when it is held: the
    lock file is opened, never truncated, until the lock is ours."""
    refuse_in_worker("taking the data dir")
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _pid(fd)
        os.close(fd)
        raise DataDirHeld(folder, pid) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return DataDirLock(path, fd)


def _pid(fd: int) -> int | None:
    """The PID written in the lock file (None when unreadable: a holder still writing it)."""
    try:
        text = os.pread(fd, 32, 0).decode().strip()
        return int(text) if text else None
    except (OSError, ValueError):
        return None
