"""An on-disk cache of embedding vectors in one SQLite file.

The key is ``sha256(embedder identity + "\\0" + text)``: identical text is embedded once across
compilations, and a vector made by one embedder can never be served for another. Vectors are
stored as little-endian float32 (what the index stores anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from asat_ingest.keyed_table import KeyedTable, cache_key

__all__ = ["VectorCache", "cache_key"]


class VectorCache:
    """``get_many`` / ``put_many`` by (identity, text); counts hits and misses since opening."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._table = KeyedTable(path, "vectors", (("dim", "INTEGER NOT NULL"), ("data", "BLOB NOT NULL")))
        self.hits = 0
        self.misses = 0

    def get_many(self, identity: str, texts: Sequence[str]) -> list[list[float] | None]:
        """The cached vector of each text, or None where there is none."""
        return [None if v is None else v.astype(np.float64).tolist() for v in self.get_arrays(identity, texts)]

    def get_arrays(self, identity: str, texts: Sequence[str]) -> list[npt.NDArray[np.float32] | None]:
        """The cached vector of each text as a float32 array (read-only), or None where there is none."""
        keys = [cache_key(identity, text) for text in texts]
        found: dict[bytes, npt.NDArray[np.float32]] = {}
        for key, (dim, data) in self._table.rows(keys).items():
            vector = np.frombuffer(data, dtype="<f4")
            if vector.shape[0] == dim:
                found[key] = vector
        result = [found.get(key) for key in keys]
        hit_count = sum(1 for vector in result if vector is not None)
        self.hits += hit_count
        self.misses += len(result) - hit_count
        return result

    def put_many(self, identity: str, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        if len(texts) != len(vectors):
            raise ValueError(f"put_many got {len(texts)} texts but {len(vectors)} vectors")
        self._table.put(
            [
                (cache_key(identity, text), len(vector), np.asarray(vector, dtype="<f4").tobytes())
                for text, vector in zip(texts, vectors, strict=True)
            ]
        )

    def __len__(self) -> int:
        return len(self._table)

    def close(self) -> None:
        self._table.close()
