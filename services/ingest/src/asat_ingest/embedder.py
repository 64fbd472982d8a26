"""The Embedder port: text in, one dense vector per text out.

``embed`` is for the texts the index holds, ``embed_queries`` for questions searched against
them. ``identity`` names everything that decides the vectors (model, weights hash, dimension,
pooling, normalisation), so a vector cached under one identity is never served for another.
Every adapter runs :mod:`asat_ingest.testing.embedder_contract`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    @property
    def identity(self) -> str:
        """A string that changes whenever the vectors could change."""
        ...

    @property
    def dim(self) -> int:
        """Length of every vector ``embed`` returns."""
        ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per document text, in order; an empty list for no texts."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per question, in the documents' space (most adapters embed both alike;
        ``static-corpus`` embeds documents by a table and questions by MiniLM)."""
        ...


class EmbedderError(Exception):
    """An embedder could not produce vectors (bad configuration, unreachable server, bad reply)."""
