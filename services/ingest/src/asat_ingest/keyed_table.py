"""One SQLite table of rows keyed by a hash, as the build caches keep them (vectors, term counts).

``KeyedTable(path, table, columns)`` opens (or creates) the file and a table ``key BLOB PRIMARY
KEY`` plus ``columns``, in WAL mode, for use from several threads; ``rows`` reads the rows of
many keys at once, ``put`` writes rows (replacing any of the same key) and commits. The key is
:func:`cache_key`: ``sha256(identity + "\\0" + text)``, so a row made under one identity (an
embedder, a tokenizer) is never read under another.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_LOOKUP_CHUNK = 500
_NAME = re.compile(r"^[a-z_]+$")


def cache_key(identity: str, text: str) -> bytes:
    """``sha256(identity + "\\0" + text)``, the cache key of ``text`` under ``identity``."""
    return hashlib.sha256(f"{identity}\0{text}".encode()).digest()


class KeyedTable:
    def __init__(self, path: Path, table: str, columns: Sequence[tuple[str, str]]) -> None:
        """``columns``: (name, SQL type) after the key, e.g. ``("data", "BLOB NOT NULL")``."""
        names = [table, *(name for name, _ in columns)]
        if not all(_NAME.match(name) for name in names):
            raise ValueError(f"table and column names must be lower-case words, got {names}")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._table = table
        self._columns = ", ".join(name for name, _ in columns)
        self._marks = ", ".join("?" * (len(columns) + 1))
        declared = ", ".join(f"{name} {kind}" for name, kind in columns)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key BLOB PRIMARY KEY, {declared})")
        self._db.commit()
        self._guard = threading.Lock()

    def rows(self, keys: Sequence[bytes]) -> dict[bytes, tuple[Any, ...]]:
        """The stored columns of each key that has a row."""
        found: dict[bytes, tuple[Any, ...]] = {}
        with self._guard:
            for start in range(0, len(keys), _LOOKUP_CHUNK):
                chunk = keys[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                query = f"SELECT key, {self._columns} FROM {self._table} WHERE key IN ({marks})"
                for key, *values in self._db.execute(query, chunk):
                    found[bytes(key)] = tuple(values)
        return found

    def put(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Write ``(key, *columns)`` rows, replacing rows of the same key, and commit."""
        with self._guard:
            self._db.executemany(
                f"INSERT OR REPLACE INTO {self._table} (key, {self._columns}) VALUES ({self._marks})", rows
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._guard:
            (count,) = self._db.execute(f"SELECT COUNT(*) FROM {self._table}").fetchone()
        return int(count)

    def close(self) -> None:
        with self._guard:
            self._db.close()
