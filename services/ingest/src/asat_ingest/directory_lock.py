"""An exclusive, advisory lock that makes one process the owner of an index directory.

The lock is ``fcntl.flock`` on ``<directory>/.asat-index.lock``; the file holds the owner's PID
so that a second process can say who holds it. The kernel drops the lock when the owner exits,
however it exits, so a crashed owner never leaves the directory locked.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from asat_ingest.index_errors import IndexLockedError

LOCK_FILE = ".asat-index.lock"


class DirectoryLock:
    """Holds the lock from construction until :meth:`release`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / LOCK_FILE
        handle: IO[str] = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            raise IndexLockedError(directory, int(holder) if holder.isdigit() else None) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._handle: IO[str] | None = handle

    @property
    def held(self) -> bool:
        return self._handle is not None

    def release(self) -> None:
        if self._handle is None:
            return
        handle, self._handle = self._handle, None
        handle.seek(0)
        handle.truncate()
        handle.flush()
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        handle.close()
