"""An on-disk cache of embedding vectors in one SQLite file.

The key is ``sha256(embedder identity + "\\0" + text)``: identical text is embedded once across
compilations, and a vector made by one embedder can never be served for another. Vectors are
stored as little-endian float32 (what the index stores anyway).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

_SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, dim INTEGER NOT NULL, data BLOB NOT NULL)"
_LOOKUP_CHUNK = 500


def cache_key(identity: str, text: str) -> bytes:
    """``sha256(identity + "\\0" + text)``, the cache key of ``text`` under ``identity``."""
    return hashlib.sha256(f"{identity}\0{text}".encode()).digest()


class VectorCache:
    """``get_many`` / ``put_many`` by (identity, text); counts hits and misses since opening."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()
        self._guard = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_many(self, identity: str, texts: Sequence[str]) -> list[list[float] | None]:
        """The cached vector of each text, or None where there is none."""
        return [None if v is None else v.astype(np.float64).tolist() for v in self.get_arrays(identity, texts)]

    def get_arrays(self, identity: str, texts: Sequence[str]) -> list[npt.NDArray[np.float32] | None]:
        """The cached vector of each text as a float32 array (read-only), or None where there is none."""
        keys = [cache_key(identity, text) for text in texts]
        found: dict[bytes, npt.NDArray[np.float32]] = {}
        with self._guard:
            for start in range(0, len(keys), _LOOKUP_CHUNK):
                chunk = keys[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(f"SELECT key, dim, data FROM vectors WHERE key IN ({marks})", chunk)
                for key, dim, data in rows:
                    vector = np.frombuffer(data, dtype="<f4")
                    if vector.shape[0] == dim:
                        found[bytes(key)] = vector
        result = [found.get(key) for key in keys]
        hit_count = sum(1 for vector in result if vector is not None)
        self.hits += hit_count
        self.misses += len(result) - hit_count
        return result

    def put_many(self, identity: str, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        if len(texts) != len(vectors):
            raise ValueError(f"put_many got {len(texts)} texts but {len(vectors)} vectors")
        rows = [
            (cache_key(identity, text), len(vector), np.asarray(vector, dtype="<f4").tobytes())
            for text, vector in zip(texts, vectors, strict=True)
        ]
        with self._guard:
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, dim, data) VALUES (?, ?, ?)", rows)
            self._db.commit()

    def __len__(self) -> int:
        with self._guard:
            (count,) = self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()
        return int(count)

    def close(self) -> None:
        with self._guard:
            self._db.close()
