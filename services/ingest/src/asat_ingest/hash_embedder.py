"""A deterministic embedder from hashing, for pure unit tests only: it knows no meaning."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from asat_ingest.embedder import EmbedderError


class HashEmbedder:
    """Each text maps to a fixed pseudo-random unit vector (sha256 in counter mode)."""

    def __init__(self, dim: int = 16) -> None:
        if dim < 1:
            raise EmbedderError(f"dim must be at least 1, got {dim}")
        self._dim = dim

    @property
    def identity(self) -> str:
        return f"hash-embedder-for-tests-only|dim={self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _vector(self, text: str) -> list[float]:
        raw: list[float] = []
        counter = 0
        while len(raw) < self._dim:
            block = hashlib.sha256(f"{counter}\0{text}".encode()).digest()
            raw.extend((int.from_bytes(block[i : i + 4], "big") / 2**31) - 1.0 for i in range(0, 32, 4))
            counter += 1
        vector = raw[: self._dim]
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions are embedded as documents are."""
        return self.embed(texts)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]
